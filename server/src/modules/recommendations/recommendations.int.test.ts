import { listSizesOfferedInRegion } from '@cloudtrim/azure-emulator/catalog/sku.catalog';
import {
  recommendationEvidenceSchema,
  recommendationsResponseSchema,
} from '@cloudtrim/contracts/recommendations';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectTenant, createCloudTestContext, type CloudTestContext } from '../../../test/azure-emulator';
import { createMetricsCollectJob } from '../../jobs/metrics-collect.job';
import { createRecommendationsAnalyseJob } from '../../jobs/recommendations-analyse.job';
import { bearer, createUser, logIn, type TestUser } from '../../../test/helper';
import { RecommendationsRepository } from './recommendations.repository';
import { minuteMs, hourMs } from '../../lib/time';

let clockMs = Math.floor(Date.now() / hourMs) * hourMs - 2 * hourMs - 10 * minuteMs;
const readClock = () => new Date(clockMs);

type RecommendationDbRow = {
  id: number;
  resource_id: string;
  arm_id: string;
  region: string;
  kind: string;
  status: string;
  target_size: string | null;
  data_disk_count: number | null;
  nic_count: number | null;
  has_premium_disk: boolean | null;
  has_accelerated_networking: boolean | null;
  superseded_at: string | null;
};

