import { metricDataResponseSchema, metricsResponseSchema } from '@cloudtrim/contracts/metrics';
import { findVirtualMachineSize } from '@cloudtrim/azure-emulator/catalog/sku.catalog';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { connectTenant, createCloudTestContext, type CloudTestContext } from '../../../test/azure-emulator';
import { bearer, createUser, logIn, type TestUser } from '../../../test/helper';
import { minuteMs, hourMs } from '../../lib/time';
import { MetricsRepository } from './metrics.repository';

// One clock for the app and the emulator, 10 minutes before the top of an hour that has passed.
let clockMs = Math.floor(Date.now() / hourMs) * hourMs - 2 * hourMs - 10 * minuteMs;
const readClock = () => new Date(clockMs);

let context: CloudTestContext;
let owner: TestUser;
let ownerToken: string;
let strangerToken: string;
let tenantId: string;
let machineId: string;
let cpuMetricId: string;

async function query<Row extends Record<string, unknown>>(statement: ReturnType<typeof sql>): Promise<Row[]> {
  return (await context.container.database.db.execute(statement)).rows as Row[];
}

// One metric's packed days (metric_day) as hour → [average, maximum, p95, minimum], NaN hours left
// out.
async function readPackedHours(metricId: string): Promise<Map<number, number[]>> {
  const days = await query<
    { day: string } & Record<'averages' | 'maximums' | 'p95s' | 'minimums', Buffer>
  >(sql`
    select to_char(day, 'YYYY-MM-DD') as day, averages, maximums, p95s, minimums
    from metric_day where metric_id = ${metricId}::uuid order by day`);
  const hours = new Map<number, number[]>();
  for (const day of days) {
    for (let hour = 0; hour < 24; hour += 1) {
      const values = [day.averages, day.maximums, day.p95s, day.minimums].map((packed) =>
        packed.readFloatBE(hour * 4),
      );
      if (!values.every(Number.isNaN)) hours.set(Date.parse(`${day.day}T00:00:00Z`) + hour * hourMs, values);
    }
  }
  return hours;
}

// float4, as the packed days keep values.
const toFloat4 = (value: number) => Math.fround(value);

// Times as epoch milliseconds, which compare exactly.
const epochMs = (column: string) => sql.raw(`(extract(epoch from ${column}) * 1000)::float8`);

beforeAll(async () => {
  context = await createCloudTestContext({ now: readClock, emulator: { fleetSize: 10, now: readClock } });
  owner = await createUser(context);
  ownerToken = await logIn(context, owner);
  strangerToken = await logIn(context, await createUser(context));
  tenantId = await connectTenant(context, owner.teamId);
  await context.container.inventory.syncTenant(tenantId);
  const [machine] = await query<{ arm_id: string; metric_id: string }>(sql`
    select resource.arm_id, metric.id as metric_id from resource join metric on metric.resource_id = resource.id
    where resource.tenant_id = ${tenantId}::uuid and resource.power_state = 'running'
      and metric.name = 'Percentage CPU'
    order by resource.arm_id limit 1`);
  machineId = machine!.arm_id;
  cpuMetricId = machine!.metric_id;
});
afterAll(() => context.close());

describe('back-fill', () => {
  it('writes 14 days of hourly average, maximum and p95 for every metric of a new tenant', async () => {
    const summary = await context.container.metrics.backfillTenant(tenantId);
    expect(summary).toMatchObject({ failedResourceCount: 0 });
    const hours = await query<{ hour: number; average: number; maximum: number; p95: number }>(sql`
      select ${epochMs('hour')} as hour, average, maximum, p95 from metric_hourly
      where metric_id = ${cpuMetricId}::uuid order by hour`);
    const lastHour = Math.floor(clockMs / hourMs) * hourMs - hourMs;
    expect(hours).toHaveLength(14 * 24);
    expect(hours.at(-1)!.hour).toBe(lastHour);
    for (const hour of hours) {
      expect(hour.average).toBeLessThanOrEqual(hour.maximum);
      expect(hour.p95).toBe(hour.maximum);
    }
    // The same hours packed for the analysis, with no lowest minute (there were no minutes).
    const packed = await readPackedHours(cpuMetricId);
    expect([...packed.keys()]).toEqual(hours.map((hour) => hour.hour));
    for (const hour of hours) {
      expect(packed.get(hour.hour)).toEqual([
        toFloat4(hour.average),
        toFloat4(hour.maximum),
        toFloat4(hour.p95),
        Number.NaN,
      ]);
    }
    const [{ missing }] = (await query<{ missing: number }>(sql`
      select count(*)::int as missing from metric
      join resource on resource.id = metric.resource_id
      where resource.tenant_id = ${tenantId}::uuid and resource.power_state = 'running'
        and not exists (select 1 from metric_hourly where metric_hourly.metric_id = metric.id)`)) as [
      { missing: number },
    ];
    expect(missing).toBe(0);
    // A second run finds nothing left to back-fill.
    expect(await context.container.metrics.backfillTenant(tenantId)).toMatchObject({ callCount: 0 });
  });
});

