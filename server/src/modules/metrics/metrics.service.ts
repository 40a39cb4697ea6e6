import type { MetricDataResponse, MetricsResponse } from '@cloudtrim/contracts/metrics';
import type {
  CloudCallOptions,
  CloudCredentials,
  CloudProvider,
  MetricAggregation,
  MetricSeries,
  MetricWindow,
} from '../../cloud/cloud-provider';
import { isCloudError } from '../../cloud/cloud-provider';
import type { CloudWorkQueue } from '../../jobs/cloud-work';
import { runWithConcurrency } from '../../lib/concurrency';
import { notFound } from '../../lib/http-errors';
import { activityServiceNames, type ActivityService } from '../activity/activity.service';
import type { TenantService } from '../tenants/tenants.service';
import { findMetricCatalog, type MetricTypeCatalog } from './metric-catalog';
import type {
  CollectionTarget,
  HourlyAggregates,
  MetricsRepository,
  MinutePoints,
} from './metrics.repository';

const minuteMs = 60_000;
const hourMs = 60 * minuteMs;
// Azure Monitor publishes a minute a little after it ends; reading up to two minutes ago keeps
// every window complete.
const ingestionDelayMs = 2 * minuteMs;
// A resource collected for the first time starts with the last ten minutes…
const firstWindowMs = 10 * minuteMs;
// …and one that fell behind catches up an hour per cycle, from at most six hours back.
const maxWindowMs = hourMs;
const maxCatchUpMs = 6 * hourMs;
const backfillDays = 14;
const backfillWindowMs = 7 * 24 * hourMs;
const batchLimit = 50;
const backfillBatchLimit = 10;
const callConcurrency = 8;
export const pointRetentionMs = 48 * hourMs;
export const hourlyRetentionMs = 90 * 24 * hourMs;

export interface CollectionSummary {
  resourceCount: number;
  callCount: number;
  pointCount: number;
  failedResourceCount: number;
  failures: string[];
}

// Resources read together in one call, over one window.
interface CollectionGroup {
  catalog: MetricTypeCatalog;
  subscriptionId: string;
  region: string;
  targets: CollectionTarget[];
  window: MetricWindow;
  rollUpFrom: Date;
}

export class MetricsService {
  constructor(
    private readonly tenants: TenantService,
    private readonly metrics: MetricsRepository,
    private readonly cloud: CloudProvider,
    private readonly activity: ActivityService,
    private readonly work: CloudWorkQueue,
    private readonly now: () => Date,
  ) {}

  async listMetrics(teamId: string, armId: string): Promise<MetricsResponse> {
    const metrics = await this.metrics.listMetricsOfResource(teamId, armId);
    if (!metrics) throw notFound('Resource not found.');
    return { Data: metrics.map((metric) => ({ MetricId: metric.id, Metric: metric.name })) };
  }

  async getMetricData(teamId: string, metricId: string, minutes: number): Promise<MetricDataResponse> {
    if (!isUuid(metricId) || !(await this.metrics.isMetricOfTeam(teamId, metricId))) {
      throw notFound('Metric not found.');
    }
    const points = await this.metrics.listPoints(
      metricId,
      new Date(this.now().getTime() - minutes * minuteMs),
    );
    const data: Record<string, number> = {};
    for (const point of points) data[point.time] = point.value;
    return { Data: data };
  }

  async enqueueCollectionForAllTenants(): Promise<void> {
    for (const tenantId of await this.tenants.listActiveTenantIds()) {
      await this.work.enqueueMetricsCollection(tenantId);
    }
  }

  // One collection cycle for one tenant: every resource's minutes since its last collection.
  // Undefined when the tenant is gone.
  async collectTenant(
    tenantId: string,
    options: CloudCallOptions = {},
  ): Promise<CollectionSummary | undefined> {
    const context = await this.loadTenant(tenantId);
    if (!context) return undefined;
    const end = new Date(floorTo(this.now().getTime() - ingestionDelayMs, minuteMs));
    const targets = await this.metrics.listCollectionTargets(tenantId, { isBackfill: false });
    const groups = groupTargets(targets, (target, catalog) => planMinuteWindow(target, catalog, end));
    const summary = createSummary(targets.length);
    await runWithConcurrency(groups, callConcurrency, async (group) => {
      const series = await this.readGroup(context.credentials, group, summary, options);
      if (!series) return;
      const points = toMinutePoints(group, series);
      summary.pointCount += points.metricIds.length;
      await this.metrics.writeMinuteBatch({
        points,
        collectedMetricIds: group.targets.flatMap((target) => target.metricIds),
        collectedUntil: group.window.end,
        rollUp: { from: group.rollUpFrom, to: new Date(floorTo(group.window.end.getTime(), hourMs)) },
      });
    });
    await this.reportFailures(context.teamId, tenantId, 'Metric collection', summary);
    return summary;
  }

