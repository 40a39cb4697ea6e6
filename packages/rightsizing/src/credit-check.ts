// The credits estimator: whether a burstable size holds a VM's demand without being throttled. Its
// bank is replayed over the history and over the forecast fortnight (the last week recurring), each
// from the credits a resize starts with, with the demand grown by the VM's own worst week-over-week
// growth; and the busiest day of the last week, grown alike, must stay under the base, so the bank
// gains day over day. That refuses a day above the base even when the bank would pay for it: such a
// day may as well be the start of a new level (the traces' throttled VMs were those whose daily
// demand crept over the base after the history ended), and the rollback guard, which waits for two
// hot hours in a row, does not see a VM throttled now and then.
import { isBurstable, readCreditTerms } from './burstable-sizes';
import { emptyBankCredits, runCredits, type CreditTerms } from './cpu-credits';
import type { MetricSeries, SizeOption } from './analysis.types';
import { stepsPerDay, type Demand } from './demand';
import { maximum, mean } from './statistics';

export const creditConfig = {
  // The forecast: the last week (one whole weekly cycle) recurring over the next 14 days.
  windowDays: 7,
  horizonDays: 14,
  // Growth: at every day from the 7th, the busiest day of the week after it (up to the history's
  // end) over the busiest of the week before. The worst ratio is the margin: a bank that runs out
  // stays out, so a creeping load must be met by the largest rise it has shown, not a typical one.
  growthBeforeDays: 7,
  growthAfterDays: 7,
  // Too short a history to show its growth: this margin, narrowing to none at 14 days.
  fallbackGrowth: 1.5,
  fullHistoryDays: 14,
};

export type CreditShortfall = 'throttled' | 'drains' | 'unknown';

export interface CreditVerdict {
  size: string;
  // Null when the size is burstable but neither the catalogue nor Azure's table gives its figures.
  terms: CreditTerms | null;
  fits: boolean;
  // Why it does not fit: a replay ran out of credits, the busiest day outruns the base, or no figures.
  shortfall: CreditShortfall | null;
  // The lowest the bank went in either replay, and the bank they started from.
  lowestBank: number;
  startBank: number;
  // The growth the demand was replayed with (≥ 1), and the busiest day's mean vCPUs after it.
  growth: number;
  busiestDayVcpus: number;
  // True when the start and the history's lowest are the VM's own bank as Azure Monitor reported it.
  isMeasured: boolean;
}

export interface CreditJudge {
  // Null for a size that is not burstable. `headroom` (0..1) asks for the demand to fit that much
  // under the base too: the hysteresis band a later proposal moves down by (size-catalogue.ts).
  judge(size: SizeOption, headroom?: number): CreditVerdict | null;
}

// The VM's bank as Azure Monitor reported it (CPU Credits Remaining), used for the size it runs on:
// a resize starts a new bank, so no other size's replay can use it.
export interface MeasuredCredits {
  remaining: MetricSeries;
}

export function createCreditJudge(
  demand: Demand,
  current: SizeOption,
  measured: MeasuredCredits | null = null,
): CreditJudge {
  const verdicts = new Map<string, CreditVerdict | null>();
  let daily: DailyDemand | null = null;
  return {
    judge(size, headroom = 0) {
      if (!isBurstable(size)) return null;
      const key = `${size.name}|${headroom}`;
      let verdict = verdicts.get(key);
      if (verdict === undefined) {
        daily ??= measureDailyDemand(demand);
        const measuredBank = size.name === current.name ? measured : null;
        verdict = judgeSize(demand, daily, size, measuredBank, 1 / (1 - headroom));
        verdicts.set(key, verdict);
      }
      return verdict;
    },
  };
}

interface DailyDemand {
  growth: number;
  busiestDayVcpus: number;
}

