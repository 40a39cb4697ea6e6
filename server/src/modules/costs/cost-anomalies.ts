// Cost anomalies of one scope (a subscription's resource group and service): days whose cost falls
// outside the band the scope's own history predicts. Pure: the resources' daily costs in, the
// anomalies out. A bill moves in steps (a VM added, resized, covered by a reservation) and by the
// week (machines shut down at weekends), and its days are mostly alike; so the expected day is a
// robust level (the median since the last step that has held a week, else of four weeks) with a
// Theil–Sen trend, plus the weekday's own offset, and the band is the larger of the residuals' robust
// spread, a share of the expected day and a least amount worth an alert. A run of anomalous days is
// one anomaly, on its first day. A change Cloudtrim made is not an anomaly: its resource is
// expected at whatever it costs from the change's day until the new rate has held a week.

import { fitSlope, formatDayNumber, median, sumDeviations, toDayNumber, weekday } from './cost-series';

export interface ResourceCosts {
  resourceId: string;
  // Days with no entry cost nothing.
  days: ReadonlyMap<string, number>;
  // Days (YYYY-MM-DD) on which Cloudtrim resized or shut the resource down.
  changedOn?: readonly string[];
}

export interface AnomalyRequest {
  resources: readonly ResourceCosts[];
  // The days judged (inclusive); each against the days before it.
  from: string;
  to: string;
  // The last day whose data has settled: a day after it may still grow (partial, or not all usage
  // rated yet), so it is judged only for rising above its band, never for falling below.
  settledTo: string;
  // The least difference worth an alert (in the bill's currency), whatever the band.
  minimumImpact: number;
  // Days the bill has not been read for (no row of the whole tenant): not judged, where every scope
  // would seem to have fallen to nothing, and taken as the same weekday a week before in the history.
  unreadDays?: ReadonlySet<string>;
}

export interface AnomalyDriver {
  resourceId: string;
  expected: number;
  actual: number;
}

export interface CostAnomaly {
  // The anomaly's first day, and how long it has lasted within the days judged.
  day: string;
  days: number;
  direction: 'above' | 'below';
  expected: number;
  actual: number;
  low: number;
  high: number;
  // Resources by the size of their difference, largest first.
  drivers: AnomalyDriver[];
}

export interface DayPrediction {
  expected: number;
  low: number;
  high: number;
}

// Eight weeks of history: the last five for the weekly pattern (one that changes, as when weekend
// shutdowns stop, is followed within three weeks), the last four for the level and the trend.
export const anomalyHistoryDays = 56;
const weeklyPatternDays = 35;
const levelDays = 28;
const minimumHistoryDays = 14;
const minimumTrendDays = 21;
// A step is taken as the new level once it has held a week: a week-long anomaly is alerted at its
// start and then becomes the level it is compared with (or it would alert every day).
const stepHeldDays = 7;
// The band: this many robust deviations of the residuals, at least this share of the expected day.
const bandDeviations = 4;
const minimumBandShare = 0.05;
// A resource needs this share of the difference to be named as a driver; at most this many.
const driverShare = 0.05;
const driverLimit = 5;

export function findCostAnomalies(request: AnomalyRequest): CostAnomaly[] {
  const from = toDayNumber(request.from);
  const to = toDayNumber(request.to);
  const settledTo = toDayNumber(request.settledTo);
  const firstDay = from - anomalyHistoryDays;
  const length = to - firstDay + 1;
  const resources = request.resources.map((resource) => {
    const series = new Float64Array(length);
    for (const [day, cost] of resource.days) {
      const index = toDayNumber(day) - firstDay;
      if (index >= 0 && index < length) series[index]! += cost;
    }
    for (let index = 7; index < length; index += 1) {
      if (request.unreadDays?.has(formatDayNumber(firstDay + index))) series[index] = series[index - 7]!;
    }
    const changes = (resource.changedOn ?? []).map(toDayNumber);
    return { resourceId: resource.resourceId, series, changes };
  });
  const anomalies: CostAnomaly[] = [];
  let open: CostAnomaly | undefined;
  for (let day = from; day <= to; day += 1) {
    if (request.unreadDays?.has(formatDayNumber(day))) continue;
    const judged = judgeDay(resources, firstDay, day, request.minimumImpact);
    const direction =
      judged.actual > judged.high
        ? 'above'
        : judged.actual < judged.low && day <= settledTo
          ? 'below'
          : undefined;
    if (direction === undefined) {
      open = undefined;
      continue;
    }
    if (open && open.direction === direction) {
      open.days += 1;
      continue;
    }
    open = {
      day: formatDayNumber(day),
      days: 1,
      direction,
      expected: judged.expected,
      actual: judged.actual,
      low: judged.low,
      high: judged.high,
      drivers: judged.readDrivers(),
    };
    anomalies.push(open);
  }
  return anomalies;
}

interface ResourceSeries {
  resourceId: string;
  series: Float64Array;
  changes: number[];
}

