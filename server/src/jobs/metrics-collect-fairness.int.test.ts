// Fair spreading by tenant (issue 26 §2): a tenant whose collection cycle outlasts the schedule's
// interval (20,000 VMs) holds one of a worker's places, never the others', and its next cycles wait
// as one queued job behind its run; every other tenant's cycle runs beside it, cycle after cycle.
// The real queue (pg-boss, the stately fetch) and the real metrics-collect definition; the work
// itself is a held run for the big tenant and an instant one for the others.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { expect, it } from 'vitest';
import { waitFor } from '../../test/azure-emulator';
import { createTestDatabase } from '../../test/helper';
import type { Container } from '../container';
import { metricsCollectJob, PgBossCloudWorkQueue } from '../queue/cloud-work';
import { JobQueue } from '../queue/queue';
import { createMetricsCollectJob } from './metrics-collect.job';

const quiet = { error: () => {}, warn: () => {} };

it("runs every other tenant's cycles beside a big tenant's cycle that outlasts the interval", async () => {
  const databaseUrl = await createTestDatabase();
  const bigTenant = randomUUID();
  const smallTenants = Array.from({ length: 30 }, () => randomUUID());
  const collected: string[] = [];
  let bigRuns = 0;
  let releaseBig = () => {};
  const bigHeld = new Promise<void>((resolve) => (releaseBig = resolve));
  const metrics = {
    collectTenant: async (tenantId: string) => {
      if (tenantId === bigTenant) {
        bigRuns += 1;
        await bigHeld;
      } else {
        collected.push(tenantId);
      }
      return undefined;
    },
  };
  const definition = createMetricsCollectJob({
    metrics,
    recommendations: { enqueueAnalysis: async () => {} },
  } as unknown as Pick<Container, 'metrics' | 'recommendations'>);
  const queue = new JobQueue(databaseUrl, quiet);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await queue.start([{ ...definition, pollingIntervalSeconds: 0.5 }]);
    await queue.work();
    const work = new PgBossCloudWorkQueue(queue);
    for (let cycle = 1; cycle <= 3; cycle += 1) {
      // The schedule's fan-out, the big tenant first (the oldest tenant, listed first).
      await work.enqueueMetricsCollection(bigTenant);
      for (const tenantId of smallTenants) await work.enqueueMetricsCollection(tenantId);
      await waitFor(async () => collected.length === cycle * smallTenants.length);
      expect(new Set(collected.slice((cycle - 1) * smallTenants.length))).toEqual(new Set(smallTenants));
    }
    // The big tenant's first cycle is still running; its two later ones are one queued job.
    expect(bigRuns).toBe(1);
    const { rows } = await client.query<{ state: string; count: number }>(
      `select state, count(*)::int as count from pgboss.job where name = $1 and singleton_key = $2
       group by state order by state`,
      [metricsCollectJob.name, bigTenant],
    );
    expect(rows).toEqual([
      { state: 'created', count: 1 },
      { state: 'active', count: 1 },
    ]);
    releaseBig();
    await waitFor(async () => bigRuns === 2);
  } finally {
    releaseBig();
    await queue.stop();
    await client.end();
  }
});
