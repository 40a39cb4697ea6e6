// An embedded PostgreSQL in a directory of its own, for the suite's server and the tests that need
// one to themselves. As root, PostgreSQL runs as the 'postgres' user, which must reach the directory.
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startEmbeddedPostgres, type EmbeddedServer } from '../src/db/database';

export interface ScratchPostgres {
  server: EmbeddedServer;
  dataDir: string;
  // Stops the server and removes its directory.
  remove(): Promise<void>;
}

const quiet = { info: () => {}, warn: () => {} };

export async function startScratchPostgres(
  prefix: string,
  options: { maxConnections?: number } = {},
): Promise<ScratchPostgres> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), prefix));
  await chmod(dataDir, 0o755);
  const server = await startEmbeddedPostgres(dataDir, quiet, options);
  return {
    server,
    dataDir,
    remove: async () => {
      await server.stop().catch(() => {});
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
