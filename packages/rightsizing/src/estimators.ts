// The small estimators the prediction methods are composed of (sizing-methods.ts): a percentile over
// a window, the daily percentiles, the regime window (the days since the load dropped to a new
// level), the margin learnt from the method's own past errors, Advisor's aggregation and its
// user-facing test, and the share of a series present. Each takes its numbers as parameters; the
// methods name them once (sizingConfig).
import { maximum, mean, quantile } from './statistics';

// The q-quantile of a series over [from, to) steps.
export function estimatePercentile(series: Float64Array, q: number, from = 0, to = series.length): number {
  return quantile(series, q, from, to);
}

// Each whole day's q-quantile, the last day ending at `to`.
export function estimateDailyPercentiles(
  series: Float64Array,
  q: number,
  perDay: number,
  to: number,
): Float64Array {
  const days = Math.floor(to / perDay);
  const daily = new Float64Array(days);
  for (let day = 0; day < days; day += 1) {
    const dayEnd = to - (days - 1 - day) * perDay;
    daily[day] = quantile(series, q, dayEnd - perDay, dayEnd);
  }
  return daily;
}

export interface RegimeRule {
  // The last days all sit under this share of the days before them and of the same weekdays a week
  // earlier (so a quiet weekend is not one).
  dropRatio: number;
  minimumDays: number;
  beforeDays: number;
  // The window read when the load has not dropped.
  windowDays: number;
}

// The days the current level is read from: the window, or fewer since the load dropped to a new
// level (from the daily percentiles).
export function estimateRegimeDays(daily: Float64Array, rule: RegimeRule): number {
  return Math.min(daily.length - findRegimeStart(daily, rule), rule.windowDays);
}

// The day the current regime started: the day after which every day stays under `dropRatio` of
// each of the days just before and of the same days a week earlier. 0 when the load has not dropped.
function findRegimeStart(daily: Float64Array, rule: RegimeRule): number {
  const days = daily.length;
  const lowestDay = Math.max(rule.beforeDays, days - rule.windowDays);
  for (let day = days - rule.minimumDays; day >= lowestDay; day -= 1) {
    const after = maximum(daily, day, days);
    const before = minimum(daily, day - rule.beforeDays, day);
    const weekEarlier = day >= 7 ? minimum(daily, day - 7, days - 7) : Number.POSITIVE_INFINITY;
    if (after < rule.dropRatio * before && after < rule.dropRatio * weekEarlier) return day;
  }
  return 0;
}

// The level of the days ahead: the q-quantile over the regime window ending at `to`. A rise needs no
// detection: it is in the window's top readings already.
export function estimateWindowLevel(
  series: Float64Array,
  q: number,
  perDay: number,
  to: number,
  daily: Float64Array,
  rule: RegimeRule,
): number {
  const from = to - estimateRegimeDays(daily, rule) * perDay;
  return quantile(series, q, Math.max(0, from), to);
}

export interface MarginRule {
  q: number;
  regime: RegimeRule;
  // Rolling origins: every `originEveryDays` from the `firstOriginDays`th, forecast from the days
  // before and judged on the `judgeDays` after.
  firstOriginDays: number;
  originEveryDays: number;
  judgeDays: number;
  // The quantile of the ratios (what came ÷ what was said) taken as the margin, and its cap.
  marginQuantile: number;
  maxMargin: number;
  // A history shorter than this cannot judge itself: the widest margin, narrowing as days accrue.
  fullConfidenceDays: number;
}

// The margin learnt from the same estimate's errors on the series' own past: at each rolling origin
// the window level is estimated from the days before and compared with what came.
export function estimateLearntMargin(
  series: Float64Array,
  perDay: number,
  to: number,
  daily: Float64Array,
  rule: MarginRule,
): number {
  const ratios: number[] = [];
  const originEvery = rule.originEveryDays * perDay;
  for (let origin = to - originEvery; origin >= rule.firstOriginDays * perDay; origin -= originEvery) {
    const daysBefore = daily.length - (to - origin) / perDay;
    const predicted = estimateWindowLevel(
      series,
      rule.q,
      perDay,
      origin,
      daily.subarray(0, daysBefore),
      rule.regime,
    );
    const actual = quantile(series, rule.q, origin, Math.min(to, origin + rule.judgeDays * perDay));
    if (predicted > 0 && !Number.isNaN(actual)) ratios.push(actual / predicted);
  }
  const days = to / perDay;
  const fallback = 1 + (rule.maxMargin - 1) * Math.max(0, 1 - days / rule.fullConfidenceDays);
  const learnt = ratios.length > 0 ? quantile(Float64Array.from(ratios), rule.marginQuantile) : fallback;
  return Math.min(rule.maxMargin, Math.max(1, learnt, ratios.length > 0 ? 1 : fallback));
}

// Advisor's aggregation: the highest of the averages within each bucket of `perBucket` steps.
export function estimateBucketPeaks(series: Float64Array, from: number, perBucket: number): Float64Array {
  const buckets = new Float64Array(Math.ceil((series.length - from) / perBucket));
  for (let bucket = 0; bucket < buckets.length; bucket += 1) {
    const start = from + bucket * perBucket;
    buckets[bucket] = maximum(series, start, Math.min(series.length, start + perBucket));
  }
  return buckets;
}

// How much of the load's variation follows the time of day (0..1), on Advisor's 30-minute buckets
// (the 5-minute noise would hide the cycle): people-driven workloads rise and fall with the working
// day, which is what Advisor's user-facing test looks for.
export function measureDailyShare(buckets: Float64Array, bucketMinutes: number, startMs: number): number {
  const perDay = Math.max(1, Math.round(1440 / bucketMinutes));
  const firstSlot = Math.floor(startMs / (bucketMinutes * 60_000)) % perDay;
  const sums = new Float64Array(perDay);
  const counts = new Float64Array(perDay);
  for (let bucket = 0; bucket < buckets.length; bucket += 1) {
    const value = buckets[bucket]!;
    if (Number.isNaN(value)) continue;
    const slot = (firstSlot + bucket) % perDay;
    sums[slot] = sums[slot]! + value;
    counts[slot] = counts[slot]! + 1;
  }
  const overall = mean(buckets);
  let explained = 0;
  let total = 0;
  for (let bucket = 0; bucket < buckets.length; bucket += 1) {
    const value = buckets[bucket]!;
    if (Number.isNaN(value)) continue;
    const slot = (firstSlot + bucket) % perDay;
    explained += (sums[slot]! / counts[slot]! - overall) ** 2;
    total += (value - overall) ** 2;
  }
  return total === 0 ? 0 : explained / total;
}

// The share of [from, to) with a reading.
export function measureCoverage(series: Float64Array, from = 0, to = series.length): number {
  let present = 0;
  for (let step = from; step < to; step += 1) if (!Number.isNaN(series[step]!)) present += 1;
  return to > from ? present / (to - from) : 0;
}

function minimum(values: Float64Array, from: number, to: number): number {
  let lowest = Number.NaN;
  for (let index = from; index < to; index += 1) {
    const value = values[index]!;
    if (!Number.isNaN(value) && !(value >= lowest)) lowest = value;
  }
  return lowest;
}