describe('recommendations', () => {
  let context: CloudTestContext;
  let user: TestUser;
  let token: string;
  let otherToken: string;
  let tenantId: string;

  beforeAll(async () => {
    context = await createCloudTestContext({ now: readClock, emulator: { fleetSize: 24, now: readClock } });
    user = await createUser(context);
    token = await logIn(context, user);
    otherToken = await logIn(context, await createUser(context));
    tenantId = await connectTenant(context, user.teamId);
    await context.container.inventory.syncTenant(tenantId);
    await context.container.metrics.backfillTenant(tenantId);
    await context.container.metrics.collectTenant(tenantId);
  }, 120_000);
  afterAll(() => context.close());

  async function readRows(): Promise<RecommendationDbRow[]> {
    const result = await context.container.database.db.execute<RecommendationDbRow>(sql`
      select recommendation.id::int as id, recommendation.resource_id, resource.arm_id, resource.region,
             recommendation.kind, recommendation.status, recommendation.target_size, resource.data_disk_count,
             resource.nic_count, resource.has_premium_disk, resource.has_accelerated_networking,
             recommendation.superseded_at::text
      from recommendation join resource on resource.id = recommendation.resource_id
      where recommendation.tenant_id = ${tenantId}::uuid order by recommendation.id`);
    return result.rows;
  }

  async function markDue(resourceId?: string): Promise<void> {
    await context.container.database.db.execute(sql`
      update resource set analysed_until = null
      where tenant_id = ${tenantId}::uuid ${resourceId ? sql`and id = ${resourceId}::uuid` : sql``}`);
  }

  const get = (url: string, as = token) => context.app.inject({ method: 'GET', url, headers: bearer(as) });

  it('analyses back-filled VMs into resizes that exist in the region and carry what the VM uses', async () => {
    const summary = await context.container.recommendations.analyseTenant(tenantId);
    // Every VM with metrics read (a machine deallocated for the whole window has none).
    const collected = await context.container.database.db.execute<{ count: number }>(sql`
      select count(distinct resource.id)::int as count from resource
      join metric on metric.resource_id = resource.id and metric.last_collected_at is not null
      where resource.tenant_id = ${tenantId}::uuid and resource.type = 'Microsoft.Compute/virtualMachines'`);
    const machineCount = collected.rows[0]!.count;
    expect(machineCount).toBeGreaterThan(10);
    expect(summary).toMatchObject({ analysedCount: machineCount, catalogueFailures: [] });
    expect(summary!.newCount).toBeGreaterThan(0);

    const rows = await readRows();
    expect(rows.every((row) => row.status === 'open')).toBe(true);
    const resizes = rows.filter((row) => row.kind === 'resize');
    expect(resizes.length).toBeGreaterThan(0);
    for (const row of resizes) {
      const size = listSizesOfferedInRegion(row.region).find((item) => item.name === row.target_size);
      expect(size, `${row.target_size} in ${row.region}`).toBeDefined();
      expect(size!.maxDataDisks).toBeGreaterThanOrEqual(row.data_disk_count ?? 0);
      expect(size!.maxNetworkInterfaces).toBeGreaterThanOrEqual(row.nic_count ?? 1);
      if (row.has_premium_disk) expect(size!.isPremiumIoSupported).toBe(true);
      if (row.has_accelerated_networking) expect(size!.isAcceleratedNetworkingEnabled).toBe(true);
    }
    const texts = (await context.container.activity.listEntries(user.teamId, 0)).map(
      (entry) => entry.LogText,
    );
    expect(texts).toContainEqual(
      expect.stringMatching(
        new RegExp(
          `^Analysed ${machineCount} virtual machines: ${summary!.newCount} new recommendations?, \\$[\\d,]+\\.\\d{2} a year on offer$`,
        ),
      ),
    );
  });

  it('analyses only VMs whose data changed, and a same conclusion keeps its row', async () => {
    const before = await readRows();
    expect(await context.container.recommendations.analyseTenant(tenantId)).toMatchObject({
      analysedCount: 0,
    });

    // Minutes within the hour already analysed change nothing the analysis reads.
    clockMs += 10 * minuteMs;
    await context.container.metrics.collectTenant(tenantId);
    expect(await context.container.recommendations.analyseTenant(tenantId)).toMatchObject({
      analysedCount: 0,
    });

    clockMs += hourMs;
    await context.container.metrics.collectTenant(tenantId);
    const summary = await context.container.recommendations.analyseTenant(tenantId);
    expect(summary!.analysedCount).toBeGreaterThan(0);
    const after = await readRows();
    const openKeys = after
      .filter((row) => row.status === 'open')
      .map((row) => `${row.resource_id}|${row.kind}`);
    expect(new Set(openKeys).size).toBe(openKeys.length);
    // An hour more of load reaches mostly the same conclusions, and each of those keeps its row; a
    // VM the new hour tips over a threshold (which one depends on the hour the test runs) gets a new
    // row or has its old one superseded, and the summary counts exactly those.
    const conclusion = (row: RecommendationDbRow) => `${row.resource_id}|${row.kind}|${row.target_size}`;
    const openBefore = new Map(
      before.filter((row) => row.status === 'open').map((row) => [conclusion(row), row.id]),
    );
    const openAfter = after.filter((row) => row.status === 'open');
    const kept = openAfter.filter((row) => openBefore.has(conclusion(row)));
    expect(kept.map((row) => row.id)).toEqual(kept.map((row) => openBefore.get(conclusion(row))));
    expect(kept.length).toBeGreaterThan(openBefore.size / 2);
    const beforeIds = new Set(before.map((row) => row.id));
    expect(after.filter((row) => beforeIds.has(row.id)).map((row) => row.id)).toEqual([...beforeIds]);
    expect(summary).toMatchObject({
      newCount: openAfter.filter((row) => !beforeIds.has(row.id)).length,
      supersededCount: after.filter(
        (row) => row.status === 'superseded' && beforeIds.has(row.id) && openBefore.has(conclusion(row)),
      ).length,
    });
  });

  it('is queued by the collection job, one per tenant, and the analysis job analyses what is due', async () => {
    const readQueued = async () => {
      const result = await context.container.database.db.execute<{ count: number }>(sql`
        select count(*)::int as count from pgboss.job
        where name = 'recommendations-analyse' and data->>'tenantId' = ${tenantId} and state = 'created'`);
      return result.rows[0]!.count;
    };
    await context.container.database.db.execute(sql`
      delete from pgboss.job where name = 'recommendations-analyse'`);
    clockMs += hourMs;
    await createMetricsCollectJob(context.container).handle({ tenantId });
    await createMetricsCollectJob(context.container).handle({ tenantId });
    expect(await readQueued()).toBe(1);

    const before = await readRows();
    await createRecommendationsAnalyseJob(context.container).handle({ tenantId });
    const due = await context.container.database.db.execute<{ count: number }>(sql`
      select count(*)::int as count from resource
      join metric on metric.resource_id = resource.id and metric.last_collected_at is not null
      where resource.tenant_id = ${tenantId}::uuid and resource.type = 'Microsoft.Compute/virtualMachines'
        and (resource.analysed_until is null
             or date_trunc('hour', metric.last_collected_at) > date_trunc('hour', resource.analysed_until))`);
    expect(due.rows[0]!.count).toBe(0);
    const after = await readRows();
    const openKeys = after
      .filter((row) => row.status === 'open')
      .map((row) => `${row.resource_id}|${row.kind}`);
    expect(new Set(openKeys).size).toBe(openKeys.length);
    expect(after.length).toBeGreaterThanOrEqual(before.length);
  });

  it('supersedes an open recommendation when the conclusion changes, and keeps it in the history', async () => {
    const resize = (await readRows()).find((row) => row.kind === 'resize' && row.status === 'open')!;
    // As if an earlier analysis had concluded another size.
    await context.container.database.db.execute(sql`
      update recommendation set target_size = 'Standard_E64s_v5' where id = ${resize.id}`);
    await markDue(resize.resource_id);
    const summary = await context.container.recommendations.analyseTenant(tenantId);
    expect(summary).toMatchObject({ analysedCount: 1, supersededCount: 1 });
    const rows = (await readRows()).filter(
      (row) => row.resource_id === resize.resource_id && row.kind === 'resize',
    );
    expect(rows.map((row) => row.status)).toEqual(['superseded', 'open']);
    expect(rows[0]!.superseded_at).not.toBeNull();
    expect(rows[1]!.target_size).toBe(resize.target_size);

    const list = await get('/api/v1/log/recommendation');
    expect(list.json<{ Data: { Id: number }[] }>().Data.map((item) => item.Id)).not.toContain(resize.id);
    const history = await get(`/api/v1/log/recommendation?resourceId=${encodeURIComponent(resize.arm_id)}`);
    const historyIds = history.json<{ Data: { Id: number }[] }>().Data.map((item) => item.Id);
    expect(historyIds).toContain(resize.id);
    expect(historyIds.indexOf(rows[1]!.id)).toBeLessThan(historyIds.indexOf(resize.id));
    const bare = await get(`/api/v1/log/recommendation?${resize.arm_id}`);
    expect(bare.json()).toEqual(history.json());
  });

  it('gives Automated = 2 resources nothing and holds resizes while the guard holds them', async () => {
    const open = (await readRows()).filter((row) => row.status === 'open');
    const noChange = open[0]!;
    await context.container.database.db.execute(sql`
      update resource set automated = 2 where id = ${noChange.resource_id}::uuid`);
    const held = open.find((row) => row.kind === 'resize' && row.resource_id !== noChange.resource_id)!;
    await context.container.database.db.execute(sql`
      update resource set recommendations_held_until = ${new Date(clockMs + 30 * 24 * hourMs).toISOString()}::timestamptz
      where id = ${held.resource_id}::uuid`);
    await context.container.database.db.execute(sql`
      update recommendation set target_size = 'Standard_E64s_v5' where id = ${held.id}`);
    await markDue();
    await context.container.recommendations.analyseTenant(tenantId);
    const rows = await readRows();
    expect(rows.filter((row) => row.resource_id === noChange.resource_id && row.status === 'open')).toEqual(
      [],
    );
    expect(
      rows.filter(
        (row) => row.resource_id === held.resource_id && row.kind === 'resize' && row.status === 'open',
      ),
    ).toEqual([]);
    const listed = (await get('/api/v1/log/recommendation')).json<{ Data: { ResourceId: string }[] }>().Data;
    expect(listed.map((item) => item.ResourceId)).not.toContain(noChange.arm_id);
  });

  it('answers the list with SPEC fields, team-scoped, and 400 for bad input', async () => {
    const response = await get('/api/v1/log/recommendation');
    expect(response.statusCode).toBe(200);
    const body = recommendationsResponseSchema.parse(response.json());
    expect(body.Data.length).toBeGreaterThan(0);
    const [first] = body.Data;
    expect(Object.keys(first!).sort()).toEqual(
      [
        'AnnualCostSavings',
        'FriendlyName',
        'Id',
        'Memo',
        'PredictionMethod',
        'Recommendation',
        'ResourceId',
        'When',
      ].sort(),
    );
    expect(typeof first!.AnnualCostSavings).toBe('number');
    expect(first!.AnnualCostSavings).toBeGreaterThan(0);
    expect(first!.Recommendation).toMatch(/Standard_|Shut down|shut|start|stop/i);

    expect((await get('/api/v1/log/recommendation', otherToken)).json()).toEqual({ Data: [] });
    const foreign = await get(
      `/api/v1/log/recommendation?resourceId=${encodeURIComponent(first!.ResourceId)}`,
      otherToken,
    );
    expect(foreign.statusCode).toBe(404);
    expect((await get('/api/v1/log/recommendation?resourceId=/subscriptions/none')).statusCode).toBe(404);

    expect((await get('/api/v1/log/recommendation?resourceId=')).statusCode).toBe(400);
    expect((await get('/api/v1/log/recommendation?%E0%A4%A')).statusCode).toBe(400);
    expect((await get(`/api/v1/log/recommendation?resourceId=${'x'.repeat(1001)}`)).statusCode).toBe(400);
    expect((await context.app.inject({ method: 'GET', url: '/api/v1/log/recommendation' })).statusCode).toBe(
      401,
    );
  });

  it('shows the evidence of a recommendation to its team only', async () => {
    const [first] = (await get('/api/v1/log/recommendation')).json<{
      Data: { Id: number; ResourceId: string }[];
    }>().Data;
    const response = await get(`/api/v1/log/recommendation/evidence?id=${first!.Id}`);
    expect(response.statusCode).toBe(200);
    const evidence = recommendationEvidenceSchema.parse(response.json());
    expect(evidence).toMatchObject({ Id: first!.Id, ResourceId: first!.ResourceId });
    const cpu = evidence.Series.find((series) => series.Metric === 'CPU')!;
    expect(cpu.Unit).toBe('Percent');
    expect(cpu.Points.length).toBeGreaterThan(7 * 24);
    expect(cpu.Points.length).toBeLessThanOrEqual(14 * 24);
    // Drawn, when opened, from the hours the analysis read: the last hour's CPU as kept.
    const last = cpu.Points.findLast((point) => point.Current !== null)!;
    const [kept] = (
      await context.container.database.db.execute<{ average: number }>(sql`
        select hourly.average from metric_hourly as hourly
        join metric on metric.id = hourly.metric_id join resource on resource.id = metric.resource_id
        where lower(resource.arm_id) = ${first!.ResourceId.toLowerCase()} and metric.name = 'Percentage CPU'
          and hourly.hour = ${last.Time}::timestamptz`)
    ).rows;
    expect(Math.abs(last.Current! - kept!.average)).toBeLessThanOrEqual(0.051);
    expect(Date.parse(cpu.Points.at(-1)!.Time)).toBe(Math.floor(clockMs / hourMs) * hourMs - hourMs);

    expect((await get(`/api/v1/log/recommendation/evidence?id=${first!.Id}`, otherToken)).statusCode).toBe(
      404,
    );
    expect((await get('/api/v1/log/recommendation/evidence?id=999999999')).statusCode).toBe(404);
    expect((await get('/api/v1/log/recommendation/evidence?id=abc')).statusCode).toBe(400);
    expect((await get('/api/v1/log/recommendation/evidence')).statusCode).toBe(400);
  });

  it('reads and saves the team settings; a new lookback makes every VM due again', async () => {
    expect((await get('/api/v1/team/settings')).json()).toEqual({
      LookbackDays: 14,
      DefaultMaintenanceWindow: 2,
    });
    const put = (payload: unknown, as = token) =>
      context.app.inject({
        method: 'PUT',
        url: '/api/v1/team/settings',
        headers: bearer(as),
        payload: payload as object,
      });
    const saved = await put({ LookbackDays: 30, DefaultMaintenanceWindow: 23 });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toEqual({ LookbackDays: 30, DefaultMaintenanceWindow: 23 });
    expect((await get('/api/v1/team/settings')).json()).toEqual({
      LookbackDays: 30,
      DefaultMaintenanceWindow: 23,
    });
    expect((await get('/api/v1/team/settings', otherToken)).json()).toEqual({
      LookbackDays: 14,
      DefaultMaintenanceWindow: 2,
    });
    const due = await context.container.database.db.execute<{ count: number }>(sql`
      select count(*)::int as count from resource where tenant_id = ${tenantId}::uuid and analysed_until is null`);
    expect(due.rows[0]!.count).toBeGreaterThan(0);

    for (const bad of [
      { LookbackDays: 6, DefaultMaintenanceWindow: 2 },
      { LookbackDays: 91, DefaultMaintenanceWindow: 2 },
      { LookbackDays: 14, DefaultMaintenanceWindow: 24 },
      { LookbackDays: 14.5, DefaultMaintenanceWindow: 2 },
      { LookbackDays: 14 },
    ]) {
      expect((await put(bad)).statusCode).toBe(400);
    }
    expect((await get('/api/v1/team/settings')).json()).toEqual({
      LookbackDays: 30,
      DefaultMaintenanceWindow: 23,
    });
  });

  it('reads a VM’s hours from its packed days, a day without its row left empty', async () => {
    const repository = new RecommendationsRepository(context.container.database.db);
    const until = new Date(Math.floor(clockMs / hourMs) * hourMs);
    const since = new Date(until.getTime() - 14 * 24 * hourMs);
    // The VM with the most hours in the window: the fleet's first by id may be one deallocated for
    // days of it (the demo's dev machines are), which would leave too few hours to prove the read.
    const [vm] = (
      await context.container.database.db.execute<{ id: string }>(sql`
        select resource.id from resource join metric on metric.resource_id = resource.id
        join metric_hourly as hourly on hourly.metric_id = metric.id
        where resource.tenant_id = ${tenantId}::uuid and metric.name = 'Percentage CPU'
          and hourly.hour >= ${since.toISOString()}::timestamptz and hourly.hour < ${until.toISOString()}::timestamptz
        group by resource.id order by count(*) desc, resource.id limit 1`)
    ).rows;
    const kept = (
      await context.container.database.db.execute<{ step: number; average: number }>(sql`
        select ((extract(epoch from hourly.hour) * 1000 - ${since.getTime()}) / ${hourMs})::int as step,
               hourly.average
        from metric_hourly as hourly join metric on metric.id = hourly.metric_id
        where metric.resource_id = ${vm!.id}::uuid and metric.name = 'Percentage CPU'
          and hourly.hour >= ${since.toISOString()}::timestamptz and hourly.hour < ${until.toISOString()}::timestamptz`)
    ).rows;
    expect(kept.length).toBeGreaterThan(13 * 24);
    const read = async () => (await repository.listHourlySeries([vm!.id], since, until)).get(vm!.id)!;
    const series = await read();
    for (const hour of kept) expect(series.cpuAverage![hour.step]).toBe(Math.fround(hour.average));
    expect([...series.cpuAverage!].filter((value) => !Number.isNaN(value))).toHaveLength(kept.length);

    // A day with no row (the VM was off all day) between two with rows.
    const gap = new Date(since.getTime() + 5 * 24 * hourMs).toISOString().slice(0, 10);
    await context.container.database.db.execute(sql`
      delete from metric_day using metric
      where metric.id = metric_day.metric_id and metric.resource_id = ${vm!.id}::uuid and metric_day.day = ${gap}::date`);
    const gapStart = (Date.parse(`${gap}T00:00:00Z`) - since.getTime()) / hourMs;
    const withGap = await read();
    for (const hour of kept) {
      const isInGap = hour.step >= gapStart && hour.step < gapStart + 24;
      expect(withGap.cpuAverage![hour.step]).toBe(isInGap ? Number.NaN : Math.fround(hour.average));
    }
  });

  it('reads a B-series VM’s CPU credits remaining into the analysis, by the hour’s lowest minute', async () => {
    // A running VM of the tenant moved to a B2ms 30 hours ago; the inventory reads its new size and
    // the metrics module gives it, and only it, the credit metrics.
    const [vm] = (
      await context.container.database.db.execute<{ id: string; arm_id: string }>(sql`
        select id, arm_id from resource
        where tenant_id = ${tenantId}::uuid and power_state = 'running'
          and lower(type) = 'microsoft.compute/virtualmachines' and lower(sku) !~ '^standard_b'
        order by id limit 1`)
    ).rows;
    const fleet = context.emulator.fleet;
    const machine = fleet.requireVirtualMachine(vm!.arm_id);
    const resizedMs = Math.floor(clockMs / hourMs) * hourMs - 30 * hourMs;
    fleet.recordResize(
      machine,
      listSizesOfferedInRegion(machine.location).find((size) => size.name === 'Standard_B2ms')!,
      resizedMs,
    );
    await context.container.inventory.syncTenant(tenantId);
    await context.container.metrics.backfillTenant(tenantId);
    clockMs += 10 * minuteMs;
    await context.container.metrics.collectTenant(tenantId);

    const until = new Date(Math.floor(clockMs / hourMs) * hourMs);
    const since = new Date(until.getTime() - 14 * 24 * hourMs);
    const repository = new RecommendationsRepository(context.container.database.db);
    const series = (await repository.listHourlySeries([vm!.id], since, until)).get(vm!.id)!;
    const resizedStep = (resizedMs - since.getTime()) / hourMs;
    // Hours before the resize have no credits; each hour since has the bank's mean as Azure Monitor
    // gave it (its lowest minute too, for hours collected minute by minute).
    expect([...series.creditsAverage!.subarray(0, resizedStep)].every(Number.isNaN)).toBe(true);
    for (let step = resizedStep; step < series.creditsAverage!.length; step += 1) {
      const hourStart = since.getTime() + step * hourMs;
      let sum = 0;
      for (let minute = 0; minute < 60; minute += 1) {
        sum += fleet.creditsAt(machine.id, new Date(hourStart + minute * minuteMs))!.remaining;
      }
      expect(series.creditsAverage![step]).toBeCloseTo(sum / 60, 1);
      if (!Number.isNaN(series.creditsMinimum![step]!)) {
        expect(series.creditsMinimum![step]).toBeLessThanOrEqual(series.creditsAverage![step]! + 1e-3);
      }
    }
    // The analysis runs on them, and a resize it offers to a B size says so in its Memo.
    await markDue(vm!.id);
    const summary = await context.container.recommendations.analyseTenant(tenantId);
    expect(summary).toMatchObject({ catalogueFailures: [] });
    const memos = (
      await context.container.database.db.execute<{ target_size: string; memo: string }>(sql`
        select target_size, memo from recommendation
        where tenant_id = ${tenantId}::uuid and kind = 'resize' and status = 'open' and target_size like 'Standard\_B%'`)
    ).rows;
    for (const row of memos) expect(row.memo).toContain(`${row.target_size} is burstable`);
  });
});
