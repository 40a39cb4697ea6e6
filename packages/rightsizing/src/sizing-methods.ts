// The prediction methods. Each turns a VM's demand into a need: the load a new size must carry and
// the utilisation it must stay under, with the figure the memo quotes. Choosing the size from the
// need is the same for all of them (analyse-vm.ts).
import type { CreditJudge } from './credit-check';
import type { Demand } from './demand';
import { stepsPerDay } from './demand';
import type { PredictionMethodId } from './prediction-methods';
import { maximum, mean, quantile } from './statistics';

export interface SizingNeed {
  method: PredictionMethodId;
  // Busy vCPUs the new size must carry under `cpuThresholdPct` percent.
  cpuLoad: number;
  cpuThresholdPct: number;
  // Used GiB the new size must hold under `memoryThresholdPct` percent; null without memory data.
  memoryLoad: number | null;
  memoryThresholdPct: number;
  // What the memo says was seen, e.g. "P95 CPU over 7 days: 1.8 vCPUs busy".
  observed: string;
  confidence: number;
  // The same need with a long memory, for stability: a proposal moves only when this agrees.
  // Worked out only when there is a previous proposal to keep or move.
  steady?: () => { cpuLoad: number; memoryLoad: number | null };
  // Whether a burstable size's credits hold the demand (credit-check.ts); without it a burstable
  // size is judged like any other.
  credits?: CreditJudge;
}

// Tunables, named once (the shape of the Kubernetes VPA recommender's estimators).
export const sizingConfig = {
  advisor: {
    lookbackDays: 7,
    // Advisor aggregates to 30 minutes, taking the highest of the averages within each.
    bucketMinutes: 30,
    cpuQuantile: 0.95,
    // Advisor's published targets after the resize: user-facing workloads P95 CPU ≤ 40% and P100
    // memory ≤ 60%; the others P95 CPU ≤ 80% and P100 memory ≤ 80%.
    userFacingCpuThresholdPct: 40,
    userFacingMemoryThresholdPct: 60,
    otherCpuThresholdPct: 80,
    otherMemoryThresholdPct: 80,
    // Share of the load's variation that follows the time of day, on the 30-minute buckets, that
    // marks a workload as user-facing (it rises and falls with people's day).
    userFacingDailyShare: 0.5,
  },
  forecast: {
    // The service level the size is chosen for: at most 0.5% of 5-minute steps above 90% busy.
    targetQuantile: 0.995,
    cpuThresholdPct: 90,
    // The service level is read on 5-minute averages. Coarser steps (the server keeps hours) hide
    // the peaks within them, so their maximum stands in for the average.
    serviceStepMinutes: 5,
    memoryThresholdPct: 85,
    // The forecast looks at the last week: one whole weekly cycle, so every hour of the week the VM
    // has (a Monday batch, a quiet weekend) counts once, as it stood most recently.
    windowDays: 7,
    // A regime change down: the last days all sit under this share of the days before them and of
    // the same weekdays a week earlier (so a quiet weekend is not one). Then only the days since count.
    // Under 40%, not half: a steady VM's daily peaks wander by up to half from day to day, and a
    // dip of a few days that ends costs a rollback.
    regimeDropRatio: 0.4,
    regimeMinimumDays: 2,
    regimeBeforeDays: 3,
    // Rolling origins for the margin: every day from the 7th, forecast from the days before and judge
    // on the week after.
    firstOriginDays: 7,
    originEveryDays: 1,
    judgeDays: 7,
    // The margin corrects a bias, not noise: the forecast is grown by the smallest ratio of what came
    // to what it said at the VM's rolling origins, so only a forecast that was too low every time
    // (growth) is raised. Noise and one-off spikes are the guard's to handle.
    marginQuantile: 0,
    maxMargin: 2,
    // A weekly peak only recurs if the history saw it; fewer days than this widens the margin.
    fullConfidenceDays: 14,
  },
  pick: {
    // Share of the history used to fit when judging the methods on the VM's own past.
    fitShare: 0.5,
  },
};