describe('collection', () => {
  it('reads the last hour of every running resource: machines in batches, plans one by one', async () => {
    context.emulator.resetStats();
    const summary = await context.container.metrics.collectTenant(tenantId);
    expect(summary).toMatchObject({ failedResourceCount: 0 });
    const end = Math.floor((clockMs - 2 * minuteMs) / minuteMs) * minuteMs;
    const points = await query<{ time: number; value: number }>(sql`
      select ${epochMs('time')} as time, value from metric_point where metric_id = ${cpuMetricId}::uuid order by time`);
    expect(points.map((point) => point.time)).toEqual(
      Array.from({ length: 60 }, (_unused, index) => end - (60 - index) * minuteMs),
    );
    const targets = await query<{ type: string; region: string; subscription: string }>(sql`
      select resource.type, resource.region, subscription.subscription_id as subscription from resource
      join subscription on subscription.id = resource.subscription_id
      where resource.tenant_id = ${tenantId}::uuid and resource.power_state is distinct from 'deallocated'
        and exists (select 1 from metric where metric.resource_id = resource.id)`);
    const machineGroups = new Set(
      targets
        .filter((target) => target.type === 'Microsoft.Compute/virtualMachines')
        .map((target) => `${target.subscription}|${target.region}`),
    );
    const others = targets.filter((target) => target.type !== 'Microsoft.Compute/virtualMachines');
    expect(context.emulator.stats.calls.getBatch).toBe(machineGroups.size);
    expect(context.emulator.stats.calls.metrics).toBe(others.length);
    expect(summary!.callCount).toBe(machineGroups.size + others.length);
    const [{ collected }] = (await query<{ collected: number }>(sql`
      select ${epochMs('last_collected_at')} as collected from metric where id = ${cpuMetricId}::uuid`)) as [
      { collected: number },
    ];
    expect(collected).toBe(end);
  });

  it('rolls up an hour seen from its start into average, maximum and p95, and leaves a partly seen one', async () => {
    // The first collection (above) read from an hour before its end, so the hour after that start
    // is the first seen from its start; the hour the last collection below ends in is partly seen.
    const firstWholeHour = Math.floor((clockMs - 2 * minuteMs - hourMs) / hourMs) * hourMs + hourMs;
    clockMs += 15 * minuteMs;
    await context.container.metrics.collectTenant(tenantId);
    clockMs += hourMs;
    await context.container.metrics.collectTenant(tenantId);
    const fullHour = firstWholeHour + hourMs;

    const hours = await query<{ hour: number; average: number; maximum: number; p95: number }>(sql`
      select ${epochMs('hour')} as hour, average, maximum, p95 from metric_hourly
      where metric_id = ${cpuMetricId}::uuid and hour >= ${new Date(firstWholeHour).toISOString()}::timestamptz
      order by hour`);
    expect(hours.map((hour) => hour.hour)).toEqual([firstWholeHour, fullHour]);
    const [expected] = await query<{ count: number; average: number; maximum: number; p95: number }>(sql`
      select count(*)::int as count, avg(value) as average, max(value) as maximum,
             percentile_cont(0.95) within group (order by value) as p95
      from metric_point where metric_id = ${cpuMetricId}::uuid
        and time >= ${new Date(fullHour).toISOString()}::timestamptz
        and time < ${new Date(fullHour + hourMs).toISOString()}::timestamptz`);
    expect(expected!.count).toBe(60);
    expect(hours[1]!.average).toBeCloseTo(expected!.average, 9);
    expect(hours[1]!.maximum).toBe(expected!.maximum);
    expect(hours[1]!.p95).toBeCloseTo(expected!.p95, 9);
    expect(hours[1]!.p95).toBeLessThanOrEqual(hours[1]!.maximum);
    // Packed for the analysis in the same statement, with the hour's lowest minute; the back-filled
    // hours of the same day keep theirs.
    const [lowest] = await query<{ minimum: number }>(sql`
      select min(value) as minimum from metric_point where metric_id = ${cpuMetricId}::uuid
        and time >= ${new Date(fullHour).toISOString()}::timestamptz
        and time < ${new Date(fullHour + hourMs).toISOString()}::timestamptz`);
    const packed = await readPackedHours(cpuMetricId);
    expect(packed.get(fullHour)).toEqual([
      toFloat4(hours[1]!.average),
      toFloat4(hours[1]!.maximum),
      toFloat4(hours[1]!.p95),
      toFloat4(lowest!.minimum),
    ]);
    expect(packed.get(fullHour - 2 * hourMs)?.[0]).not.toBeNaN();
  });
});

