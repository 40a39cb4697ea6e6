// A new tenant's cost history read by many runs side by side: a run holds its worker's place only
// for Cost Management's short waits, and a longer wait ends it with its tenant's next run queued for
// the wait's end; across such runs every 429 is honoured and the bill read is exactly Azure's.
import { sql } from 'drizzle-orm';
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectTenant,
  createCloudTestContext,
  readAzureCostTotal,
  type CloudTestContext,
} from '../../test/azure-emulator';
import { createUser } from '../../test/helper';
import { dayMs } from '../lib/time';
import { costSyncJob } from '../queue/cloud-work';
import { createCostSyncJob } from './cost-sync.job';

const clockMs = Date.UTC(2026, 10, 24, 15, 0);
const readClock = () => new Date(clockMs);
const formatDay = (time: number) => new Date(time).toISOString().slice(0, 10);

let context: CloudTestContext;
// Two tenants with bills of their own, one for each test.
let tenantIds: string[];

async function query<Row extends Record<string, unknown>>(statement: ReturnType<typeof sql>): Promise<Row[]> {
  return (await context.container.database.db.execute(statement)).rows as Row[];
}

beforeAll(async () => {
  context = await createCloudTestContext({
    now: readClock,
    emulator: {
      fleetSize: 10,
      now: readClock,
      // Two queries, then two a second (a run reads faster, even on a loaded machine): Cost
      // Management asks for a wait every few queries.
      throttleLimits: { costQueryCapacity: 2, costQueryRefillPerMinute: 120 },
    },
  });
  const owner = await createUser(context);
  tenantIds = [await connectTenant(context, owner.teamId, 0), await connectTenant(context, owner.teamId, 1)];
  for (const tenantId of tenantIds) await context.container.inventory.syncTenant(tenantId);
}, 60_000);
afterAll(() => context.close());

describe('the cost-sync job', () => {
  it('reads the whole history across runs that each stop at a wait, every 429 honoured, to the cent', async () => {
    const tenantId = tenantIds[0]!;
    let runs = 0;
    for (;;) {
      runs += 1;
      // Every wait ends the run here.
      const summary = await context.container.costs.syncTenant(tenantId, {
        longestHeldWaitMs: 0,
        signal: AbortSignal.timeout(60_000),
      });
      if (!summary?.resumeAt) break;
      // Cost Management's budget refills in real seconds.
      await delay(Math.max(0, summary.resumeAt.getTime() - Date.now()));
      expect(runs).toBeLessThan(200);
    }
    expect(runs).toBeGreaterThan(1);
    expect(context.emulator.stats.throttled).toBeGreaterThan(0);
    expect(context.emulator.stats.retriesBeforeRetryAfter).toBe(0);

    const [pending] = await query<{ count: number }>(sql`
      select count(*)::int as count from cost_sync
      where tenant_id = ${tenantId}::uuid and (backfilled_at is null or jsonb_array_length(plan) > 0)`);
    expect(pending!.count).toBe(0);
    const from = formatDay(clockMs - 89 * dayMs);
    const to = formatDay(clockMs);
    for (const { subscriptionId } of context.emulator.tenants[0]!.subscriptions) {
      const [stored] = await query<{ total: number }>(sql`
        select coalesce(sum(actual_cost), 0)::float8 as total from cost_day
        where tenant_id = ${tenantId}::uuid and subscription_id = ${subscriptionId}
          and day between ${from}::date and ${to}::date`);
      expect(stored!.total).toBeCloseTo(
        readAzureCostTotal(context.emulator, { subscriptionId, type: 'ActualCost', from, to }, readClock()),
        2,
      );
    }
  }, 120_000);

  it('ends at a long wait for Cost Management, with its tenant’s next run queued for the wait’s end', async () => {
    const tenantId = tenantIds[1]!;
    // Two queries, then one each 15 s: longer than a run holds its place for.
    await context.restartEmulator({ throttleLimits: { costQueryCapacity: 2, costQueryRefillPerMinute: 4 } });
    await createCostSyncJob(context.container).handle({ tenantId }, { signal: AbortSignal.timeout(60_000) });

    // It returned before the wait was over (not waiting it out in its place)…
    const waits = await query<{ notBefore: number }>(sql`
      select (extract(epoch from not_before) * 1000)::float8 as "notBefore" from cost_sync
      where tenant_id = ${tenantId}::uuid and jsonb_array_length(plan) > 0 and not_before is not null
      order by not_before`);
    expect(waits.length).toBeGreaterThan(0);
    const shortestWait = waits[0]!.notBefore;
    expect(shortestWait).toBeGreaterThan(Date.now());
    // …and its tenant's next run may start once Cost Management allows it, not long after.
    const queued = await query<{ startAfter: number }>(sql`
      select (extract(epoch from start_after) * 1000)::float8 as "startAfter" from pgboss.job
      where name = ${costSyncJob.name} and singleton_key = ${tenantId} and state = 'created'`);
    expect(queued).toHaveLength(1);
    expect(queued[0]!.startAfter).toBeGreaterThanOrEqual(shortestWait);
    expect(queued[0]!.startAfter - shortestWait).toBeLessThan(1000);
    expect(context.emulator.stats.throttled).toBeGreaterThan(0);
    expect(context.emulator.stats.retriesBeforeRetryAfter).toBe(0);
  });
});
