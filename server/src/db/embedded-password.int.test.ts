// The embedded PostgreSQL's superuser password is generated per machine into DATA_DIR/secrets,
// not the constant any local user could try; a database made with the old constant is moved over.
import { randomUUID } from 'node:crypto';
import { chmod, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { startEmbeddedPostgres } from './database';
import { initialisePostgres, resolvePostgresLayout } from './embedded-postgres';

const quiet = { info: () => {}, warn: () => {} };
const dataDirs: string[] = [];

afterAll(async () => {
  for (const dataDir of dataDirs) await rm(dataDir, { recursive: true, force: true });
});

async function createDataDir(): Promise<string> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), `cloudtrim-pg-${randomUUID().slice(0, 4)}-`));
  // Reachable by the 'postgres' user when this runs as root.
  await chmod(dataDir, 0o755);
  dataDirs.push(dataDir);
  return dataDir;
}

async function connectAs(url: string, password: string): Promise<string | undefined> {
  const withPassword = new URL(url);
  withPassword.password = password;
  const client = new pg.Client({ connectionString: withPassword.toString() });
  try {
    await client.connect();
    return undefined;
  } catch (error) {
    return (error as { code?: string }).code;
  } finally {
    await client.end().catch(() => {});
  }
}

describe("the embedded PostgreSQL's superuser password", () => {
  it('is generated into DATA_DIR/secrets with mode 0600, and the old constant is refused', async () => {
    const dataDir = await createDataDir();
    const server = await startEmbeddedPostgres(dataDir, quiet);
    try {
      const file = path.join(dataDir, 'secrets', 'postgres-password');
      expect((await stat(file)).mode & 0o777).toBe(0o600);
      const password = (await readFile(file, 'utf8')).trim();
      expect(password).toHaveLength(48);
      expect(new URL(server.url).password).toBe(password);
      expect(await connectAs(server.url, password)).toBeUndefined();
      expect(await connectAs(server.url, 'cloudtrim')).toBe('28P01');
    } finally {
      await server.stop();
    }
  }, 60_000);

  it('replaces the old constant in a database initialised with it', async () => {
    const dataDir = await createDataDir();
    const layout = await resolvePostgresLayout(dataDir, quiet);
    await initialisePostgres(layout, 'cloudtrim');
    const warnings: string[] = [];
    const server = await startEmbeddedPostgres(dataDir, {
      info: () => {},
      warn: (line) => warnings.push(line),
    });
    try {
      const password = new URL(server.url).password;
      expect(password).not.toBe('cloudtrim');
      expect(await connectAs(server.url, password)).toBeUndefined();
      expect(await connectAs(server.url, 'cloudtrim')).toBe('28P01');
      expect(warnings.join('\n')).toMatch(/old constant/);
    } finally {
      await server.stop();
    }
  }, 60_000);
});
