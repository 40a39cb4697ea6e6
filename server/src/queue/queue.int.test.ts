import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { waitFor } from '../../test/azure-emulator';
import { createTestDatabase } from '../../test/helper';
import { JobQueue, type JobDefinition } from './queue';

const payload = z.object({ step: z.number().int() });
type Payload = z.infer<typeof payload>;
const quiet = { error: () => {}, warn: () => {} };

let opened: { queue: JobQueue; client: pg.Client }[] = [];
afterEach(async () => {
  for (const { queue, client } of opened) {
    await queue.stop();
    await client.end();
  }
  opened = [];
});

async function openQueue(
  definition: JobDefinition<typeof payload>,
  prepare?: (client: pg.Client) => Promise<void>,
) {
  const databaseUrl = await createTestDatabase();
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  await prepare?.(client);
  const queue = new JobQueue(databaseUrl, quiet);
  opened.push({ queue, client });
  await queue.start([definition]);
  await queue.work();
  return { queue, client };
}

function defineJob(
  settings: Omit<JobDefinition<typeof payload>, 'name' | 'payload'>,
): JobDefinition<typeof payload> {
  return { name: 'queue-test', payload, pollingIntervalSeconds: 0.5, ...settings };
}

// A handler's run that the test ends when it chooses.
function holdRuns() {
  const running = new Map<number, { release(): void; signal: AbortSignal | undefined }>();
  let mostAtOnce = 0;
  const handle = async ({ step }: Payload, context?: { signal: AbortSignal }) => {
    await new Promise<void>((resolve) => {
      running.set(step, { release: resolve, signal: context?.signal });
      mostAtOnce = Math.max(mostAtOnce, running.size);
    });
    running.delete(step);
  };
  return { running, handle, mostAtOnce: () => mostAtOnce };
}

async function jobStates(client: pg.Client): Promise<Record<string, number>> {
  const { rows } = await client.query<{ state: string; count: number }>(
    `select state, count(*)::int as count from pgboss.job where name = 'queue-test' group by state`,
  );
  return Object.fromEntries(rows.map((row) => [row.state, row.count]));
}