export function sizeByAdvisorRule(demand: Demand): SizingNeed {
  const config = sizingConfig.advisor;
  const from = Math.max(0, demand.steps - config.lookbackDays * stepsPerDay(demand));
  const perBucket = Math.max(1, Math.round(config.bucketMinutes / demand.stepMinutes));
  const buckets = maxOfBuckets(demand.cpuVcpus, from, perBucket);
  const bucketMinutes = perBucket * demand.stepMinutes;
  const bucketsStartMs = demand.startMs + from * demand.stepMinutes * 60_000;
  const isUserFacing =
    measureDailyShare(buckets, bucketMinutes, bucketsStartMs) >= config.userFacingDailyShare;
  const cpuP95 = quantile(buckets, config.cpuQuantile);
  const memoryPeak = demand.memoryPeakGiB ? maximum(demand.memoryPeakGiB, from) : Number.NaN;
  const cpuThresholdPct = isUserFacing ? config.userFacingCpuThresholdPct : config.otherCpuThresholdPct;
  return {
    method: 'advisor-p95',
    cpuLoad: cpuP95,
    cpuThresholdPct,
    memoryLoad: Number.isNaN(memoryPeak) ? null : memoryPeak,
    memoryThresholdPct: isUserFacing ? config.userFacingMemoryThresholdPct : config.otherMemoryThresholdPct,
    observed:
      `P95 CPU over ${config.lookbackDays} days: ${formatVcpus(cpuP95)} busy ` +
      `(${isUserFacing ? 'user-facing' : 'not user-facing'} workload, so ≤ ${cpuThresholdPct}% after resize)`,
    confidence: coverage(demand.cpuVcpus, from),
  };
}

// Cloudtrim's method: the demand of the next 14 days at the service level's quantile, read from the
// last week or the days since the load dropped to a new level, grown by the error this same forecast
// would have made on the VM's own history.
export function sizeByForecast(demand: Demand, to = demand.steps): SizingNeed {
  const config = sizingConfig.forecast;
  const cpuSeries = readServiceCpu(demand);
  const cpu = forecastWithMargin(cpuSeries, demand, to);
  const memory = demand.memoryPeakGiB ? forecastWithMargin(demand.memoryPeakGiB, demand, to) : null;
  const days = to / stepsPerDay(demand);
  const historyShare = Math.min(1, days / config.fullConfidenceDays);
  return {
    method: 'cloudtrim-forecast',
    cpuLoad: cpu.level * cpu.margin,
    cpuThresholdPct: config.cpuThresholdPct,
    memoryLoad: memory ? memory.level * memory.margin : null,
    memoryThresholdPct: config.memoryThresholdPct,
    // The long memory for hysteresis: the same quantile over the whole lookback.
    steady: () => ({
      cpuLoad: quantile(cpuSeries, config.targetQuantile, 0, to) * cpu.margin,
      memoryLoad: demand.memoryPeakGiB
        ? quantile(demand.memoryPeakGiB, config.targetQuantile, 0, to) * memory!.margin
        : null,
    }),
    observed:
      `forecast P99.5 CPU for the next 14 days: ${formatVcpus(cpu.level)} busy ` +
      `(${describeWindow(cpu.days, config.windowDays)}${cpuSeries === demand.cpuPeakVcpus ? ', hourly peaks' : ''}), ` +
      `×${cpu.margin.toFixed(2)} for this VM's own forecast error`,
    // Less sure with a short history, a wide margin, or a level read from only the days since a drop.
    confidence:
      coverage(demand.cpuVcpus, 0, to) *
      historyShare *
      (1 / cpu.margin) *
      (0.5 + (0.5 * cpu.days) / config.windowDays),
  };
}

function describeWindow(days: number, windowDays: number): string {
  return days < windowDays
    ? `read from the last ${days} days: the load dropped to a new level then`
    : `read from the last ${windowDays} days`;
}

// Busy vCPUs as the service level reads them: 5-minute averages; on coarser steps, their peaks.
export function readServiceCpu(demand: Demand): Float64Array {
  return demand.stepMinutes > sizingConfig.forecast.serviceStepMinutes
    ? demand.cpuPeakVcpus
    : demand.cpuVcpus;
}

interface Forecast {
  level: number;
  margin: number;
  // Days the level was read from: the window, or fewer since a drop to a new level.
  days: number;
}

