// One VM in, its proposals out: a resize to the cheapest size that carries the method's need, a
// shutdown when it idles, or a daily start/stop schedule when it idles at the same hours every day.
// Pure: the server and the backtest both call it with everything it needs.
import type {
  ActiveHours,
  EvidenceSeries,
  EvidenceThresholds,
  Proposal,
  SizeOption,
  VmAnalysis,
  VmAnalysisInput,
} from './analysis.types';
import { isBurstable } from './burstable-sizes';
import { createCreditJudge, creditConfig, hasMeasuredBankRunOut } from './credit-check';
import { describeBurstableTarget, describeRefusedBurstable, describeRunOutBank } from './credit-memo';
import { readDemand, stepsPerDay, type Demand } from './demand';
import { findIdleHours, isIdle } from './idle-detection';
import type { PredictionMethodId } from './prediction-methods';
import {
  carriesNeed,
  chooseSize,
  listCandidateSizes,
  needsDeallocation,
  type PricedSize,
} from './size-catalogue';
import { pickByBacktest } from './backtest-pick';
import { overloadThresholdPct } from './service-level';
import { sizingMethods, type SizingNeed } from './sizing-methods';
import { countPresent, maximum } from './statistics';
import {
  describeActiveHours,
  describeActiveHoursMemo,
  describeResize,
  describeMemoryDecided,
  describeResizeMemo,
  describeShutdown,
  describeShutdownMemo,
} from './vm-memo';
import { roundCents } from './money';
import { hoursPerYear } from './time';

export const minimumHistoryDays = 7;
// An idle VM is judged by Advisor's shutdown rule, not a forecast: its confidence is fixed.
const shutdownConfidence = 0.9;
const noResizeThresholds: EvidenceThresholds = { cpuPct: 100, memoryPct: 100 };
// The days an evidence chart shows: the last of the input's.
export const evidenceDays = 14;

export interface AnalyseOptions {
  method?: PredictionMethodId;
}

export function analyseVm(input: VmAnalysisInput, options: AnalyseOptions = {}): VmAnalysis {
  const method = options.method ?? 'cloudtrim-forecast';
  const current = input.sizes.find((size) => size.name === input.currentSize);
  const unjudged = (reason: string): VmAnalysis => ({
    vmId: input.vmId,
    predictionMethod: method,
    reason,
    isJudged: false,
    proposals: [],
  });
  if (!current) return unjudged(`${input.currentSize} is not in the size catalogue of ${input.region}.`);
  const currentPrice = input.prices.get(current.name);
  if (!currentPrice) return unjudged(`No price is known for ${current.name} in ${input.region}.`);
  const demand = readDemand(input, current);
  const days = countPresent(demand.cpuVcpus) / stepsPerDay(demand);
  if (days < minimumHistoryDays) {
    return unjudged(`Only ${days.toFixed(1)} days of CPU data; ${minimumHistoryDays} are needed.`);
  }
  const nothing = (reason: string): VmAnalysis => ({ ...unjudged(reason), isJudged: true });
  const context: ProposalContext = {
    input,
    current,
    currentPrice: currentPrice.hourlyPrice,
    demand,
    candidates: listCandidateSizes(input.sizes, input.prices, input.requirements),
  };

  if (isIdle(demand)) return { ...nothing(''), reason: null, proposals: [proposeShutdown(context, method)] };

  const methodNeed =
    method === 'backtest-pick'
      ? pickByBacktest(demand, context.candidates, current)
      : sizingMethods.find((candidate) => candidate.id === method)!.size(demand);
  // Every method's need goes through the same credits check: a burstable size's bank is physics,
  // not a method's judgement.
  const measured = input.cpuCreditsRemaining ? { remaining: input.cpuCreditsRemaining } : null;
  if (measured && isBurstable(current) && hasMeasuredBankRunOut(measured)) {
    return nothing(describeRunOutBank(current.name));
  }
  const need: SizingNeed = { ...methodNeed, credits: createCreditJudge(demand, current, measured) };
  const proposals: Proposal[] = [];
  const resize = proposeResize(context, need);
  if (resize) proposals.push(resize);
  if (!input.activeHours) {
    const schedule = proposeActiveHours(context, need.method, resize?.targetSize ?? null);
    if (schedule) proposals.push(schedule);
  }
  return {
    vmId: input.vmId,
    predictionMethod: need.method,
    isJudged: true,
    reason:
      proposals.length === 0 ? 'No cheaper size carries the load, and it idles at no fixed hours.' : null,
    proposals,
  };
}

