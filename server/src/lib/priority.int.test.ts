// Background work's PostgreSQL backends give way to the API's: on the test run's embedded server
// (this host, this user), a pool given lowerBackendPriority has its backends at nice 10 from their
// first query, and another pool's stay at the server's own priority.
import { readFile } from 'node:fs/promises';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../test/helper';
import { lowerBackendPriority } from './priority';

// A process's parent pid and nice value (fields 4 and 19 of /proc/<pid>/stat, counted after the
// command name's closing parenthesis from field 3 on).
async function readStat(pid: number): Promise<{ parentPid: number; nice: number }> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { parentPid: Number(fields[1]), nice: Number(fields[16]) };
}

async function readNice(pid: number): Promise<number> {
  return (await readStat(pid)).nice;
}

async function readBackendPid(pool: pg.Pool): Promise<number> {
  const { rows } = await pool.query<{ pid: number }>('select pg_backend_pid() as pid');
  return rows[0]!.pid;
}

let databaseUrl: string;
const pools: pg.Pool[] = [];
const warnings: string[] = [];
const log = { warn: (_details: object, message: string) => warnings.push(message) };

beforeAll(async () => {
  databaseUrl = await createTestDatabase();
});
afterAll(async () => {
  await Promise.all(pools.map((pool) => pool.end()));
});

describe.runIf(process.platform === 'linux')('lowerBackendPriority', () => {
  it('lowers every backend of the pool it is given, from the first query on', async () => {
    const background = new pg.Pool({ connectionString: databaseUrl, max: 3 });
    pools.push(background);
    lowerBackendPriority(background, log);
    // Three clients at once: three backends, each lowered before its own first query answers.
    const clients = await Promise.all([background.connect(), background.connect(), background.connect()]);
    const pids = await Promise.all(
      clients.map(async (client) => {
        const { rows } = await client.query<{ pid: number }>('select pg_backend_pid() as pid');
        return rows[0]!.pid;
      }),
    );
    for (const client of clients) client.release();
    expect(new Set(pids).size).toBe(3);
    expect(await Promise.all(pids.map(readNice))).toEqual([10, 10, 10]);
    // Reused clients keep theirs, with no further query of the module's.
    expect(await readNice(await readBackendPid(background))).toBe(10);
    expect(warnings).toEqual([]);
  });

  it("leaves another pool's backends at the server's priority", async () => {
    const api = new pg.Pool({ connectionString: databaseUrl, max: 1 });
    pools.push(api);
    const backend = await readStat(await readBackendPid(api));
    expect(backend.nice).toBe(await readNice(backend.parentPid));
  });
});