function forecastWithMargin(series: Float64Array, demand: Demand, to: number): Forecast {
  const config = sizingConfig.forecast;
  const perDay = stepsPerDay(demand);
  // Days are counted back from `to`, so the origins below, whole days earlier, share them.
  const daily = measureDailyQuantiles(series, perDay, to);
  const level = forecastLevel(series, perDay, to, daily);
  const ratios: number[] = [];
  const originEvery = config.originEveryDays * perDay;
  for (let origin = to - originEvery; origin >= config.firstOriginDays * perDay; origin -= originEvery) {
    const daysBefore = daily.length - (to - origin) / perDay;
    const predicted = forecastLevel(series, perDay, origin, daily.subarray(0, daysBefore));
    const actual = quantile(
      series,
      config.targetQuantile,
      origin,
      Math.min(to, origin + config.judgeDays * perDay),
    );
    if (predicted > 0 && !Number.isNaN(actual)) ratios.push(actual / predicted);
  }
  const days = to / perDay;
  // Too short a history to judge itself: the widest margin, narrowing as days accrue.
  const fallback = 1 + (config.maxMargin - 1) * Math.max(0, 1 - days / config.fullConfidenceDays);
  const learnt = ratios.length > 0 ? quantile(Float64Array.from(ratios), config.marginQuantile) : fallback;
  return {
    level,
    margin: Math.min(config.maxMargin, Math.max(1, learnt, ratios.length > 0 ? 1 : fallback)),
    days: readForecastDays(daily),
  };
}

// Each whole day's quantile, the last day ending at `to`.
function measureDailyQuantiles(series: Float64Array, perDay: number, to: number): Float64Array {
  const days = Math.floor(to / perDay);
  const daily = new Float64Array(days);
  for (let day = 0; day < days; day += 1) {
    const dayEnd = to - (days - 1 - day) * perDay;
    daily[day] = quantile(series, sizingConfig.forecast.targetQuantile, dayEnd - perDay, dayEnd);
  }
  return daily;
}

// The level the next 14 days will reach: the service level's quantile over the last week, or over
// the days since the load dropped to a new level. A rise needs no detection: it is in the last
// week's top readings already.
function forecastLevel(series: Float64Array, perDay: number, to: number, daily: Float64Array): number {
  const from = to - readForecastDays(daily) * perDay;
  return quantile(series, sizingConfig.forecast.targetQuantile, Math.max(0, from), to);
}

function readForecastDays(daily: Float64Array): number {
  return Math.min(daily.length - findRegimeStart(daily), sizingConfig.forecast.windowDays);
}

// The day the current regime started, from the daily quantiles: the day after which every day
// stays under `regimeDropRatio` of each of the days just before and of the same days a week
// earlier (so a quiet weekend is not a regime). 0 when the load has not dropped.
function findRegimeStart(daily: Float64Array): number {
  const config = sizingConfig.forecast;
  const days = daily.length;
  const lowestDay = Math.max(config.regimeBeforeDays, days - config.windowDays);
  for (let day = days - config.regimeMinimumDays; day >= lowestDay; day -= 1) {
    const after = maximum(daily, day, days);
    const before = minimum(daily, day - config.regimeBeforeDays, day);
    const weekEarlier = day >= 7 ? minimum(daily, day - 7, days - 7) : Number.POSITIVE_INFINITY;
    if (after < config.regimeDropRatio * before && after < config.regimeDropRatio * weekEarlier) return day;
  }
  return 0;
}

function minimum(values: Float64Array, from: number, to: number): number {
  let lowest = Number.NaN;
  for (let index = from; index < to; index += 1) {
    const value = values[index]!;
    if (!Number.isNaN(value) && !(value >= lowest)) lowest = value;
  }
  return lowest;
}

// Advisor's aggregation: the highest of the averages within each bucket of `perBucket` steps.
function maxOfBuckets(series: Float64Array, from: number, perBucket: number): Float64Array {
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

function coverage(series: Float64Array, from = 0, to = series.length): number {
  let present = 0;
  for (let step = from; step < to; step += 1) if (!Number.isNaN(series[step]!)) present += 1;
  return to > from ? present / (to - from) : 0;
}

export function formatVcpus(vcpus: number): string {
  return `${vcpus.toFixed(vcpus < 10 ? 2 : 1)} vCPUs`;
}