describe('CPU credits', () => {
  it('reads CPU Credits Remaining and Consumed for B-series VMs only, in batches of their own', async () => {
    // Another running VM of the tenant moved to a B1ms 40 minutes ago, as the inventory then reads it.
    const [other] = await query<{ arm_id: string }>(sql`
      select arm_id from resource
      where tenant_id = ${tenantId}::uuid and power_state = 'running'
        and lower(type) = 'microsoft.compute/virtualmachines' and arm_id <> ${machineId}
      order by arm_id limit 1`);
    const fleet = context.emulator.fleet;
    const machine = fleet.requireVirtualMachine(other!.arm_id);
    const resizedMs = Math.floor((clockMs - 40 * minuteMs) / minuteMs) * minuteMs;
    fleet.recordResize(machine, findVirtualMachineSize('Standard_B1ms')!, resizedMs);
    await context.container.inventory.syncTenant(tenantId);
    context.emulator.resetStats();
    const summary = await context.container.metrics.collectTenant(tenantId);
    expect(summary).toMatchObject({ failedResourceCount: 0 });

    const creditMetrics = await query<{ arm_id: string; name: string; id: string }>(sql`
      select resource.arm_id, metric.name, metric.id from metric join resource on resource.id = metric.resource_id
      where resource.tenant_id = ${tenantId}::uuid and metric.name like 'CPU Credits %' order by metric.name`);
    expect(creditMetrics.map((metric) => [metric.arm_id, metric.name])).toEqual([
      [other!.arm_id, 'CPU Credits Consumed'],
      [other!.arm_id, 'CPU Credits Remaining'],
    ]);
    const [consumed, remaining] = creditMetrics;
    const points = await query<{ time: number; value: number }>(sql`
      select ${epochMs('time')} as time, value from metric_point where metric_id = ${remaining!.id}::uuid order by time`);
    // From the resize on: the emulator's bank, minute by minute.
    expect(points[0]!.time).toBe(resizedMs);
    expect(points.length).toBeGreaterThan(30);
    for (const point of points) {
      expect(point.value).toBeCloseTo(fleet.creditsAt(machine.id, new Date(point.time))!.remaining, 3);
    }
    const [spent] = await query<{ count: number }>(sql`
      select count(*)::int as count from metric_point where metric_id = ${consumed!.id}::uuid`);
    expect(spent!.count).toBe(points.length);
    // The others were up to date; five minutes on, the B VM is read in a batch of its own, as the
    // others do not ask for credits.
    clockMs += 5 * minuteMs;
    context.emulator.resetStats();
    await context.container.metrics.collectTenant(tenantId);
    const groups = await query<{ groups: number }>(sql`
      select count(distinct (subscription.subscription_id, resource.region, lower(resource.sku) ~ '^standard_b[0-9]'))::int as groups
      from resource join subscription on subscription.id = resource.subscription_id
      where resource.tenant_id = ${tenantId}::uuid and resource.power_state is distinct from 'deallocated'
        and lower(resource.type) = 'microsoft.compute/virtualmachines'`);
    expect(context.emulator.stats.calls.getBatch).toBe(groups[0]!.groups);
  });
});

