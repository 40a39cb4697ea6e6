// Reading the bill from the emulator's Cost Management into PostgreSQL, and the cost calls over it:
// totals equal to Azure's for the same scope, type and days, to the cent; a re-read replaces; an
// interrupted backfill resumes without gaps or doubles; throttles are waited out; scopes are the team's.
import { focusColumns } from '@cloudtrim/contracts/costs';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectTenant,
  createCloudTestContext,
  readAzureCostTotal,
  type CloudTestContext,
} from '../../../test/azure-emulator';
import { bearer, createUser, logIn, type TestUser } from '../../../test/helper';
import { activityLogs } from '../../db/schema';
import { tenantNoCostsStatus } from '../tenants/tenants.service';
import { planBackfill } from './costs.plan';
import { CostsRepository } from './costs.repository';
import { hourMs, dayMs } from '../../lib/time';

let clockMs = Date.UTC(2026, 10, 24, 15, 0);
const readClock = () => new Date(clockMs);
const formatDay = (time: number) => new Date(time).toISOString().slice(0, 10);

let context: CloudTestContext;
let owner: TestUser;
let token: string;
let tenantId: string;

// Azure's total for a subscription, cost type and days, from the emulator's own query.
function readAzureTotal(
  subscriptionId: string,
  type: 'ActualCost' | 'AmortizedCost',
  from: string,
  to: string,
) {
  return readAzureCostTotal(context.emulator, { subscriptionId, type, from, to }, readClock());
}

async function readStoredTotal(
  table: 'cost_day' | 'cost_month',
  column: 'actual_cost' | 'amortized_cost',
  subscriptionId: string,
  from: string,
  to: string,
) {
  const dateColumn = table === 'cost_day' ? 'day' : 'month';
  const result = await context.container.database.db.execute<{ total: number }>(sql`
    select coalesce(sum(${sql.raw(column)}), 0)::float8 as total from ${sql.raw(table)}
    where tenant_id = ${tenantId}::uuid and subscription_id = ${subscriptionId}
      and ${sql.raw(dateColumn)} between ${from}::date and ${to}::date
  `);
  return result.rows[0]!.total;
}

// Each day total (cost_day_total) against the sum of its day's rows: those that differ, or exist on
// one side only.
async function readDayTotalMismatches() {
  const result = await context.container.database.db.execute<{ day: string; service: string }>(sql`
    with summed as (
      select subscription_id, day, service_name, sum(actual_cost) as actual, sum(amortized_cost) as amortized
      from cost_day where tenant_id = ${tenantId}::uuid group by subscription_id, day, service_name
    )
    select to_char(coalesce(summed.day, total.day), 'YYYY-MM-DD') as day,
           coalesce(summed.service_name, total.service_name) as service
    from summed full join (select * from cost_day_total where tenant_id = ${tenantId}::uuid) as total
      using (subscription_id, day, service_name)
    where abs(coalesce(summed.actual, 0) - coalesce(total.actual_cost, 0)) > 1e-6
       or abs(coalesce(summed.amortized, 0) - coalesce(total.amortized_cost, 0)) > 1e-6
  `);
  return result.rows;
}

async function readCostRowCount() {
  const result = await context.container.database.db.execute<{ count: number }>(
    sql`select count(*)::int as count from cost_day where tenant_id = ${tenantId}::uuid`,
  );
  return result.rows[0]!.count;
}

const subscriptionIdsOf = () => context.emulator.tenants[0]!.subscriptions.map((item) => item.subscriptionId);

async function get(url: string, authorization = token) {
  return context.app.inject({
    method: 'GET',
    url,
    headers: { ...bearer(authorization), 'content-type': 'application/json' },
  });
}

beforeAll(async () => {
  context = await createCloudTestContext({
    now: readClock,
    emulator: {
      fleetSize: 24,
      now: readClock,
      // Two queries at once, then one a second: throttled often, but quickly over.
      throttleLimits: { costQueryCapacity: 2, costQueryRefillPerMinute: 60 },
    },
  });
  owner = await createUser(context);
  token = await logIn(context, owner);
  tenantId = await connectTenant(context, owner.teamId, 0, 0);
  await context.container.inventory.syncTenant(tenantId);
}, 60_000);
afterAll(() => context.close());