function judgeSize(
  demand: Demand,
  daily: DailyDemand,
  size: SizeOption,
  measured: MeasuredCredits | null,
  band: number,
): CreditVerdict {
  const terms = readCreditTerms(size);
  const growth = daily.growth * band;
  const busiestDayVcpus = daily.busiestDayVcpus * growth;
  if (!terms) {
    return {
      size: size.name,
      terms,
      fits: false,
      shortfall: 'unknown',
      lowestBank: 0,
      startBank: 0,
      growth,
      busiestDayVcpus,
      isMeasured: false,
    };
  }
  const real = measured ? readMeasuredBank(measured.remaining) : null;
  const startBank = real?.last ?? terms.initialCredits;
  const history = real
    ? { lowestBank: real.lowest, throttledSteps: real.lowest < emptyBankCredits ? 1 : 0 }
    : runCredits(demand.cpuVcpus, size.vcpus, terms, demand.stepMinutes, terms.initialCredits, growth);
  const forecast = replayForecast(demand, size, terms, startBank, growth);
  const lowestBank = Math.min(history.lowestBank, forecast.lowestBank);
  const shortfall: CreditShortfall | null =
    history.throttledSteps > 0 || forecast.throttledSteps > 0
      ? 'throttled'
      : busiestDayVcpus > terms.baseVcpus
        ? 'drains'
        : null;
  return {
    size: size.name,
    terms,
    fits: shortfall === null,
    shortfall,
    lowestBank,
    startBank,
    growth,
    busiestDayVcpus,
    isMeasured: real !== null,
  };
}

// The last week recurring until the horizon is filled, the bank carried from one week to the next.
function replayForecast(
  demand: Demand,
  size: SizeOption,
  terms: CreditTerms,
  startBank: number,
  growth: number,
): { lowestBank: number; throttledSteps: number } {
  const perDay = stepsPerDay(demand);
  const from = Math.max(0, demand.steps - creditConfig.windowDays * perDay);
  const windowSteps = demand.steps - from;
  let bank = startBank;
  let lowestBank = startBank;
  let throttledSteps = 0;
  for (let done = 0; done < creditConfig.horizonDays * perDay && windowSteps > 0; done += windowSteps) {
    const to = Math.min(demand.steps, from + creditConfig.horizonDays * perDay - done);
    const run = runCredits(demand.cpuVcpus, size.vcpus, terms, demand.stepMinutes, bank, growth, from, to);
    bank = run.endBank;
    lowestBank = Math.min(lowestBank, run.lowestBank);
    throttledSteps += run.throttledSteps;
  }
  return { lowestBank, throttledSteps };
}

// Each whole day's mean busy vCPUs, the last day ending with the history; the busiest of the last
// week, and the worst growth of a week's busiest day over the week before it.
function measureDailyDemand(demand: Demand): DailyDemand {
  const perDay = stepsPerDay(demand);
  const days = Math.floor(demand.steps / perDay);
  const means = new Float64Array(days);
  for (let day = 0; day < days; day += 1) {
    const dayEnd = demand.steps - (days - 1 - day) * perDay;
    means[day] = mean(demand.cpuVcpus, dayEnd - perDay, dayEnd);
  }
  const busiestDayVcpus = maximum(means, Math.max(0, days - creditConfig.windowDays));
  let growth = Number.NaN;
  for (let origin = creditConfig.growthBeforeDays; origin < days; origin += 1) {
    const before = maximum(means, origin - creditConfig.growthBeforeDays, origin);
    const after = maximum(means, origin, Math.min(days, origin + creditConfig.growthAfterDays));
    if (before > 0 && !Number.isNaN(after) && !(after / before <= growth)) growth = after / before;
  }
  const fallback =
    1 + (creditConfig.fallbackGrowth - 1) * Math.max(0, 1 - days / creditConfig.fullHistoryDays);
  return {
    growth: Number.isNaN(growth) ? Math.max(1, fallback) : Math.max(1, growth),
    busiestDayVcpus: Number.isNaN(busiestDayVcpus) ? 0 : busiestDayVcpus,
  };
}

// True when the bank Azure Monitor reported went empty: the VM was held to its base then, so its CPU
// readings show less than it wanted to run.
export function hasMeasuredBankRunOut(measured: MeasuredCredits): boolean {
  const bank = readMeasuredBank(measured.remaining);
  return bank !== null && bank.lowest < emptyBankCredits;
}

function readMeasuredBank(remaining: MetricSeries): { lowest: number; last: number } | null {
  let lowest = Number.NaN;
  let last = Number.NaN;
  for (const value of remaining.average) {
    if (Number.isNaN(value)) continue;
    if (!(value >= lowest)) lowest = value;
    last = value;
  }
  return Number.isNaN(last) ? null : { lowest, last };
}