interface ProposalContext {
  input: VmAnalysisInput;
  current: SizeOption;
  currentPrice: number;
  demand: Demand;
  candidates: readonly PricedSize[];
}

function runningHoursPerYear(input: VmAnalysisInput): number {
  if (input.activeHours) return activeHoursPerDay(input.activeHours) * 365;
  return hoursPerYear * Math.min(1, Math.max(0, input.runningShare));
}

export function activeHoursPerDay({ start, end }: ActiveHours): number {
  return start === end ? 24 : (end - start + 24) % 24;
}

function proposeResize(context: ProposalContext, need: SizingNeed): Proposal | null {
  const { input, current, currentPrice, candidates } = context;
  const target = chooseSize(candidates, need, input.currentSize, input.previousTargetSize ?? null);
  if (!target || target.name === current.name || target.price.hourlyPrice >= currentPrice) return null;
  const annualCostSavings = roundCents(
    (currentPrice - target.price.hourlyPrice) * runningHoursPerYear(input),
  );
  const projectedCpuPct = (need.cpuLoad / target.vcpus) * 100;
  const projectedMemoryPct = need.memoryLoad === null ? null : (need.memoryLoad / target.memoryGiB) * 100;
  const burstable = isBurstable(target) ? need.credits?.judge(target) : null;
  const credits = burstable
    ? describeBurstableTarget({
        size: target.name,
        vcpus: target.vcpus,
        verdict: burstable,
        historyDays: Math.round(context.demand.steps / stepsPerDay(context.demand)),
        horizonDays: creditConfig.horizonDays,
      })
    : describeRefusedCheaper(context, need, target);
  const memory = describeMemoryDecision(context, need, target);
  const memo = describeResizeMemo({
    observed: need.observed,
    targetSize: target.name,
    projectedCpuPct,
    projectedMemoryPct,
    cpuThresholdPct: need.cpuThresholdPct,
    targetHourly: target.price.hourlyPrice,
    currentHourly: currentPrice,
    priceSource: target.price.source,
    priceReadAt: target.price.readAt,
    confidence: need.confidence,
    credits: credits + memory,
    restart: {
      isDeallocation: needsDeallocation(current, target),
      targetFamily: target.family,
      currentSize: current.name,
    },
  });
  return {
    kind: 'resize',
    predictionMethod: need.method,
    currentSize: current.name,
    targetSize: target.name,
    activeHours: null,
    recommendation: describeResize(input.vmId, current.name, target.name),
    memo,
    annualCostSavings,
    confidence: need.confidence,
    thresholds: { cpuPct: need.cpuThresholdPct, memoryPct: need.memoryThresholdPct },
  };
}

// The cheapest burstable size below the target that carried the peaks but not on its credits, if any.
function describeRefusedCheaper(context: ProposalContext, need: SizingNeed, target: PricedSize): string {
  const withoutCredits: SizingNeed = { ...need, credits: undefined };
  for (const size of context.candidates) {
    if (size.price.hourlyPrice >= target.price.hourlyPrice) break;
    if (!isBurstable(size) || !carriesNeed(size, withoutCredits)) continue;
    const verdict = need.credits?.judge(size);
    if (verdict && !verdict.fits) return describeRefusedBurstable(verdict);
  }
  return '';
}

// Whether memory, not CPU, chose the size: the cheapest size below the target that carries the need
// with memory left out; the memo names the bound its memory breaks (the highest reading seen over
// the overload line, else the forecast over the memory threshold).
function describeMemoryDecision(context: ProposalContext, need: SizingNeed, target: PricedSize): string {
  if (need.memoryLoad === null && need.memoryPeakLoad == null) return '';
  const cpuOnly: SizingNeed = { ...need, memoryLoad: null, memoryPeakLoad: null };
  const cheaper = context.candidates.find(
    (size) => size.price.hourlyPrice < target.price.hourlyPrice && carriesNeed(size, cpuOnly),
  );
  if (!cheaper) return '';
  const peak = need.memoryPeakLoad ?? null;
  const isPeak = peak !== null && peak > (cheaper.memoryGiB * overloadThresholdPct) / 100;
  return describeMemoryDecided({
    cheaperSize: cheaper.name,
    cheaperMemoryGiB: cheaper.memoryGiB,
    isPeak,
    memoryGiB: isPeak ? peak : (need.memoryLoad ?? 0),
    limitPct: isPeak ? overloadThresholdPct : need.memoryThresholdPct,
  });
}

