// How a collection cycle reads Azure: which minutes each resource still needs, which resources
// one call reads together, how the answers become rows, and how rows gather into writes. Pure
// functions and one small buffer, tested on their own.
import type { MetricAggregation, MetricSeries, MetricWindow } from '../../cloud/cloud-provider';
import { findMetricCatalog, listCollectedMetrics, type MetricTypeCatalog } from './metric-catalog';
import type {
  CollectionTarget,
  HourlyAggregates,
  MinuteBatchWrite,
  MinutePoints,
} from './metrics.repository';
import { hourMs } from '../../lib/time';

// A resource collected for the first time starts an hour back, so a newly connected tenant's charts
// show the metric panel's whole window (the last 60 minutes at 1-minute grain) at once…
const firstWindowMs = hourMs;
// …and one that fell behind catches up an hour per cycle, from at most six hours back.
const maxWindowMs = hourMs;
const maxCatchUpMs = 6 * hourMs;
export const batchLimit = 50;

// Resources read together in one call, over one window.
export interface CollectionGroup {
  catalog: MetricTypeCatalog;
  subscriptionId: string;
  region: string;
  targets: CollectionTarget[];
  window: MetricWindow;
}

// The minutes a resource still needs, or undefined when it is up to date.
export function planMinuteWindow(
  target: CollectionTarget,
  catalog: MetricTypeCatalog,
  end: Date,
): MetricWindow | undefined {
  const endMs = end.getTime();
  const collectedMs = target.collectedUntil?.getTime();
  const startMs =
    collectedMs === undefined
      ? endMs - firstWindowMs
      : Math.max(collectedMs, floorTo(endMs - maxCatchUpMs, hourMs));
  if (startMs >= endMs) return undefined;
  return {
    metricNames: listTargetMetricNames(target, catalog),
    resourceType: catalog.type,
    start: new Date(startMs),
    end: new Date(Math.min(endMs, startMs + maxWindowMs)),
    interval: 'PT1M',
    aggregations: aggregationsOf(catalog),
  };
}

// The catalog's metrics, and its burstable-only ones the target has rows for.
export function listTargetMetricNames(target: CollectionTarget, catalog: MetricTypeCatalog): string[] {
  const names = catalog.metrics.map((metric) => metric.name);
  for (const metric of catalog.burstableMetrics ?? []) {
    if (target.metricNames.includes(metric.name)) names.push(metric.name);
  }
  return names;
}

// Groups resources that one call can read together: same subscription, region, type, window and
// metrics, at most `limit` of them (one each for types the batch call does not serve).
export function groupTargets(
  targets: CollectionTarget[],
  planWindow: (target: CollectionTarget, catalog: MetricTypeCatalog) => MetricWindow | undefined,
  limit = batchLimit,
): CollectionGroup[] {
  const open = new Map<string, CollectionGroup>();
  const groups: CollectionGroup[] = [];
  for (const target of targets) {
    const catalog = findMetricCatalog(target.type);
    if (!catalog) continue;
    const window = planWindow(target, catalog);
    if (!window) continue;
    const key = [
      target.azureSubscriptionId,
      target.region,
      catalog.type,
      window.start.getTime(),
      window.end.getTime(),
      window.metricNames.join('\t'),
    ].join('|');
    let group = catalog.isBatchable ? open.get(key) : undefined;
    if (!group) {
      group = {
        catalog,
        subscriptionId: target.azureSubscriptionId,
        region: target.region,
        targets: [],
        window,
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
  return [...new Set(listCollectedMetrics(catalog).map((metric) => metric.aggregation))];
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

export function toMinutePoints(group: CollectionGroup, seriesList: MetricSeries[]): MinutePoints {
  const metricIds = indexMetricIds(group);
  const aggregationByName = new Map(
    listCollectedMetrics(group.catalog).map((metric) => [metric.name, metric.aggregation]),
  );
  const points: MinutePoints = { metricIds: [], times: [], values: [] };
  for (const series of seriesList) {
    const metricId = metricIds.get(`${series.resourceId.toLowerCase()}|${series.metricName}`);
    const values = series.values[aggregationByName.get(series.metricName) ?? 'average'];
    if (!metricId || !values) continue;
    for (let index = 0; index < series.times.length; index += 1) {
      const value = values[index];
      if (value === null || value === undefined) continue;
      points.metricIds.push(metricId);
      points.times.push(series.times[index]!);
      points.values.push(value);
    }
  }
  return points;
}

export function toHourlyAggregates(group: CollectionGroup, seriesList: MetricSeries[]): HourlyAggregates {
  const metricIds = indexMetricIds(group);
  const aggregationByName = new Map(
    listCollectedMetrics(group.catalog).map((metric) => [metric.name, metric.aggregation]),
  );
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
      aggregates.hours.push(series.times[index]!);
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

export function floorTo(timeMs: number, stepMs: number): number {
  return Math.floor(timeMs / stepMs) * stepMs;
}

// Answers gathered into writes of at least `minimumPoints` points each: a 100-VM tenant's cycle is a
// dozen answers (its plans and databases one call each), and a statement's own cost (parse, plan,
// transaction, the metrics' collected mark) was about two fifths of writing 115 points. Only answers of one
// window go together, so a write's collected mark and roll-up stay those of each of its metrics.
export class MinuteWriteBuffer {
  private readonly pending = new Map<string, MinuteBatchWrite>();

  constructor(private readonly minimumPoints: number) {}

  // Adds one answer's write; answers the write it completed, if any.
  add(write: MinuteBatchWrite): MinuteBatchWrite | undefined {
    const key = [write.collectedUntil, write.rollUp?.from, write.rollUp?.to]
      .map((date) => date?.getTime())
      .join();
    const pending = this.pending.get(key);
    const gathered = pending ? appendWrite(pending, write) : write;
    if (gathered.points.metricIds.length < this.minimumPoints) {
      this.pending.set(key, gathered);
      return undefined;
    }
    this.pending.delete(key);
    return gathered;
  }

  // The writes not yet full, once every answer is in.
  drain(): MinuteBatchWrite[] {
    const writes = [...this.pending.values()];
    this.pending.clear();
    return writes;
  }
}

// `into`'s arrays were made for it (by toMinutePoints) and grow in place; a loop, since spreading
// thousands of arguments into push can overflow the stack.
function appendWrite(into: MinuteBatchWrite, write: MinuteBatchWrite): MinuteBatchWrite {
  const { points } = write;
  for (let index = 0; index < points.metricIds.length; index += 1) {
    into.points.metricIds.push(points.metricIds[index]!);
    into.points.times.push(points.times[index]!);
    into.points.values.push(points.values[index]!);
  }
  for (const metricId of write.collectedMetricIds) into.collectedMetricIds.push(metricId);
  return into;
}
