// The embedded server caches a quarter of the machine's memory in its shared buffers, within
// PostgreSQL's default (128 MB) and 1 GiB, so the hourly analysis's reads stay in PostgreSQL.
import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../test/helper';
import { openDatabase, type Database } from './database';
import { sizeSharedBuffers } from './embedded-postgres';

const mebibyte = 1024 ** 2;
let database: Database;

beforeAll(async () => {
  database = await openDatabase(await createTestDatabase());
});

afterAll(async () => {
  await database.close();
});

describe('the embedded server’s shared buffers', () => {
  it('are a quarter of the memory, at least 128 MB and at most 1 GiB', () => {
    expect(sizeSharedBuffers(2048 * mebibyte)).toBe('512MB');
    expect(sizeSharedBuffers(24 * 1024 * mebibyte)).toBe('1024MB');
    expect(sizeSharedBuffers(256 * mebibyte)).toBe('128MB');
  });

  it('are what the running server was started with', async () => {
    const { rows } = await database.pool.query<{ bytes: string }>(
      `select (setting::bigint * 8192)::text as bytes from pg_settings where name = 'shared_buffers'`,
    );
    expect(`${Number(rows[0]!.bytes) / mebibyte}MB`).toBe(sizeSharedBuffers(os.totalmem()));
  });
});