  // 14 days of hourly history for resources that have none yet (a new tenant or new resources).
  // Azure's hourly grain carries no percentiles, so a back-filled hour's p95 is its maximum: an
  // upper bound, which errs towards keeping capacity.
  async backfillTenant(
    tenantId: string,
    options: CloudCallOptions = {},
  ): Promise<CollectionSummary | undefined> {
    const context = await this.loadTenant(tenantId);
    if (!context) return undefined;
    const end = new Date(floorTo(this.now().getTime(), hourMs));
    const start = new Date(end.getTime() - backfillDays * 24 * hourMs);
    const targets = await this.metrics.listCollectionTargets(tenantId, { isBackfill: true });
    const summary = createSummary(targets.length);
    for (let windowStart = start.getTime(); windowStart < end.getTime(); windowStart += backfillWindowMs) {
      const windowEnd = new Date(Math.min(windowStart + backfillWindowMs, end.getTime()));
      const window = (catalog: MetricTypeCatalog): PlannedWindow => ({
        window: {
          metricNames: catalog.metrics.map((metric) => metric.name),
          resourceType: catalog.type,
          start: new Date(windowStart),
          end: windowEnd,
          interval: 'PT1H',
          aggregations: ['average', 'maximum', 'total'],
        },
        rollUpFrom: windowEnd,
      });
      const groups = groupTargets(targets, (_target, catalog) => window(catalog), backfillBatchLimit);
      await runWithConcurrency(groups, callConcurrency, async (group) => {
        const series = await this.readGroup(context.credentials, group, summary, options);
        if (!series) return;
        const aggregates = toHourlyAggregates(group, series);
        summary.pointCount += await this.metrics.insertHourly(aggregates);
      });
    }
    await this.reportFailures(context.teamId, tenantId, 'Metric back-fill', summary);
    return summary;
  }

  async purgeExpired(): Promise<{ points: number; hours: number }> {
    const now = this.now().getTime();
    return this.metrics.purgeOlderThan(new Date(now - pointRetentionMs), new Date(now - hourlyRetentionMs));
  }

  private async loadTenant(
    tenantId: string,
  ): Promise<{ teamId: string; credentials: CloudCredentials } | undefined> {
    const tenant = await this.tenants.findTenant(tenantId);
    if (!tenant || !tenant.isActive) return undefined;
    const credentials = this.tenants.readCredentials(tenant);
    return credentials ? { teamId: tenant.teamId, credentials } : undefined;
  }

  // One Azure call for the group; a failure is counted and the other groups go on.
  private async readGroup(
    credentials: CloudCredentials,
    group: CollectionGroup,
    summary: CollectionSummary,
    options: CloudCallOptions,
  ): Promise<MetricSeries[] | undefined> {
    try {
      summary.callCount += 1;
      if (group.catalog.isBatchable) {
        return await this.cloud.getMetricBatch(
          credentials,
          {
            subscriptionId: group.subscriptionId,
            region: group.region,
            resourceIds: group.targets.map((target) => target.armId),
          },
          group.window,
          options,
        );
      }
      return await this.cloud.getResourceMetrics(credentials, group.targets[0]!.armId, group.window, options);
    } catch (error) {
      if (!isCloudError(error)) throw error;
      summary.failedResourceCount += group.targets.length;
      if (summary.failures.length < 5) summary.failures.push(error.message);
      return undefined;
    }
  }

  private async reportFailures(
    teamId: string,
    tenantId: string,
    what: string,
    summary: CollectionSummary,
  ): Promise<void> {
    if (summary.failedResourceCount === 0) return;
    if (!(await this.tenants.findTenant(tenantId))) return;
    await this.activity.record([
      {
        teamId,
        tenantId,
        serviceName: activityServiceNames.metrics,
        resourceArmId: null,
        logText: `${what} failed for ${summary.failedResourceCount} resources: ${summary.failures[0]}`,
      },
    ]);
  }
}

function createSummary(resourceCount: number): CollectionSummary {
  return { resourceCount, callCount: 0, pointCount: 0, failedResourceCount: 0, failures: [] };
}

// The minutes a resource still needs, or undefined when it is up to date. A window that starts
// part-way into an hour (a first window, or one resumed after a gap) does not roll that hour up.
function planMinuteWindow(
  target: CollectionTarget,
  catalog: MetricTypeCatalog,
  end: Date,
): PlannedWindow | undefined {
  const endMs = end.getTime();
  const collectedMs = target.collectedUntil?.getTime();
  const startMs =
    collectedMs === undefined
      ? endMs - firstWindowMs
      : Math.max(collectedMs, floorTo(endMs - maxCatchUpMs, hourMs));
  if (startMs >= endMs) return undefined;
  const isContinuing = collectedMs !== undefined && startMs === collectedMs;
  return {
    window: {
      metricNames: catalog.metrics.map((metric) => metric.name),
      resourceType: catalog.type,
      start: new Date(startMs),
      end: new Date(Math.min(endMs, startMs + maxWindowMs)),
      interval: 'PT1M',
      aggregations: aggregationsOf(catalog),
    },
    rollUpFrom: new Date(isContinuing ? floorTo(startMs, hourMs) : ceilTo(startMs, hourMs)),
  };
}