describe('GET /api/v1/metric', () => {
  const getMetrics = (token: string, azureResource?: string) =>
    context.app.inject({
      method: 'GET',
      url: '/api/v1/metric',
      query: azureResource === undefined ? {} : { azureResource },
      headers: bearer(token),
    });

  it("lists the resource's metrics by its ARM id, in any letter case", async () => {
    const response = await getMetrics(ownerToken, machineId.toUpperCase());
    expect(response.statusCode).toBe(200);
    const { Data } = metricsResponseSchema.parse(response.json());
    expect(Data.map((metric) => metric.Metric)).toEqual([
      'Available Memory Bytes',
      'Disk Read Operations/Sec',
      'Disk Write Operations/Sec',
      'Network In Total',
      'Network Out Total',
      'Percentage CPU',
    ]);
    expect(Data.find((metric) => metric.Metric === 'Percentage CPU')!.MetricId).toBe(cpuMetricId);
  });

  it("answers 404 for another team's or an unknown resource, 400 without one", async () => {
    expect((await getMetrics(strangerToken, machineId)).statusCode).toBe(404);
    expect((await getMetrics(ownerToken, `${machineId}-gone`)).statusCode).toBe(404);
    expect((await getMetrics(ownerToken)).statusCode).toBe(400);
  });
});

describe('GET /api/v1/metricdata', () => {
  const getData = (token: string, query: Record<string, string>) =>
    context.app.inject({ method: 'GET', url: '/api/v1/metricdata', query, headers: bearer(token) });

  it('maps ISO time to value for the 1-minute points of the last N minutes', async () => {
    const response = await getData(ownerToken, { metricId: cpuMetricId, minutes: '60' });
    expect(response.statusCode).toBe(200);
    const { Data } = metricDataResponseSchema.parse(response.json());
    const since = new Date(clockMs - hourMs).toISOString();
    const stored = await query<{ time: number; value: number }>(sql`
      select ${epochMs('time')} as time, value from metric_point
      where metric_id = ${cpuMetricId}::uuid and time >= ${since}::timestamptz order by time`);
    expect(Object.keys(Data)).toEqual(stored.map((point) => new Date(point.time).toISOString()));
    expect(Object.values(Data)).toEqual(stored.map((point) => point.value));
    expect(stored.length).toBeGreaterThan(50);

    const defaulted = await getData(ownerToken, { metricId: cpuMetricId });
    expect(Object.keys(defaulted.json().Data)).toHaveLength(stored.length);
    const short = await getData(ownerToken, { metricId: cpuMetricId, minutes: '5' });
    expect(Object.keys(short.json().Data).length).toBeLessThanOrEqual(5);
  });

  it("answers 404 for another team's or an unknown metric, 400 for a bad query", async () => {
    expect((await getData(strangerToken, { metricId: cpuMetricId })).statusCode).toBe(404);
    expect((await getData(ownerToken, { metricId: 'not-a-metric' })).statusCode).toBe(404);
    expect((await getData(ownerToken, { metricId: '0b9e3a4c-1111-4222-8333-944455556666' })).statusCode).toBe(
      404,
    );
    for (const minutes of ['0', 'abc', '2881', '']) {
      expect((await getData(ownerToken, { metricId: cpuMetricId, minutes })).statusCode).toBe(400);
    }
    expect((await getData(ownerToken, {})).statusCode).toBe(400);
  });
});

