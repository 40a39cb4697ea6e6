import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectTenant, createCloudTestContext, type CloudTestContext } from '../../../test/azure-emulator';
import { createUser } from '../../../test/helper';
import { hourMs, minuteMs } from '../../lib/time';
import { createInventorySyncJob } from '../../jobs/inventory-sync.job';
import { metricsBackfillJob } from '../../queue/cloud-work';

// 3 minutes past the top of an hour that has passed: a first collection now reads from 1 minute past
// the hour before, which it rolls up as an hour seen from its start (as at any hour's first minutes).
let clockMs = Math.floor(Date.now() / hourMs) * hourMs - 3 * hourMs + 3 * minuteMs;
const readClock = () => new Date(clockMs);

let context: CloudTestContext;
let teamId: string;
let tenantId: string;

async function query<Row extends Record<string, unknown>>(statement: ReturnType<typeof sql>): Promise<Row[]> {
  return (await context.container.database.db.execute(statement)).rows as Row[];
}

// The tenant's back-fill jobs waiting in the queue.
async function countQueuedBackfills(): Promise<number> {
  const [row] = await query<{ count: number }>(sql`
    select count(*)::int as count from pgboss.job
    where name = ${metricsBackfillJob.name} and singleton_key = ${tenantId} and state < 'active'`);
  return row!.count;
}

// Hours per running VM's CPU metric, fewest first.
async function readCpuHours(): Promise<number[]> {
  const rows = await query<{ hours: number }>(sql`
    select count(metric_hourly.hour)::int as hours from metric
    join resource on resource.id = metric.resource_id
    left join metric_hourly on metric_hourly.metric_id = metric.id
    where resource.tenant_id = ${tenantId}::uuid and resource.power_state = 'running'
      and metric.name = 'Percentage CPU'
    group by metric.id order by hours`);
  return rows.map((row) => row.hours);
}

beforeAll(async () => {
  context = await createCloudTestContext({ now: readClock, emulator: { fleetSize: 10, now: readClock } });
  teamId = (await createUser(context)).teamId;
  tenantId = await connectTenant(context, teamId);
});
afterAll(() => context.close());

describe('a new tenant’s back-fill', () => {
  it('is queued by its first sync, and again by a later one for as long as a metric was never back-filled', async () => {
    await context.container.inventory.syncTenant(tenantId);
    expect(await countQueuedBackfills()).toBe(1);
    // That job is lost (failed past its retries, say): the next sync finds no new resource, but
    // queues the back-fill again since the metrics still have none.
    await query(sql`update pgboss.job set state = 'failed' where name = ${metricsBackfillJob.name}
      and singleton_key = ${tenantId}`);
    clockMs += minuteMs;
    await context.container.inventory.syncTenant(tenantId);
    expect(await countQueuedBackfills()).toBe(1);
  });

  it('writes the 14 days even when the first collection ran first and rolled up an hour of its own', async () => {
    await context.container.metrics.collectTenant(tenantId);
    // The collection's own hour is there before any back-fill (what the old rule took for a
    // back-filled metric, and skipped).
    expect((await readCpuHours())[0]).toBe(1);

    const summary = await context.container.metrics.backfillTenant(tenantId);
    expect(summary).toMatchObject({ failedResourceCount: 0 });
    // 14 days up to the last whole hour; the collection's hour is among them and kept as it was.
    const hours = await readCpuHours();
    expect(hours.length).toBeGreaterThan(0);
    expect(hours.every((count) => count === 14 * 24)).toBe(true);
    const [{ missing }] = (await query<{ missing: number }>(sql`
      select count(*)::int as missing from metric join resource on resource.id = metric.resource_id
      where resource.tenant_id = ${tenantId}::uuid and metric.backfilled_at is null`)) as [
      { missing: number },
    ];
    expect(missing).toBe(0);

    // Done: a second back-fill reads nothing, and the next sync queues none.
    expect(await context.container.metrics.backfillTenant(tenantId)).toMatchObject({ callCount: 0 });
    await query(sql`update pgboss.job set state = 'completed' where name = ${metricsBackfillJob.name}
      and singleton_key = ${tenantId}`);
    clockMs += minuteMs;
    await context.container.inventory.syncTenant(tenantId);
    expect(await countQueuedBackfills()).toBe(0);
  });
});

describe('a new tenant’s first sync', () => {
  it('is tried again within minutes when it fails (the job fails, pg-boss retries it), a later one not', async () => {
    const newTenantId = await connectTenant(context, teamId, 1);
    const job = createInventorySyncJob(context.container);
    // Azure refuses every read as the tenant is connected: nothing of it is known yet.
    context.emulator.setFaults({ errorCount: 1000, errorStatus: 403, kinds: ['arm-read'] });
    try {
      await expect(job.handle({ tenantId: newTenantId })).rejects.toThrow(
        'The first sync of the tenant failed',
      );
    } finally {
      context.emulator.setFaults(undefined);
    }
    // The retry reads the tenant, and queues its back-fill.
    const queuedBefore = await query<{ count: number }>(sql`
      select count(*)::int as count from pgboss.job where name = ${metricsBackfillJob.name}
        and singleton_key = ${newTenantId}`);
    expect(queuedBefore[0]!.count).toBe(0);
    await job.handle({ tenantId: newTenantId });
    const queued = await query<{ count: number }>(sql`
      select count(*)::int as count from pgboss.job where name = ${metricsBackfillJob.name}
        and singleton_key = ${newTenantId} and state < 'active'`);
    expect(queued[0]!.count).toBe(1);

    // Once it has synced, a failed sync is the schedule's to try again: the job completes.
    clockMs += minuteMs;
    context.emulator.setFaults({ errorCount: 1000, errorStatus: 403, kinds: ['arm-read'] });
    try {
      await expect(job.handle({ tenantId: newTenantId })).resolves.toBeUndefined();
    } finally {
      context.emulator.setFaults(undefined);
    }
  });
});