interface PlannedWindow {
  window: MetricWindow;
  rollUpFrom: Date;
}

// Groups resources that one call can read together: same subscription, region, type and window,
// at most `limit` of them (one each for types the batch call does not serve).
function groupTargets(
  targets: CollectionTarget[],
  planWindow: (target: CollectionTarget, catalog: MetricTypeCatalog) => PlannedWindow | undefined,
  limit = batchLimit,
): CollectionGroup[] {
  const open = new Map<string, CollectionGroup>();
  const groups: CollectionGroup[] = [];
  for (const target of targets) {
    const catalog = findMetricCatalog(target.type);
    if (!catalog) continue;
    const planned = planWindow(target, catalog);
    if (!planned) continue;
    const { window, rollUpFrom } = planned;
    const key = [
      target.azureSubscriptionId,
      target.region,
      catalog.type,
      window.start.getTime(),
      window.end.getTime(),
      rollUpFrom.getTime(),
    ].join('|');
    let group = catalog.isBatchable ? open.get(key) : undefined;
    if (!group) {
      group = {
        catalog,
        subscriptionId: target.azureSubscriptionId,
        region: target.region,
        targets: [],
        window,
        rollUpFrom,
      };
      groups.push(group);
      if (catalog.isBatchable) open.set(key, group);
    }
    group.targets.push(target);
    if (group.targets.length >= limit) open.delete(key);
  }
  return groups;
}

function aggregationsOf(catalog: MetricTypeCatalog): MetricAggregation[] {
  return [...new Set(catalog.metrics.map((metric) => metric.aggregation))];
}

// Maps each series to its metric row: by resource id (any letter case) and metric name.
function indexMetricIds(group: CollectionGroup): Map<string, string> {
  const metricIds = new Map<string, string>();
  for (const target of group.targets) {
    target.metricNames.forEach((name, index) => {
      metricIds.set(`${target.armId.toLowerCase()}|${name}`, target.metricIds[index]!);
    });
  }
  return metricIds;
}

function toMinutePoints(group: CollectionGroup, seriesList: MetricSeries[]): MinutePoints {
  const metricIds = indexMetricIds(group);
  const aggregationByName = new Map(group.catalog.metrics.map((metric) => [metric.name, metric.aggregation]));
  const points: MinutePoints = { metricIds: [], times: [], values: [] };
  for (const series of seriesList) {
    const metricId = metricIds.get(`${series.resourceId.toLowerCase()}|${series.metricName}`);
    const values = series.values[aggregationByName.get(series.metricName) ?? 'average'];
    if (!metricId || !values) continue;
    for (let index = 0; index < series.times.length; index += 1) {
      const value = values[index];
      if (value === null || value === undefined) continue;
      points.metricIds.push(metricId);
      points.times.push(new Date(series.times[index]!).toISOString());
      points.values.push(value);
    }
  }
  return points;
}

function toHourlyAggregates(group: CollectionGroup, seriesList: MetricSeries[]): HourlyAggregates {
  const metricIds = indexMetricIds(group);
  const aggregationByName = new Map(group.catalog.metrics.map((metric) => [metric.name, metric.aggregation]));
  const aggregates: HourlyAggregates = { metricIds: [], hours: [], averages: [], maximums: [], p95s: [] };
  for (const series of seriesList) {
    const metricId = metricIds.get(`${series.resourceId.toLowerCase()}|${series.metricName}`);
    if (!metricId) continue;
    const aggregation = aggregationByName.get(series.metricName) ?? 'average';
    for (let index = 0; index < series.times.length; index += 1) {
      const maximum = series.values.maximum?.[index];
      // The hour's mean of the per-minute value: a 'total' metric's minute value is its minute total.
      const average =
        aggregation === 'total'
          ? divideOrNull(series.values.total?.[index], 60)
          : aggregation === 'maximum'
            ? maximum
            : series.values.average?.[index];
      if (average === null || average === undefined || maximum === null || maximum === undefined) continue;
      const hourMaximum = aggregation === 'total' ? Math.max(maximum, average) : maximum;
      aggregates.metricIds.push(metricId);
      aggregates.hours.push(new Date(series.times[index]!).toISOString());
      aggregates.averages.push(average);
      aggregates.maximums.push(hourMaximum);
      aggregates.p95s.push(hourMaximum);
    }
  }
  return aggregates;
}

function divideOrNull(value: number | null | undefined, divisor: number): number | null {
  return value === null || value === undefined ? null : value / divisor;
}

function floorTo(timeMs: number, stepMs: number): number {
  return Math.floor(timeMs / stepMs) * stepMs;
}

function ceilTo(timeMs: number, stepMs: number): number {
  return Math.ceil(timeMs / stepMs) * stepMs;
}

function isUuid(text: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(text);
}