async function countQueuedAnalyses(): Promise<number> {
  const result = await context.container.database.db.execute<{ count: number }>(
    sql`select count(*)::int as count from pgboss.job
      where name = 'recommendations-analyse' and data->>'tenantId' = ${tenantId} and state = 'created'`,
  );
  return result.rows[0]!.count;
}

interface CostAnswer {
  Total: number;
  Complete: boolean;
  DaysRead: { From: string; To: string } | null;
}

describe('reading the bill', () => {
  it('resumes an interrupted backfill without gaps or doubles, waiting out every throttle', async () => {
    // Before the first read nothing of the bill is in, and the answer says so.
    const november = '/api/v1/cost?from=2026-11-01&to=2026-11-24&granularity=none';
    expect((await get(november)).json<CostAnswer>()).toMatchObject({
      Total: 0,
      Complete: false,
      DaysRead: null,
    });
    expect((await get('/api/v1/cost/summary')).json()).toMatchObject({ Complete: false });
    await context.container.database.db.execute(
      sql`delete from pgboss.job where name = 'recommendations-analyse' and data->>'tenantId' = ${tenantId}`,
    );
    const stop = new AbortController();
    const interrupted = context.container.costs.syncTenant(tenantId, { signal: stop.signal });
    // The worker is stopped after a few pages, in the middle of its plan.
    while (context.emulator.stats.calls.costs < 5) await new Promise((resolve) => setTimeout(resolve, 20));
    stop.abort();
    await interrupted;
    expect(await readCostRowCount()).toBeGreaterThan(0);
    // The day totals the summary and the charts read hold the pages written so far, mid-read too.
    expect(await readDayTotalMismatches()).toEqual([]);
    // Half read: the 90 days by day are not all in, and the answer says which are.
    const ninetyDays = (
      await get('/api/v1/cost?from=2026-08-27&to=2026-11-24&granularity=none')
    ).json<CostAnswer>();
    expect(ninetyDays.Complete).toBe(false);
    if (ninetyDays.DaysRead) expect(ninetyDays.DaysRead.From > '2026-08-27').toBe(true);
    // A budget made now is judged on create against what is in (November's first days are: the
    // backfill reads newest first), and says older months are still being read.
    const created = await context.app.inject({
      method: 'POST',
      url: '/api/v1/budget',
      headers: { ...bearer(token), 'content-type': 'application/json' },
      payload: {
        Name: 'Made during the backfill',
        Scope: {},
        Amount: 0.01,
        Period: 'monthly',
        StartDate: '2026-11-01',
        CostType: 'actual',
        Thresholds: [{ Percent: 100, Basis: 'actual', Recipients: { AllTeam: true, Emails: [] } }],
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({ Complete: false, Crossed: [{ Percent: 100, Basis: 'actual' }] });
    await context.app.inject({
      method: 'DELETE',
      url: `/api/v1/budget/${created.json<{ Id: string }>().Id}`,
      headers: bearer(token),
    });

    const calls = context.emulator.stats.calls.costs;
    const summary = await context.container.costs.syncTenant(tenantId, {
      signal: AbortSignal.timeout(120_000),
    });
    expect(summary!.pagesRead).toBeGreaterThanOrEqual(
      planBackfill(readClock()).length * subscriptionIdsOf().length - 5,
    );
    // Each 429 was followed by a wait of its retry-after, so at most one for each query let through.
    const throttled = context.emulator.stats.throttled;
    expect(throttled).toBeGreaterThan(0);
    expect(throttled).toBeLessThanOrEqual(context.emulator.stats.calls.costs - calls);
    // All in: complete, and the recommendations made at list prices were queued to be repriced as
    // soon as the newest days arrived (once, however many subscriptions).
    expect((await get(november)).json<CostAnswer>()).toMatchObject({
      Complete: true,
      DaysRead: { From: '2026-11-01', To: '2026-11-24' },
    });
    expect(await countQueuedAnalyses()).toBe(1);
    expect((await get('/api/v1/cost/summary')).json()).toMatchObject({ Complete: true });
    expect(await readDayTotalMismatches()).toEqual([]);
  }, 180_000);

  it('holds what Azure reports for the same subscription, type and days, to the cent', async () => {
    const today = Date.UTC(2026, 10, 24);
    const ranges = [
      [formatDay(today - 30 * dayMs), formatDay(today)],
      [formatDay(today - 89 * dayMs), formatDay(today - 60 * dayMs)],
    ] as const;
    for (const subscriptionId of subscriptionIdsOf()) {
      for (const [from, to] of ranges) {
        expect(await readStoredTotal('cost_day', 'actual_cost', subscriptionId, from, to)).toBeCloseTo(
          readAzureTotal(subscriptionId, 'ActualCost', from, to),
          2,
        );
        expect(await readStoredTotal('cost_day', 'amortized_cost', subscriptionId, from, to)).toBeCloseTo(
          readAzureTotal(subscriptionId, 'AmortizedCost', from, to),
          2,
        );
      }
      // Thirteen months by month, in two periods (Azure answers a year at most): November 2025 to
      // this month so far.
      for (const [from, to, monthEnd] of [
        ['2025-11-01', '2026-05-31', '2026-05-31'],
        ['2026-06-01', '2026-11-24', '2026-11-30'],
      ] as const) {
        expect(
          await readStoredTotal('cost_month', 'amortized_cost', subscriptionId, from, monthEnd),
        ).toBeCloseTo(readAzureTotal(subscriptionId, 'AmortizedCost', from, to), 2);
      }
    }
  });

  it('re-reads the settling days after Azure refreshes, replacing them, never adding', async () => {
    const rowsBefore = await readCostRowCount();
    clockMs += 5 * hourMs;
    await context.container.costs.syncTenant(tenantId, { signal: AbortSignal.timeout(60_000) });
    const [subscriptionId] = subscriptionIdsOf();
    const from = formatDay(Date.UTC(2026, 10, 1));
    const to = formatDay(Date.UTC(2026, 10, 24));
    expect(await readStoredTotal('cost_day', 'actual_cost', subscriptionId!, from, to)).toBeCloseTo(
      readAzureTotal(subscriptionId!, 'ActualCost', from, to),
      2,
    );
    expect(await readCostRowCount()).toBe(rowsBefore);
    expect(await readDayTotalMismatches()).toEqual([]);
  }, 90_000);

  it('moves the day totals by what each page changed, and sums a whole read again at its end; the bill’s version only when a page changed it', async () => {
    const repository = new CostsRepository(context.container.database.db);
    const subscriptionId = 'aaaaaaaa-0000-4000-8000-000000000001';
    const readTotals = async () => {
      const result = await context.container.database.db.execute<{ day: string; actual: number }>(sql`
        select to_char(day, 'YYYY-MM-DD') as day, actual_cost::float8 as actual from cost_day_total
        where tenant_id = ${tenantId}::uuid and subscription_id = ${subscriptionId} order by day`);
      return result.rows;
    };
    const row = (date: string, resource: string, cost: number) => ({
      date,
      resourceId: `/subscriptions/${subscriptionId}/resourcegroups/rg/providers/microsoft.compute/disks/${resource}`,
      resourceGroup: 'rg',
      serviceName: 'Storage',
      cost,
      usageQuantity: 1,
      currency: 'USD',
    });
    const startRead = () => ({
      granularity: 'Daily' as const,
      costType: 'ActualCost' as const,
      from: '2026-10-01',
      to: '2026-10-02',
      readId: crypto.randomUUID(),
    });
    let read = startRead();
    const write = (rows: ReturnType<typeof row>[], isLast: boolean) =>
      repository.writePage(tenantId, subscriptionId, read, rows, isLast ? [] : [read], {}, readClock());
    // A subscription whose history is read: these pages are a refresh's. The version is the one the
    // cost calls' kept answers are checked against.
    await context.container.database.db.execute(sql`
      insert into cost_sync (tenant_id, subscription_id, backfilled_at)
      values (${tenantId}::uuid, ${subscriptionId}, now())`);
    const versions = [await repository.readTeamVersion(owner.teamId)];
    const readVersionMoves = async () => {
      versions.push(await repository.readTeamVersion(owner.teamId));
      return versions.at(-1) !== versions.at(-2);
    };
    await write([row('2026-10-01', 'a', 1.25), row('2026-10-01', 'b', 2), row('2026-10-02', 'a', 4)], false);
    expect(await readTotals()).toEqual([
      { day: '2026-10-01', actual: 3.25 },
      { day: '2026-10-02', actual: 4 },
    ]);
    expect(await readVersionMoves()).toBe(true);
    // A page written again (a read resumed after a crash, or a refresh of settled days) moves
    // nothing, the version included.
    await write([row('2026-10-01', 'a', 1.25), row('2026-10-02', 'a', 4)], false);
    expect(await readTotals()).toEqual([
      { day: '2026-10-01', actual: 3.25 },
      { day: '2026-10-02', actual: 4 },
    ]);
    expect(await readVersionMoves()).toBe(false);
    // A changed charge moves its day by the difference, and the version.
    await write([row('2026-10-01', 'a', 1.25), row('2026-10-02', 'a', 3.5)], false);
    expect(await readTotals()).toEqual([
      { day: '2026-10-01', actual: 3.25 },
      { day: '2026-10-02', actual: 3.5 },
    ]);
    expect(await readVersionMoves()).toBe(true);
    await write([], true);
    expect(await readTotals()).toEqual([
      { day: '2026-10-01', actual: 3.25 },
      { day: '2026-10-02', actual: 3.5 },
    ]);
    expect(await readVersionMoves()).toBe(false);
    // The next read of the days: at its last page, the charges it no longer reports are zeroed,
    // and the totals follow.
    read = startRead();
    await write([row('2026-10-01', 'b', 2)], true);
    expect(await readTotals()).toEqual([
      { day: '2026-10-01', actual: 2 },
      { day: '2026-10-02', actual: 0 },
    ]);
    expect(await readVersionMoves()).toBe(true);
    expect(await readDayTotalMismatches()).toEqual([]);
    for (const table of ['cost_day', 'cost_day_total', 'cost_sync']) {
      await context.container.database.db.execute(
        sql`delete from ${sql.raw(table)} where subscription_id = ${subscriptionId}`,
      );
    }
  });
});

describe('a principal that may not read costs', () => {
  it('is told once, in the tenant’s Status and Recent Activity, which role to grant', async () => {
    const other = await createUser(context);
    const otherTenantId = await connectTenant(context, other.teamId, 0, 2);
    await context.container.inventory.syncTenant(otherTenantId);
    const otherToken = await logIn(context, other);
    const readComplete = async () =>
      ((await get('/api/v1/cost/summary', otherToken)).json() as CostAnswer).Complete;
    expect(await readComplete()).toBe(false);
    await context.container.costs.syncTenant(otherTenantId, { signal: AbortSignal.timeout(30_000) });
    // Nothing is left to read: the summary says so at once, not when its kept answer ages out.
    expect(await readComplete()).toBe(true);
    // The next runs ask again only after a day.
    await context.container.costs.syncTenant(otherTenantId, { signal: AbortSignal.timeout(30_000) });
    expect(await context.container.costs.enqueueDueTenants()).toBe(0);

    const [tenant] = await context.container.tenants.listTenants(other.teamId);
    expect(tenant!.Status).toBe(tenantNoCostsStatus);
    const entries = await context.container.database.db
      .select()
      .from(activityLogs)
      .where(eq(activityLogs.tenantId, otherTenantId));
    const costEntries = entries.filter((entry) => entry.logText.includes('Cost Management Reader'));
    expect(costEntries).toHaveLength(subscriptionIdsOf().length);
    expect(costEntries[0]!.logText).toMatch(
      /may not read the costs of subscription .+: grant it the Cost Management Reader role to see the bill$/,
    );
  });
});

describe('the cost calls', () => {
  it('answers the bill grouped by service, by day, with a total equal to its rows', async () => {
    const response = await get(
      '/api/v1/cost?from=2026-11-01&to=2026-11-24&groupBy=service&granularity=daily',
    );
    expect(response.statusCode).toBe(200);
    const body = response.json<{
      Data: { Date: string; Group: string; Cost: number }[];
      Total: number;
      Currency: string;
    }>();
    expect(body.Currency).toBe('USD');
    expect(new Set(body.Data.map((point) => point.Group))).toContain('Virtual Machines');
    expect(body.Data.every((point) => point.Date >= '2026-11-01' && point.Date <= '2026-11-24')).toBe(true);
    const sum = body.Data.reduce((total, point) => total + point.Cost, 0);
    expect(sum).toBeCloseTo(body.Total, 0);
    const azure = subscriptionIdsOf().reduce(
      (total, subscriptionId) =>
        total + readAzureTotal(subscriptionId, 'ActualCost', '2026-11-01', '2026-11-24'),
      0,
    );
    expect(body.Total).toBeCloseTo(azure, 1);

    const byTag = await get(
      '/api/v1/cost?from=2026-11-01&to=2026-11-24&groupBy=tag:team&granularity=none&costType=amortized',
    );
    const tagged = byTag.json<{ Data: { Group: string; Cost: number }[]; Total: number }>();
    expect(tagged.Data.filter((point) => point.Group !== '').length).toBeGreaterThan(1);
  });

  it('answers this month against last month, and one resource by day', async () => {
    const summary = (await get('/api/v1/cost/summary')).json<Record<string, number | string>>();
    expect(summary).toMatchObject({ Currency: 'USD', RealizedSavingsYearToDate: 0 });
    expect(summary.MonthToDate).toBeGreaterThan(0);
    expect(summary.LastMonthSameDays).toBeGreaterThan(0);
    expect(summary.ForecastMonthEnd).toBeGreaterThan(summary.MonthToDate as number);

    const machine = context.emulator.fleet.virtualMachines.find(
      (candidate) => candidate.subscriptionId === subscriptionIdsOf()[0],
    )!;
    const resource = await get(`/api/v1/cost/resource?resourceId=${encodeURIComponent(machine.id)}`);
    expect(resource.statusCode).toBe(200);
    const days = resource.json<{ Data: { Date: string; Cost: number }[]; MonthToDate: number }>();
    expect(days.Data.length).toBeGreaterThan(20);
    expect(days.MonthToDate).toBeCloseTo(
      days.Data.filter((day) => day.Date >= '2026-11-01').reduce((total, day) => total + day.Cost, 0),
      1,
    );
  });

  it('exports FOCUS 1.0 columns whose BilledCost adds up to the bill', async () => {
    const response = await get('/api/v1/cost/export?from=2026-11-01&to=2026-11-24');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/csv');
    const [header, ...lines] = response.body.trim().split('\r\n');
    expect(header).toBe(focusColumns.join(','));
    const billed = lines.reduce((total, line) => total + Number(line.split(',')[0]), 0);
    const total = (await get('/api/v1/cost?from=2026-11-01&to=2026-11-24&granularity=none')).json<{
      Total: number;
    }>().Total;
    expect(billed).toBeCloseTo(total, 0);
  });

  it('refuses a bad range or grouping with 400 and another team’s scope with 404', async () => {
    const cases = [
      ['/api/v1/cost?from=2026-11-10&to=2026-11-01', 'from'],
      ['/api/v1/cost?from=2025-01-01&to=2026-11-01', 'to'],
      ['/api/v1/cost?from=2026-11-01&to=2026-11-10&groupBy=colour', 'groupBy'],
      ['/api/v1/cost?from=2026-11-31&to=2026-12-01', 'from'],
    ] as const;
    for (const [url, field] of cases) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(400);
      expect(response.json<{ message: string }>().message.length).toBeGreaterThan(0);
      expect(response.json<{ field?: string }>().field).toContain(field);
    }
    const stranger = await createUser(context);
    const strangerToken = await logIn(context, stranger);
    const response = await get(
      `/api/v1/cost?from=2026-11-01&to=2026-11-10&tenantId=${tenantId}`,
      strangerToken,
    );
    expect(response.statusCode).toBe(404);
    const machine = context.emulator.fleet.virtualMachines[0]!;
    expect(
      (await get(`/api/v1/cost/resource?resourceId=${encodeURIComponent(machine.id)}`, strangerToken))
        .statusCode,
    ).toBe(404);
    expect((await get('/api/v1/cost/summary', strangerToken)).json()).toMatchObject({ MonthToDate: 0 });
  });
});
