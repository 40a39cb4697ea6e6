// The embedded server caches a quarter of the machine's memory in its shared buffers, within
// PostgreSQL's default (128 MB) and 1 GiB, so the hourly analysis's reads stay in PostgreSQL. The
// server is started here, since the suite's may be an external one (TEST_DATABASE_URL).
import os from 'node:os';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScratchPostgres, type ScratchPostgres } from '../../test/scratch-postgres';
import { sizeSharedBuffers } from './embedded-postgres';

const mebibyte = 1024 ** 2;
let postgres: ScratchPostgres | undefined;

beforeAll(async () => {
  postgres = await startScratchPostgres('cloudtrim-buffers-');
});

afterAll(async () => {
  await postgres?.remove();
});

describe('the embedded server’s shared buffers', () => {
  it('are a quarter of the memory, at least 128 MB and at most 1 GiB', () => {
    expect(sizeSharedBuffers(2048 * mebibyte)).toBe('512MB');
    expect(sizeSharedBuffers(24 * 1024 * mebibyte)).toBe('1024MB');
    expect(sizeSharedBuffers(256 * mebibyte)).toBe('128MB');
  });

  it('are what the server is started with', async () => {
    const client = new pg.Client({ connectionString: postgres!.server.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ bytes: string }>(
        `select (setting::bigint * 8192)::text as bytes from pg_settings where name = 'shared_buffers'`,
      );
      expect(`${Number(rows[0]!.bytes) / mebibyte}MB`).toBe(sizeSharedBuffers(os.totalmem()));
    } finally {
      await client.end();
    }
  });
});
