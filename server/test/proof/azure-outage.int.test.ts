// Azure Monitor fails for minutes (503 to every read, then slow answers): collections in the outage
// write nothing partial, Recent Activity tells the team their metrics are late and why, and the
// first collection after it reads the whole gap, so no minute is lost. The app and the emulator
// share a clock the test moves, so the outage's minutes pass at once.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectTenant, createCloudTestContext, type CloudTestContext } from '../azure-emulator';
import { bearer, createUser, logIn } from '../helper';
import { minuteMs, hourMs } from '../../src/lib/time';

let clockMs = Math.floor(Date.now() / hourMs) * hourMs - 3 * hourMs;
const readClock = () => new Date(clockMs);

let context: CloudTestContext;
let token: string;
let tenantId: string;
let cpuMetricId: string;

async function readMinutes(): Promise<number[]> {
  const result = await context.container.database.db.execute<{ time: number }>(sql`
    select (extract(epoch from time) * 1000)::float8 as time from metric_point
    where metric_id = ${cpuMetricId}::uuid order by time`);
  return result.rows.map((row) => row.time);
}

async function readActivityTexts(): Promise<string[]> {
  const response = await context.app.inject({ method: 'GET', url: '/api/v1/log', headers: bearer(token) });
  expect(response.statusCode).toBe(200);
  return (response.json() as { LogText: string | null }[]).map((entry) => entry.LogText ?? '');
}

beforeAll(async () => {
  context = await createCloudTestContext({ now: readClock, emulator: { fleetSize: 8, now: readClock } });
  const owner = await createUser(context);
  token = await logIn(context, owner);
  tenantId = await connectTenant(context, owner.teamId);
  await context.container.inventory.syncTenant(tenantId);
  const result = await context.container.database.db.execute<{ id: string }>(sql`
    select metric.id from metric join resource on resource.id = metric.resource_id
    where resource.tenant_id = ${tenantId}::uuid and resource.power_state = 'running'
      and metric.name = 'Percentage CPU'
    order by resource.arm_id limit 1`);
  cpuMetricId = result.rows[0]!.id;
}, 60_000);
afterAll(() => context.close());

describe('Azure Monitor down for minutes', () => {
  it('loses no minute: the outage is reported, and the next collection reads the whole gap', async () => {
    expect(await context.container.metrics.collectTenant(tenantId)).toMatchObject({ failedResourceCount: 0 });
    const before = await readMinutes();
    expect(before.length).toBeGreaterThan(0);

    context.emulator.setFaults({ errorRate: 1, errorStatus: 503, kinds: ['getBatch', 'metrics'] });
    for (let cycle = 0; cycle < 4; cycle += 1) {
      clockMs += 5 * minuteMs;
      // Under the job's deadline, as the metrics-collect job runs it (shortened here).
      const summary = await context.container.metrics.collectTenant(tenantId, {
        signal: AbortSignal.timeout(3_000),
      });
      expect(summary?.failedResourceCount).toBeGreaterThan(0);
    }
    // Nothing half-written while Azure failed.
    expect(await readMinutes()).toEqual(before);
    const texts = await readActivityTexts();
    expect(texts.some((text) => /collection failed for \d+ resources/i.test(text))).toBe(true);

    // Azure answers again, slowly: the next collection reads the 20 minutes it missed.
    context.emulator.setFaults({ delayMs: 300 });
    clockMs += 5 * minuteMs;
    expect(await context.container.metrics.collectTenant(tenantId)).toMatchObject({ failedResourceCount: 0 });
    const after = await readMinutes();
    expect(after.slice(0, before.length)).toEqual(before);
    expect(after.length).toBe(before.length + 25);
    const gaps = after.slice(1).filter((time, index) => time - after[index]! !== minuteMs);
    expect(gaps).toEqual([]);
    // Up to the newest minute Azure publishes (it lags the clock by a couple of minutes).
    expect(after.at(-1)!).toBeGreaterThanOrEqual(clockMs - 4 * minuteMs);
    context.emulator.setFaults({});
  });
});