describe('the job queue', () => {
  it("runs a queue's jobs side by side, as many as its concurrency, and takes the next as one ends", async () => {
    const runs = holdRuns();
    const { queue, client } = await openQueue(defineJob({ concurrency: 3, handle: runs.handle }));
    await queue.sendMany(
      { name: 'queue-test', payload },
      [1, 2, 3, 4, 5].map((step) => ({ step })),
    );

    await waitFor(async () => runs.running.size === 3);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(runs.running.size).toBe(3);
    const [first] = runs.running.keys();
    runs.running.get(first!)!.release();
    await waitFor(async () => runs.running.size === 3 && !runs.running.has(first!));
    while ((await jobStates(client)).completed !== 5) {
      for (const run of runs.running.values()) run.release();
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(runs.mostAtOnce()).toBe(3);
  });

  it("runs another key's job while a stately key's next job waits for its running one", async () => {
    const runs = holdRuns();
    const { queue } = await openQueue(defineJob({ policy: 'stately', concurrency: 2, handle: runs.handle }));
    await queue.send({ name: 'queue-test', payload }, { step: 1 }, { singletonKey: 'tenant-a' });
    await waitFor(async () => runs.running.has(1));
    // Tenant A's next run is queued first, so it is the oldest job waiting; tenant B's comes after.
    await queue.send({ name: 'queue-test', payload }, { step: 2 }, { singletonKey: 'tenant-a' });
    await queue.send({ name: 'queue-test', payload }, { step: 3 }, { singletonKey: 'tenant-b' });

    await waitFor(async () => runs.running.has(3));
    expect(runs.running.has(2)).toBe(false);
    runs.running.get(3)!.release();
    runs.running.get(1)!.release();
    await waitFor(async () => runs.running.has(2));
    runs.running.get(2)!.release();
  });

  it("aborts a run's signal at the job's expiry and retries the job", async () => {
    const reasons: unknown[] = [];
    const { queue, client } = await openQueue(
      defineJob({
        expireInSeconds: 2,
        retryLimit: 1,
        retryDelaySeconds: 1,
        handle: async (_payload, context) => {
          if (reasons.length > 0) return;
          // The first run ignores its signal but for noting why it was aborted.
          await new Promise<void>((resolve) =>
            context!.signal.addEventListener('abort', () => {
              reasons.push(context!.signal.reason);
              resolve();
            }),
          );
        },
      }),
    );
    await queue.send({ name: 'queue-test', payload }, { step: 1 });

    await waitFor(async () => (await jobStates(client)).completed === 1);
    expect(reasons).toHaveLength(1);
    expect(String(reasons[0])).toMatch(/ran past its expiry of 2 s/);
    const { rows } = await client.query(`select retry_count from pgboss.job where name = 'queue-test'`);
    expect(rows).toEqual([{ retry_count: 1 }]);
  });

  it("fails a run still going when the stop's wait runs out, and aborts its signal", async () => {
    const runs = holdRuns();
    const { queue, client } = await openQueue(defineJob({ retryLimit: 3, handle: runs.handle }));
    await queue.send({ name: 'queue-test', payload }, { step: 1 });
    await waitFor(async () => runs.running.has(1));
    const { signal } = runs.running.get(1)!;

    await queue.stop();
    expect(signal?.aborted).toBe(true);
    expect(String(signal?.reason)).toMatch(/stopped before the job ended/);
    // pg-boss runs it again on the next start.
    expect(await jobStates(client)).toEqual({ retry: 1 });
  }, 40_000);

  it('returns from a stop only once an aborted handler has wound up, so it never outlives the database', async () => {
    let hasWoundUp = false;
    let isRunning = false;
    const handle = async (_: Payload, context?: { signal: AbortSignal }) => {
      isRunning = true;
      await new Promise((resolve) => context?.signal.addEventListener('abort', resolve, { once: true }));
      // What a real handler does on abort: finishes the statement it was in.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      hasWoundUp = true;
    };
    const { queue } = await openQueue(defineJob({ retryLimit: 3, handle }));
    await queue.send({ name: 'queue-test', payload }, { step: 1 });
    await waitFor(async () => isRunning);

    await queue.stop();
    expect(hasWoundUp).toBe(true);
  }, 40_000);

  it('brings a retry forward to retryDelayMaxSeconds when its back-off would wait longer', async () => {
    let attempts = 0;
    const { queue, client } = await openQueue(
      defineJob({
        retryLimit: 20,
        retryDelaySeconds: 1,
        retryDelayMaxSeconds: 2,
        handle: async () => {
          attempts += 1;
          if (attempts === 1) throw new Error('SMTP server away');
        },
      }),
    );
    const jobId = await queue.send({ name: 'queue-test', payload }, { step: 1 }, { startAfter: 3600 });
    // As if it had failed eight times already: the uncapped back-off is now 256 to 512 s.
    await client.query(`update pgboss.job set retry_count = 8, start_after = now() where id = $1`, [jobId]);

    await waitFor(async () => attempts === 1 && (await jobStates(client)).retry === 1);
    const failedAt = Date.now();
    await waitFor(async () => (await jobStates(client)).completed === 1, 10_000);
    expect(attempts).toBe(2);
    expect(Date.now() - failedAt).toBeLessThan(5_000);
  });

  it('keeps a running job only as long as its heartbeat beats, and aborts a run whose job was taken', async () => {
    const runs = holdRuns();
    const { queue, client } = await openQueue(
      defineJob({ expireInSeconds: 600, heartbeatSeconds: 2, handle: runs.handle }),
    );
    const jobId = await queue.send({ name: 'queue-test', payload }, { step: 1 });
    await waitFor(async () => runs.running.has(1));
    // Past one whole beat window (2 s), the job is still active: its beats kept it alive.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    // A worker that died would leave the job to be failed within a beat, not at its 600 s expiry: what
    // is left of its expiry is at most one beat. The slack is the measurement's: a beat whose
    // transaction began a moment after this query's (now() is each transaction's start) and committed
    // before its snapshot reads a little over two seconds, and a beat late on a loaded machine leaves
    // less. Left ≤ 0 would be a lapsed beat; the next beat (every second) brings it back.
    const readLeft = async () => {
      const { rows } = await client.query<{ left: number; state: string }>(
        `select state, extract(epoch from started_on + expire_in - now())::float8 as left from pgboss.job where id = $1`,
        [jobId],
      );
      return rows[0]!;
    };
    const alive = await waitFor(async () => {
      const row = await readLeft();
      return row.left > 0 ? row : undefined;
    });
    expect(alive.state).toBe('active');
    expect(alive.left).toBeLessThanOrEqual(2.5);

    // What pg-boss's maintenance does to a job whose heartbeat lapsed.
    await client.query(
      `update pgboss.job set state = 'retry', start_after = now() + interval '1 hour' where id = $1`,
      [jobId],
    );
    const { signal } = runs.running.get(1)!;
    await waitFor(async () => signal?.aborted);
    expect(String(signal?.reason)).toMatch(/heartbeat had lapsed/);
    runs.running.get(1)!.release();
  });

  it('sets aside a schema a newer pg-boss made, keeping it, and runs the jobs that were waiting in it', async () => {
    const done: number[] = [];
    const { client } = await openQueue(
      defineJob({
        handle: async ({ step }) => {
          done.push(step);
        },
      }),
      // The part of pg-boss 12's schema (version 43) its jobs are read from.
      async (client) => {
        await client.query(`
          create schema pgboss;
          create table pgboss.version (version int primary key);
          insert into pgboss.version values (43);
          create type pgboss.job_state as enum ('created', 'retry', 'active', 'completed', 'cancelled', 'failed');
          create table pgboss.job (
            id uuid primary key default gen_random_uuid(), name text not null, priority int not null default 0,
            data jsonb, state pgboss.job_state not null default 'created', retry_count int not null default 0,
            start_after timestamptz not null default now(), singleton_key text,
            created_on timestamptz not null default now(), keep_until timestamptz not null default now() + interval '14 days');
          insert into pgboss.job (name, data, state) values
            ('queue-test', '{"step": 1}', 'created'),
            ('queue-test', '{"step": 2}', 'retry'),
            ('queue-test', '{"step": 3}', 'completed'),
            ('queue-gone', '{"step": 4}', 'created');`);
      },
    );

    await waitFor(async () => done.length === 2);
    expect(done.sort()).toEqual([1, 2]);
    const { rows: schemas } = await client.query<{ name: string }>(
      `select nspname as name from pg_namespace where nspname like 'pgboss%' order by nspname`,
    );
    expect(schemas.map((schema) => schema.name)).toEqual([
      'pgboss',
      expect.stringMatching(/^pgboss_v43_\d+$/),
    ]);
    const { rows: left } = await client.query(
      `select name, state::text from ${schemas[1]!.name}.job order by name`,
    );
    expect(left).toEqual([
      { name: 'queue-gone', state: 'created' },
      { name: 'queue-test', state: 'completed' },
    ]);
  });
});
