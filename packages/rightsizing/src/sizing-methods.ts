// The prediction methods. Each turns a VM's demand into a need: the load a new size must carry and
// the utilisation it must stay under, with the figure the memo quotes. Choosing the size from the
// need is the same for all of them (analyse-vm.ts).
import type { CreditJudge } from './credit-check';
import type { Demand } from './demand';
import { stepsPerDay } from './demand';
import {
  estimateBucketPeaks,
  estimateDailyPercentiles,
  estimateLearntMargin,
  estimatePercentile,
  estimateRegimeDays,
  estimateWindowLevel,
  measureCoverage,
  measureDailyShare,
  type MarginRule,
  type RegimeRule,
} from './estimators';
import type { PredictionMethodId } from './prediction-methods';
import { maximum } from './statistics';
import { describeAdvisorObserved, describeForecastObserved } from './vm-memo';

export interface SizingNeed {
  method: PredictionMethodId;
  // Busy vCPUs the new size must carry under `cpuThresholdPct` percent.
  cpuLoad: number;
  cpuThresholdPct: number;
  // Used GiB the new size must hold under `memoryThresholdPct` percent; null without memory data.
  memoryLoad: number | null;
  memoryThresholdPct: number;
  // The highest used GiB seen, which the new size must hold under the overload line (90%): memory
  // pages or kills rather than throttles. Absent for a method that does not ask it.
  memoryPeakLoad?: number | null;
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
    // Confidence falls to this share when the level is read from a single day since a drop, and
    // rises to 1 with a whole window.
    shortWindowConfidence: 0.5,
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
  const buckets = estimateBucketPeaks(demand.cpuVcpus, from, perBucket);
  const bucketMinutes = perBucket * demand.stepMinutes;
  const bucketsStartMs = demand.startMs + from * demand.stepMinutes * 60_000;
  const isUserFacing =
    measureDailyShare(buckets, bucketMinutes, bucketsStartMs) >= config.userFacingDailyShare;
  const cpuP95 = estimatePercentile(buckets, config.cpuQuantile);
  const memoryPeak = demand.memoryPeakGiB ? maximum(demand.memoryPeakGiB, from) : Number.NaN;
  const cpuThresholdPct = isUserFacing ? config.userFacingCpuThresholdPct : config.otherCpuThresholdPct;
  return {
    method: 'advisor-p95',
    cpuLoad: cpuP95,
    cpuThresholdPct,
    memoryLoad: Number.isNaN(memoryPeak) ? null : memoryPeak,
    memoryThresholdPct: isUserFacing ? config.userFacingMemoryThresholdPct : config.otherMemoryThresholdPct,
    observed: describeAdvisorObserved({
      lookbackDays: config.lookbackDays,
      cpuP95Vcpus: cpuP95,
      isUserFacing,
      cpuThresholdPct,
    }),
    confidence: measureCoverage(demand.cpuVcpus, from),
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
  // Memory is not throttled like CPU: a guest short of it pages or is killed. So besides the
  // forecast under the memory threshold, the highest memory the whole history saw (Advisor reads
  // memory at P100) must stay under the overload line: never a size its demand has overloaded.
  const memoryPeak = demand.memoryPeakGiB ? maximum(demand.memoryPeakGiB, 0, to) : Number.NaN;
  const days = to / stepsPerDay(demand);
  const historyShare = Math.min(1, days / config.fullConfidenceDays);
  const windowShare =
    config.shortWindowConfidence + ((1 - config.shortWindowConfidence) * cpu.days) / config.windowDays;
  return {
    method: 'cloudtrim-forecast',
    cpuLoad: cpu.level * cpu.margin,
    cpuThresholdPct: config.cpuThresholdPct,
    memoryLoad: memory ? memory.level * memory.margin : null,
    memoryThresholdPct: config.memoryThresholdPct,
    memoryPeakLoad: Number.isNaN(memoryPeak) ? null : memoryPeak,
    // The long memory for hysteresis: the same quantile over the whole lookback.
    steady: () => ({
      cpuLoad: estimatePercentile(cpuSeries, config.targetQuantile, 0, to) * cpu.margin,
      memoryLoad: demand.memoryPeakGiB
        ? estimatePercentile(demand.memoryPeakGiB, config.targetQuantile, 0, to) * memory!.margin
        : null,
    }),
    observed: describeForecastObserved({
      levelVcpus: cpu.level,
      days: cpu.days,
      windowDays: config.windowDays,
      isHourlyPeaks: cpuSeries === demand.cpuPeakVcpus,
      margin: cpu.margin,
    }),
    // Less sure with a short history, a wide margin, or a level read from only the days since a drop.
    confidence: measureCoverage(demand.cpuVcpus, 0, to) * historyShare * (1 / cpu.margin) * windowShare,
  };
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

// Read from sizingConfig at each forecast, so a backtest can check another value of a tunable
// (cross-validation) without a second copy of the method.
function readRegimeRule(): RegimeRule {
  return {
    dropRatio: sizingConfig.forecast.regimeDropRatio,
    minimumDays: sizingConfig.forecast.regimeMinimumDays,
    beforeDays: sizingConfig.forecast.regimeBeforeDays,
    windowDays: sizingConfig.forecast.windowDays,
  };
}

function readMarginRule(regime: RegimeRule): MarginRule {
  return {
    q: sizingConfig.forecast.targetQuantile,
    regime,
    firstOriginDays: sizingConfig.forecast.firstOriginDays,
    originEveryDays: sizingConfig.forecast.originEveryDays,
    judgeDays: sizingConfig.forecast.judgeDays,
    marginQuantile: sizingConfig.forecast.marginQuantile,
    maxMargin: sizingConfig.forecast.maxMargin,
    fullConfidenceDays: sizingConfig.forecast.fullConfidenceDays,
  };
}

// The forecast composed: the daily percentiles, the level over the regime window, the margin the
// same estimate learnt on the series' own past. Days are counted back from `to`, so the margin's
// rolling origins, whole days earlier, share them.
function forecastWithMargin(series: Float64Array, demand: Demand, to: number): Forecast {
  const perDay = stepsPerDay(demand);
  const q = sizingConfig.forecast.targetQuantile;
  const daily = estimateDailyPercentiles(series, q, perDay, to);
  const regimeRule = readRegimeRule();
  return {
    level: estimateWindowLevel(series, q, perDay, to, daily, regimeRule),
    margin: estimateLearntMargin(series, perDay, to, daily, readMarginRule(regimeRule)),
    days: estimateRegimeDays(daily, regimeRule),
  };
}

// The methods a VM may be sized by, composed of the estimators above, by id; backtest-pick replays
// each of them on the VM's own history.
export const sizingMethods = [
  { id: 'cloudtrim-forecast', size: (demand: Demand) => sizeByForecast(demand) },
  { id: 'advisor-p95', size: (demand: Demand) => sizeByAdvisorRule(demand) },
] as const;
