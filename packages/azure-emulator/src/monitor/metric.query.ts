import { formatTime } from '../arm/arm.views';
import type { Fleet, FleetResource } from '../fleet/fleet.model';
import { aggregationNames, type AggregationName, type MetricNamespace } from './metric.catalog';
import { computeSeries, countIntervals, type SeriesWindow } from './metric.series';

export class MetricQueryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MetricQueryError';
  }
}

const minuteMs = 60000;
const maximumSpanMinutes = 93 * 1440;

/** Parses an ISO 8601 duration (P1D, PT1H, PT5M, P1DT12H) into minutes. */
export function parseDurationMinutes(text: string): number | undefined {
  const match = /^P(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/i.exec(
    text.trim(),
  );
  if (!match || text.trim().toUpperCase() === 'P' || text.trim().toUpperCase() === 'PT') return undefined;
  const [, weeks, days, hours, minutes, seconds] = match;
  const total =
    Number(weeks ?? 0) * 10080 +
    Number(days ?? 0) * 1440 +
    Number(hours ?? 0) * 60 +
    Number(minutes ?? 0) +
    Number(seconds ?? 0) / 60;
  return total > 0 ? total : undefined;
}

export function formatDurationMinutes(minutes: number): string {
  if (minutes % 1440 === 0) return `P${minutes / 1440}D`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return `PT${hours > 0 ? `${hours}H` : ''}${rest > 0 || hours === 0 ? `${rest}M` : ''}`;
}

function parseInstant(text: string): number {
  const time = Date.parse(text);
  if (Number.isNaN(time)) throw new MetricQueryError(`Invalid time '${text}'.`);
  return time;
}

export interface TimeRange {
  readonly startMs: number;
  readonly endMs: number;
}

/** Reads `timespan` as Azure Monitor does: start/end, start/duration, duration/end or duration. */
export function parseTimespan(text: string | undefined, nowMs: number): TimeRange {
  if (!text) return { startMs: nowMs - 60 * minuteMs, endMs: nowMs };
  const [first, second] = text.split('/');
  if (second === undefined) {
    const minutes = parseDurationMinutes(first ?? '');
    if (minutes === undefined) throw new MetricQueryError(`Invalid timespan '${text}'.`);
    return { startMs: nowMs - minutes * minuteMs, endMs: nowMs };
  }
  const leadingDuration = parseDurationMinutes(first ?? '');
  const trailingDuration = parseDurationMinutes(second);
  if (leadingDuration !== undefined) {
    const endMs = parseInstant(second);
    return { startMs: endMs - leadingDuration * minuteMs, endMs };
  }
  const startMs = parseInstant(first ?? '');
  if (trailingDuration !== undefined) return { startMs, endMs: startMs + trailingDuration * minuteMs };
  return { startMs, endMs: parseInstant(second) };
}

export function parseRange(start: string | undefined, end: string | undefined, nowMs: number): TimeRange {
  if (!start && !end) return { startMs: nowMs - 60 * minuteMs, endMs: nowMs };
  const endMs = end ? parseInstant(end) : nowMs;
  const startMs = start ? parseInstant(start) : endMs - 60 * minuteMs;
  return { startMs, endMs };
}

export interface MetricQuery {
  readonly range: TimeRange;
  /** Interval length in minutes; the whole range when the caller asked for FULL. */
  readonly intervalMinutes: number;
  /** FULL intervals start at the requested start instead of a grain boundary. */
  readonly isFullInterval: boolean;
  readonly metricIndexes: readonly number[];
  /** Aggregations asked for; undefined means each metric's primary aggregation. */
  readonly aggregations: readonly AggregationName[] | undefined;
}

export function parseInterval(text: string | undefined, range: TimeRange): number {
  if (!text) return 1;
  if (text.toUpperCase() === 'FULL') {
    return Math.max(1, Math.ceil((range.endMs - range.startMs) / minuteMs));
  }
  const minutes = parseDurationMinutes(text);
  if (minutes === undefined || !Number.isInteger(minutes) || minutes < 1) {
    throw new MetricQueryError(
      `Invalid interval '${text}'. Supported intervals are PT1M, PT5M, PT15M, PT30M, PT1H, PT6H, PT12H, P1D and FULL.`,
    );
  }
  return minutes;
}

export function parseAggregations(text: string | undefined): AggregationName[] | undefined {
  if (!text) return undefined;
  const names = text
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name.length > 0 && name !== 'none');
  for (const name of names) {
    if (!(aggregationNames as readonly string[]).includes(name)) {
      throw new MetricQueryError(
        `Invalid aggregation '${name}'. Valid aggregations are Average, Minimum, Maximum, Total and Count.`,
      );
    }
  }
  return names as AggregationName[];
}