describe('writes beside reads', () => {
  const countPoints = async () =>
    (await query<{ count: number }>(sql`select count(*)::int as count from metric_point`))[0]!.count;
  const readCollectedMarks = () =>
    query<{ id: string; collected: number | null }>(sql`
      select metric.id, ${epochMs('last_collected_at')} as collected from metric
      join resource on resource.id = metric.resource_id
      where resource.tenant_id = ${tenantId}::uuid order by metric.id`);

  it('keeps every point once when a write that committed is tried again', async () => {
    const write = MetricsRepository.prototype.writeMinuteBatch;
    // The first batch commits, then its answer is lost (a dropped connection): it is written again.
    const spy = vi
      .spyOn(MetricsRepository.prototype, 'writeMinuteBatch')
      .mockImplementationOnce(async function (this: MetricsRepository, batch) {
        await write.call(this, batch);
        throw new Error('Connection terminated unexpectedly');
      });
    try {
      clockMs += 5 * minuteMs;
      const before = await countPoints();
      const summary = await context.container.metrics.collectTenant(tenantId);
      expect(summary!.pointCount).toBeGreaterThan(0);
      expect(await countPoints()).toBe(before + summary!.pointCount);
      // The calls' answers gathered into fewer writes, the first of them tried twice.
      expect(summary!.failedResourceCount).toBe(0);
      expect(spy.mock.calls.length - 1).toBeLessThan(summary!.callCount);
      expect(spy.mock.calls[1]![0]).toBe(spy.mock.calls[0]![0]);
    } finally {
      spy.mockRestore();
    }
  });

  it('loses nothing when the writes keep failing: the next cycle reads those minutes again', async () => {
    const spy = vi
      .spyOn(MetricsRepository.prototype, 'writeMinuteBatch')
      .mockRejectedValue(new Error('Connection terminated unexpectedly'));
    const marks = await readCollectedMarks();
    const before = await countPoints();
    clockMs += 5 * minuteMs;
    try {
      await expect(context.container.metrics.collectTenant(tenantId)).rejects.toThrow(
        'Connection terminated',
      );
      // Each write was tried three times; none of the batches is marked collected.
      expect(spy.mock.calls.length % 3).toBe(0);
    } finally {
      spy.mockRestore();
    }
    expect(await readCollectedMarks()).toEqual(marks);
    expect(await countPoints()).toBe(before);

    const [cpuMark] = (await query<{ collected: number }>(sql`
      select ${epochMs('last_collected_at')} as collected from metric where id = ${cpuMetricId}::uuid`)) as [
      { collected: number },
    ];
    clockMs += 5 * minuteMs;
    const summary = await context.container.metrics.collectTenant(tenantId);
    expect(await countPoints()).toBe(before + summary!.pointCount);
    const end = Math.floor((clockMs - 2 * minuteMs) / minuteMs) * minuteMs;
    const points = await query<{ time: number }>(sql`
      select ${epochMs('time')} as time from metric_point
      where metric_id = ${cpuMetricId}::uuid and time >= ${new Date(cpuMark.collected).toISOString()}::timestamptz
      order by time`);
    expect(points.map((point) => point.time)).toEqual(
      Array.from(
        { length: (end - cpuMark.collected) / minuteMs },
        (_unused, index) => cpuMark.collected + index * minuteMs,
      ),
    );
  });
});

describe('points of removed metrics', () => {
  it('writes no points for a metric removed before its write, and the rest of the write as usual', async () => {
    const repository = new MetricsRepository(context.container.database.db);
    const removedMetricId = '00000000-0000-4000-8000-00000000dead';
    const minute = Math.floor((clockMs - 3 * minuteMs) / minuteMs) * minuteMs + 30 * 1000;
    const countOf = async (metricId: string) =>
      (
        await query<{ count: number }>(sql`
        select count(*)::int as count from metric_point
        where metric_id = ${metricId}::uuid and time = ${new Date(minute).toISOString()}::timestamptz`)
      )[0]!.count;
    await repository.writeMinuteBatch({
      points: { metricIds: [cpuMetricId, removedMetricId], times: [minute, minute], values: [12, 34] },
      collectedMetricIds: [cpuMetricId, removedMetricId],
      collectedUntil: new Date(clockMs - 2 * minuteMs),
    });
    expect(await countOf(cpuMetricId)).toBe(1);
    expect(await countOf(removedMetricId)).toBe(0);
  });
});

describe('purge', () => {
  it("drops the 1-minute points' partitions once wholly past 48 hours, the hours' and packed days' past 90 days", async () => {
    const countOf = async (table: 'metric_point' | 'metric_hourly' | 'metric_day') =>
      (await query<{ count: number }>(sql`select count(*)::int as count from ${sql.raw(table)}`))[0]!.count;
    const [{ newest }] = (await query<{ newest: number }>(sql`
      select ${epochMs('max(time)')} as newest from metric_point`)) as [{ newest: number }];
    expect(await countOf('metric_point')).toBeGreaterThan(0);
    // The points lie in the partition the migration made of everything before the end of the hour
    // it ran in (the run's start, within the hour after the clock's real time plus 2 h 10 min), or
    // in an hour's partition made since: all are wholly past 48 hours 6 hours after the newest.
    clockMs = newest + 54 * hourMs;
    const first = await context.container.metrics.purgeExpired();
    expect(first.dropped).toBeGreaterThan(0);
    expect(await countOf('metric_point')).toBe(0);
    expect(await countOf('metric_hourly')).toBeGreaterThan(0);
    expect(await countOf('metric_day')).toBeGreaterThan(0);
    // Their partitions (weeks of hours, 4 weeks of packed days) end within 28 days after it.
    clockMs += 120 * 24 * hourMs;
    expect((await context.container.metrics.purgeExpired()).dropped).toBeGreaterThan(0);
    expect(await countOf('metric_hourly')).toBe(0);
    expect(await countOf('metric_day')).toBe(0);
  });
});
