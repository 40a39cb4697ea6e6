// The month-end and quarter-end forecast over the bill read from the emulator's Cost Management, on
// a movable clock: the call's answer (actual days, then forecast ones, the band around the
// expected total), the summary's month end from the same forecaster, a planned resize lowering the
// forecast from its day, and the refusals of the other cost calls.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectTenant, createCloudTestContext, type CloudTestContext } from '../../../test/azure-emulator';
import { bearer, createUser, logIn, type TestUser } from '../../../test/helper';
import { recommendations, resources, scheduledChanges } from '../../db/schema';

const clockMs = Date.UTC(2026, 10, 10, 10, 0);
const readClock = () => new Date(clockMs);

let context: CloudTestContext;
let owner: TestUser;
let token: string;
let tenantId: string;

interface ForecastAnswer {
  Expected: number;
  Low: number;
  High: number;
  Currency: string;
  Data: { Date: string; Cost: number; Kind: 'actual' | 'forecast'; Low: number; High: number }[];
}

async function get(url: string, authorization = token) {
  return context.app.inject({
    method: 'GET',
    url,
    headers: { ...bearer(authorization), 'content-type': 'application/json' },
  });
}

async function readForecast(query = ''): Promise<ForecastAnswer> {
  const response = await get(`/api/v1/cost/forecast${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<ForecastAnswer>();
}

beforeAll(async () => {
  context = await createCloudTestContext({
    now: readClock,
    emulator: {
      fleetSize: 24,
      now: readClock,
      throttleLimits: { costQueryCapacity: 10_000, costQueryRefillPerMinute: 10_000 },
    },
  });
  owner = await createUser(context);
  token = await logIn(context, owner);
  tenantId = await connectTenant(context, owner.teamId, 0, 0);
  await context.container.inventory.syncTenant(tenantId);
  await context.container.costs.syncTenant(tenantId, { signal: AbortSignal.timeout(120_000) });
}, 180_000);
afterAll(() => context.close());

describe('the cost forecast', () => {
  it('answers the month as its days so far and forecast ones, the band holding the expected total', async () => {
    const forecast = await readForecast();
    expect(forecast.Currency).toBe('USD');
    expect(forecast.Data.map((day) => day.Date)).toEqual(
      Array.from({ length: 30 }, (_, index) =>
        new Date(Date.UTC(2026, 10, 1 + index)).toISOString().slice(0, 10),
      ),
    );
    // Today (the 10th) is partial: the days before it are actual, the rest forecast.
    expect(forecast.Data.filter((day) => day.Kind === 'actual')).toHaveLength(9);
    expect(forecast.Data.slice(9).every((day) => day.Kind === 'forecast' && day.Cost > 0)).toBe(true);
    for (const day of forecast.Data) {
      expect(day.Low).toBeLessThanOrEqual(day.Cost);
      expect(day.High).toBeGreaterThanOrEqual(day.Cost);
    }
    expect(forecast.Low).toBeLessThanOrEqual(forecast.Expected);
    expect(forecast.High).toBeGreaterThanOrEqual(forecast.Expected);
    expect(forecast.High).toBeGreaterThan(forecast.Low);
    expect(forecast.Expected).toBeCloseTo(
      forecast.Data.reduce((total, day) => total + day.Cost, 0),
      0,
    );

    // The actual days are the bill's.
    const bill = (await get('/api/v1/cost?from=2026-11-01&to=2026-11-09&granularity=none')).json<{
      Total: number;
    }>().Total;
    const actual = forecast.Data.filter((day) => day.Kind === 'actual').reduce(
      (total, day) => total + day.Cost,
      0,
    );
    expect(actual).toBeCloseTo(bill, 1);

    // The summary's month end is the same forecast.
    const summary = (await get('/api/v1/cost/summary')).json<{ ForecastMonthEnd: number }>();
    expect(summary.ForecastMonthEnd).toBeCloseTo(forecast.Expected, 1);
  });

  it('answers the quarter, and a subscription or a resource group within the team’s bill', async () => {
    const quarter = await readForecast('?period=quarter');
    expect(quarter.Data).toHaveLength(92);
    expect(quarter.Data[0]!.Date).toBe('2026-10-01');
    expect(quarter.Data.at(-1)!.Date).toBe('2026-12-31');
    expect(quarter.Low).toBeLessThanOrEqual(quarter.Expected);
    expect(quarter.High).toBeGreaterThanOrEqual(quarter.Expected);

    const month = await readForecast();
    const subscriptionIds = context.emulator.tenants[0]!.subscriptions.map((item) => item.subscriptionId);
    const parts = await Promise.all(
      subscriptionIds.map((subscriptionId) => readForecast(`?subscriptionId=${subscriptionId}`)),
    );
    for (const part of parts) expect(part.Expected).toBeLessThan(month.Expected);
    expect(parts.reduce((total, part) => total + part.Data[0]!.Cost, 0)).toBeCloseTo(month.Data[0]!.Cost, 1);

    const machine = context.emulator.fleet.virtualMachines.find(
      (candidate) => candidate.subscriptionId === subscriptionIds[0],
    )!;
    const group = /\/resourceGroups\/([^/]+)/i.exec(machine.id)![1]!;
    const byGroup = await readForecast(`?tenantId=${tenantId}&resourceGroup=${group}`);
    expect(byGroup.Expected).toBeGreaterThan(0);
    expect(byGroup.Expected).toBeLessThan(month.Expected);
  });

  it('lowers the forecast from the day of a planned resize by what it saves a day, and no day before', async () => {
    const before = await readForecast();
    const db = context.container.database.db;
    const [resource] = await db
      .select()
      .from(resources)
      .where(and(eq(resources.tenantId, tenantId), eq(resources.type, 'Microsoft.Compute/virtualMachines')));
    // A scope the resized VM is not in keeps its forecast.
    const otherSubscription = context.emulator.tenants[0]!.subscriptions.find(
      (item) =>
        !resource!.armId.toLowerCase().startsWith(`/subscriptions/${item.subscriptionId.toLowerCase()}/`),
    )!;
    const otherBefore = await readForecast(`?subscriptionId=${otherSubscription.subscriptionId}`);
    // $3,650 a year: $10 a day from the 20th.
    const [recommendation] = await db
      .insert(recommendations)
      .values({
        teamId: owner.teamId,
        tenantId,
        resourceId: resource!.id,
        kind: 'resize',
        predictionMethod: 'cloudtrim-forecast',
        currentSize: resource!.sku,
        targetSize: 'Standard_B2s',
        recommendation: 'Resize to Standard_B2s',
        annualCostSavings: 3650,
      })
      .returning({ id: recommendations.id });
    await db.insert(scheduledChanges).values({
      teamId: owner.teamId,
      tenantId,
      resourceId: resource!.id,
      recommendationId: recommendation!.id,
      kind: 'resize',
      origin: 'window',
      previousSize: resource!.sku,
      newSize: 'Standard_B2s',
      changeAt: new Date(Date.UTC(2026, 10, 20, 2, 0)),
    });

    const after = await readForecast();
    for (const [index, day] of after.Data.entries()) {
      const was = before.Data[index]!;
      if (day.Date < '2026-11-20') expect(day.Cost, day.Date).toBeCloseTo(was.Cost, 2);
      else expect(day.Cost, day.Date).toBeCloseTo(was.Cost - 10, 1);
    }
    expect(after.Expected).toBeCloseTo(before.Expected - 10 * 11, 0);
    expect(after.Low).toBeLessThanOrEqual(after.Expected);
    expect(after.High).toBeGreaterThanOrEqual(after.Expected);
    const summary = (await get('/api/v1/cost/summary')).json<{ ForecastMonthEnd: number }>();
    expect(summary.ForecastMonthEnd).toBeCloseTo(after.Expected, 1);

    const otherAfter = await readForecast(`?subscriptionId=${otherSubscription.subscriptionId}`);
    expect(otherAfter.Expected).toBe(otherBefore.Expected);
  });

  it('refuses a bad period or filter with 400 naming the field, and another team’s scope with 404', async () => {
    const cases = [
      ['?period=week', 'period'],
      ['?tenantId=not-a-guid', 'tenantId'],
      ['?subscriptionId=nope', 'subscriptionId'],
      ['?tag=colour', 'tag'],
    ] as const;
    for (const [query, field] of cases) {
      const response = await get(`/api/v1/cost/forecast${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(response.json<{ field?: string }>().field).toContain(field);
    }
    const stranger = await createUser(context);
    const strangerToken = await logIn(context, stranger);
    expect((await get(`/api/v1/cost/forecast?tenantId=${tenantId}`, strangerToken)).statusCode).toBe(404);
    const subscriptionId = context.emulator.tenants[0]!.subscriptions[0]!.subscriptionId;
    expect(
      (await get(`/api/v1/cost/forecast?subscriptionId=${subscriptionId}`, strangerToken)).statusCode,
    ).toBe(404);
    // A team with no bill has nothing forecast.
    expect((await get('/api/v1/cost/forecast', strangerToken)).json()).toMatchObject({
      Expected: 0,
      Low: 0,
      High: 0,
    });
  });
});