export function parseMetricNames(text: string | undefined, namespace: MetricNamespace): number[] {
  if (!text) return [0];
  const requested = text
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name.length > 0);
  return requested.map((name) => {
    const index = namespace.metrics.findIndex((metric) => metric.name.toLowerCase() === name.toLowerCase());
    if (index < 0) {
      const [provider, ...typeParts] = namespace.namespace.split('/');
      throw new MetricQueryError(
        `Failed to find metric configuration for provider: ${provider ?? ''}, resource Type: ${typeParts.join('/')}, metric: ${name}, Valid metrics: ${namespace.metrics.map((metric) => metric.name).join(',')}`,
      );
    }
    return index;
  });
}

export function validateRange(range: TimeRange, intervalMinutes: number): void {
  if (!(range.endMs > range.startMs))
    throw new MetricQueryError('The start time must be before the end time.');
  if ((range.endMs - range.startMs) / minuteMs > maximumSpanMinutes) {
    throw new MetricQueryError('The requested timespan is longer than the 93 days of retained metrics.');
  }
  if (intervalMinutes > maximumSpanMinutes)
    throw new MetricQueryError('The interval is longer than the retention.');
}

// Every resource of a batch shares the window; formatting its timestamps once saves most of the
// cost of building the answer.
let cachedTimestamps: { readonly key: string; readonly values: readonly string[] } | undefined;

function formatIntervalStarts(
  startMinute: number,
  intervalMinutes: number,
  count: number,
): readonly string[] {
  const key = `${startMinute}/${intervalMinutes}/${count}`;
  if (cachedTimestamps?.key !== key) {
    const values: string[] = [];
    for (let interval = 0; interval < count; interval += 1) {
      values.push(formatTime((startMinute + interval * intervalMinutes) * minuteMs));
    }
    cachedTimestamps = { key, values };
  }
  return cachedTimestamps.values;
}

function roundValue(value: number): number {
  return Math.round(value * 10000) / 10000;
}

/** The `value` array of a metrics answer: one metric object per requested metric. */
export function describeMetricValues(
  fleet: Fleet,
  resource: FleetResource,
  namespace: MetricNamespace,
  query: MetricQuery,
  nowMs: number,
) {
  const startMinute = query.isFullInterval
    ? Math.floor(query.range.startMs / minuteMs)
    : Math.floor(query.range.startMs / minuteMs / query.intervalMinutes) * query.intervalMinutes;
  const window: SeriesWindow = {
    startMinute,
    // Intervals start before the end, counted in whole minutes: a one-hour span has 60 points.
    endMinute: Math.max(startMinute + 1, Math.floor(query.range.endMs / minuteMs)),
    intervalMinutes: query.intervalMinutes,
    // Azure publishes a minute once it is over.
    lastCompleteMinute: Math.floor(nowMs / minuteMs) - 1,
  };
  const allSeries = computeSeries(fleet, resource, namespace, query.metricIndexes, window);
  const intervalCount = countIntervals(window);
  const timestamps = formatIntervalStarts(startMinute, query.intervalMinutes, intervalCount);
  return query.metricIndexes.map((metricIndex, position) => {
    const definition = namespace.metrics[metricIndex];
    const series = allSeries[position];
    if (!definition || !series) throw new Error('Metric series out of step with its definitions.');
    const aggregations = query.aggregations ?? [definition.primaryAggregation];
    const data: Record<string, number | string>[] = [];
    for (let interval = 0; interval < intervalCount; interval += 1) {
      const point: Record<string, number | string> = { timeStamp: timestamps[interval] ?? '' };
      const count = series.count[interval] ?? 0;
      if (count > 0) {
        const sum = series.sum[interval] ?? 0;
        for (const aggregation of aggregations) {
          if (aggregation === 'average') point.average = roundValue(sum / count);
          else if (aggregation === 'minimum') point.minimum = roundValue(series.minimum[interval] ?? 0);
          else if (aggregation === 'maximum') point.maximum = roundValue(series.maximum[interval] ?? 0);
          else if (aggregation === 'total') point.total = roundValue(sum);
          else point.count = count;
        }
      }
      data.push(point);
    }
    return {
      id: `${resource.id}/providers/Microsoft.Insights/metrics/${definition.name}`,
      type: 'Microsoft.Insights/metrics',
      name: { value: definition.name, localizedValue: definition.name },
      displayDescription: definition.description,
      unit: definition.unit,
      timeseries: [{ metadatavalues: [], data }],
      errorCode: 'Success',
    };
  });
}