function proposeShutdown(context: ProposalContext, method: PredictionMethodId): Proposal {
  const { input, current, currentPrice, demand } = context;
  const peakCpuPct = (maximum(demand.cpuPeakVcpus) / current.vcpus) * 100;
  const price = input.prices.get(current.name)!;
  return {
    kind: 'shutdown',
    predictionMethod: method,
    currentSize: current.name,
    targetSize: null,
    activeHours: null,
    recommendation: describeShutdown(input.vmId),
    memo: describeShutdownMemo({
      peakCpuPct,
      days: demand.steps / stepsPerDay(demand),
      currentSize: current.name,
      currentHourly: currentPrice,
      priceSource: price.source,
      priceReadAt: price.readAt,
      confidence: shutdownConfidence,
    }),
    annualCostSavings: roundCents(currentPrice * runningHoursPerYear(input)),
    confidence: shutdownConfidence,
    thresholds: noResizeThresholds,
  };
}

function proposeActiveHours(
  context: ProposalContext,
  method: PredictionMethodId,
  targetSize: string | null,
): Proposal | null {
  const { input, current, candidates, demand } = context;
  const idle = findIdleHours(demand);
  if (!idle) return null;
  // Start when the idle window ends, stop when it begins.
  const schedule: ActiveHours = { start: idle.end, end: idle.start };
  const offHours = 24 - activeHoursPerDay(schedule);
  const size = candidates.find((candidate) => candidate.name === targetSize) ?? current;
  const hourly = input.prices.get(size.name)?.hourlyPrice ?? context.currentPrice;
  return {
    kind: 'activeHours',
    predictionMethod: method,
    currentSize: current.name,
    targetSize: null,
    activeHours: schedule,
    recommendation: describeActiveHours(input.vmId, schedule, offHours),
    memo: describeActiveHoursMemo({ idle, offHours, hourly }),
    annualCostSavings: roundCents(offHours * 365 * hourly),
    confidence: idle.share,
    thresholds: noResizeThresholds,
  };
}

// A proposal's evidence chart: hourly CPU (and memory) percent over the input's last 14 days on the
// current size, and as it would read on the target. Built when someone opens the chart rather than
// with every proposal: most are never opened, and each would be two series of 336 hours to keep.
export function buildEvidence(
  input: Pick<VmAnalysisInput, 'currentSize' | 'sizes' | 'cpu' | 'memoryUsedGiB' | 'network'>,
  targetSize: string | null,
  thresholds: EvidenceThresholds,
): EvidenceSeries[] {
  const current = input.sizes.find((size) => size.name === input.currentSize);
  if (!current) return [];
  const target = targetSize === null ? null : (input.sizes.find((size) => size.name === targetSize) ?? null);
  const demand = readDemand(input, current);
  const perHour = Math.max(1, Math.round(60 / demand.stepMinutes));
  const firstStep = Math.max(0, demand.steps - evidenceDays * 24 * perHour);
  const series = (values: Float64Array, currentCapacity: number, targetCapacity: number | null) => {
    const points = [];
    for (let step = firstStep; step < demand.steps; step += perHour) {
      const hourPeak = maximum(values, step, Math.min(demand.steps, step + perHour));
      const isMissing = Number.isNaN(hourPeak);
      points.push({
        time: demand.startMs + step * demand.stepMinutes * 60_000,
        current: isMissing ? null : roundTenth((hourPeak / currentCapacity) * 100),
        projected:
          isMissing || targetCapacity === null ? null : roundTenth((hourPeak / targetCapacity) * 100),
      });
    }
    return points;
  };
  const evidence: EvidenceSeries[] = [
    {
      metric: 'CPU',
      threshold: thresholds.cpuPct,
      points: series(demand.cpuVcpus, current.vcpus, target?.vcpus ?? null),
    },
  ];
  if (demand.memoryGiB) {
    evidence.push({
      metric: 'Memory',
      threshold: thresholds.memoryPct,
      points: series(demand.memoryGiB, current.memoryGiB, target?.memoryGiB ?? null),
    });
  }
  return evidence;
}

function roundTenth(value: number): number {
  return Math.round(value * 10) / 10;
}