// One day of the scope: its expected cost and band from the days before it, the resources Cloudtrim
// changed lately taken at what they cost.
function judgeDay(
  resources: readonly ResourceSeries[],
  firstDay: number,
  day: number,
  minimumImpact: number,
) {
  const index = day - firstDay;
  const history = new Float64Array(Math.min(index, anomalyHistoryDays));
  const historyStart = index - history.length;
  let explained = 0;
  let actual = 0;
  const isChangedLately = (resource: ResourceSeries) =>
    resource.changes.some((changeDay) => changeDay <= day && day - changeDay <= stepHeldDays);
  for (const resource of resources) {
    const cost = resource.series[index]!;
    actual += cost;
    if (isChangedLately(resource)) {
      explained += cost;
      continue;
    }
    for (let offset = 0; offset < history.length; offset += 1) {
      history[offset]! += resource.series[historyStart + offset]!;
    }
  }
  const prediction = predictDayCost(history, firstDay + historyStart, day, minimumImpact);
  return {
    actual,
    expected: prediction.expected + explained,
    low: prediction.low + explained,
    high: prediction.high + explained,
    readDrivers: (): AnomalyDriver[] => {
      const drivers = resources.map((resource) => {
        const cost = resource.series[index]!;
        if (isChangedLately(resource))
          return { resourceId: resource.resourceId, expected: cost, actual: cost };
        const own = resource.series.subarray(historyStart, index);
        return {
          resourceId: resource.resourceId,
          expected: predictDayCost(own, firstDay + historyStart, day, 0).expected,
          actual: cost,
        };
      });
      const difference = Math.abs(actual - prediction.expected - explained);
      return drivers
        .filter((driver) => Math.abs(driver.actual - driver.expected) >= driverShare * difference)
        .sort(
          (first, second) =>
            Math.abs(second.actual - second.expected) - Math.abs(first.actual - first.expected),
        )
        .slice(0, driverLimit);
    },
  };
}

// An alert is worth it from this share of what the subscription costs a day (a tiny scope tripling
// from cents is no news).
const minimumImpactShare = 0.002;

/** The least difference worth an alert in a subscription, from its daily costs of the last weeks. */
export function readMinimumImpact(subscriptionDailyCosts: readonly number[]): number {
  return minimumImpactShare * median(subscriptionDailyCosts);
}

/**
 * The expected cost of `day` from the daily costs before it (`history[0]` is `historyFirstDay`), with
 * its band. Under two weeks of history, no band can be told: anything goes.
 */
export function predictDayCost(
  history: ArrayLike<number>,
  historyFirstDay: number,
  day: number,
  minimumImpact: number,
): DayPrediction {
  const count = history.length;
  if (count < minimumHistoryDays) return { expected: 0, low: 0, high: Number.POSITIVE_INFINITY };
  const offsets = fitWeeklyOffsets(history, historyFirstDay);
  const adjusted = Array.from(history, (cost, offset) => cost - offsets[weekday(historyFirstDay + offset)]!);
  const stepAt = findHeldStep(adjusted);
  const windowStart = Math.max(stepAt ?? 0, count - levelDays);
  const window = adjusted.slice(windowStart);
  const slope = window.length >= minimumTrendDays ? fitSlope(window) : 0;
  // The level on the last day of history, each day brought to it along the trend.
  const level = median(window.map((cost, offset) => cost + slope * (window.length - 1 - offset)));
  const residuals = window.map((cost, offset) => cost - (level - slope * (window.length - 1 - offset)));
  const spread = 1.4826 * median(residuals.map(Math.abs));
  const ahead = day - (historyFirstDay + count - 1);
  const offset = offsets[weekday(day)]!;
  const expected = Math.max(0, level + slope * ahead + offset);
  const width = Math.max(bandDeviations * spread, minimumBandShare * expected, minimumImpact);
  // Falling back to the level of the four weeks before a recent rise (an anomaly that ended, a
  // machine deleted again) is no anomaly either.
  const floorLevel = Math.min(level + slope * ahead, median(adjusted.slice(-levelDays)));
  const floor = Math.max(0, floorLevel + offset);
  return {
    expected,
    low: Math.min(expected, floor) - Math.max(width, minimumBandShare * floor),
    high: expected + width,
  };
}

// Each weekday's cost above or below the week around it (a centred 7-day mean), the median over the
// last five weeks: an anomaly or a step moves a week or two of them, not the median. Added, not multiplied:
// what a weekend saves is the machines shut down, whatever else the scope holds.
function fitWeeklyOffsets(series: ArrayLike<number>, firstDay: number): Float64Array {
  const offsets = new Float64Array(7);
  const differences: number[][] = Array.from({ length: 7 }, () => []);
  for (let index = Math.max(3, series.length - weeklyPatternDays); index <= series.length - 4; index += 1) {
    let weekTotal = 0;
    for (let offset = -3; offset <= 3; offset += 1) weekTotal += series[index + offset]!;
    differences[weekday(firstDay + index)]!.push(series[index]! - weekTotal / 7);
  }
  for (let day = 0; day < 7; day += 1) offsets[day] = median(differences[day]!);
  const mean = offsets.reduce((sum, offset) => sum + offset, 0) / 7;
  for (let day = 0; day < 7; day += 1) offsets[day]! -= mean;
  return offsets;
}

// The latest step of the last four weeks that has held at least a week: the split of least absolute
// deviation from two medians, taken when it stands clear of the days' own spread and of a tenth of
// the level. Its first day's index, or undefined.
function findHeldStep(values: readonly number[]): number | undefined {
  const count = values.length;
  const windowStart = Math.max(0, count - levelDays);
  if (count - windowStart < stepHeldDays * 2) return undefined;
  let best: { at: number; size: number; cost: number } | undefined;
  for (let at = windowStart + stepHeldDays; at <= count - stepHeldDays; at += 1) {
    const before = values.slice(windowStart, at);
    const since = values.slice(at);
    const beforeMedian = median(before);
    const sinceMedian = median(since);
    const cost = sumDeviations(before, beforeMedian) + sumDeviations(since, sinceMedian);
    if (!best || cost < best.cost) best = { at, size: sinceMedian - beforeMedian, cost };
  }
  if (!best) return undefined;
  const spread = (1.4826 * best.cost) / (count - windowStart);
  const reference = Math.abs(median(values.slice(windowStart)));
  return Math.abs(best.size) > Math.max(bandDeviations * spread, minimumBandShare * reference)
    ? best.at
    : undefined;
}
