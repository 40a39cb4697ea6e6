// The per-VM pick: replay the VM's own history, fitting each method on its first part and judging
// it on the rest with the backtest's rule (scaled 5-minute averages above 90% are overloaded; at
// most 0.5% of steps may be), then size with the method that would have saved most within it.
import { overloadThresholdPct, oracleOverloadShare } from './service-level';
import { readCreditTerms } from './burstable-sizes';
import { stepCredits } from './cpu-credits';
import { createCreditJudge } from './credit-check';
import type { Demand } from './demand';
import { stepsPerDay } from './demand';
import type { SizeOption } from './analysis.types';
import { chooseSize, type PricedSize } from './size-catalogue';
import { readServiceCpu, sizingConfig, sizingMethods, type SizingNeed } from './sizing-methods';
import { describePickObserved } from './vm-memo';

// Every other method, each replayed on the VM's own history.
const contenders = sizingMethods;

export function pickByBacktest(
  demand: Demand,
  candidates: readonly PricedSize[],
  current: SizeOption,
): SizingNeed {
  const perDay = stepsPerDay(demand);
  const fitSteps = Math.max(7 * perDay, Math.round(demand.steps * sizingConfig.pick.fitShare));
  const serviceCpu = readServiceCpu(demand);
  const judged = contenders.map((contender) => {
    if (fitSteps >= demand.steps) return { contender, overloadShare: 0, hourly: Number.POSITIVE_INFINITY };
    const fitDemand = truncateDemand(demand, fitSteps);
    const need = { ...contender.size(fitDemand), credits: createCreditJudge(fitDemand, current) };
    const size = chooseSize(candidates, need, current.name) ?? current;
    // A burstable size is judged on its credits too, its bank started by the resize.
    const terms = size.name === current.name ? null : readCreditTerms(size);
    let bank = terms?.initialCredits ?? 0;
    let overloaded = 0;
    let steps = 0;
    for (let step = fitSteps; step < demand.steps; step += 1) {
      const busy = serviceCpu[step]!;
      if (Number.isNaN(busy)) continue;
      steps += 1;
      const average = demand.cpuVcpus[step]!;
      if (terms && !Number.isNaN(average)) {
        const credit = stepCredits(bank, average, size.vcpus, terms, demand.stepMinutes);
        bank = credit.bank;
        if (credit.isThrottled) {
          overloaded += 1;
          continue;
        }
      }
      if ((busy / size.vcpus) * 100 > overloadThresholdPct) overloaded += 1;
    }
    const hourly = candidates.find((candidate) => candidate.name === size.name)?.price.hourlyPrice;
    return {
      contender,
      overloadShare: steps === 0 ? 0 : overloaded / steps,
      hourly: hourly ?? Number.POSITIVE_INFINITY,
    };
  });
  const safe = judged.filter((result) => result.overloadShare <= oracleOverloadShare);
  const winner = (safe.length > 0 ? safe : judged).sort(
    (left, right) =>
      (safe.length > 0 ? left.hourly - right.hourly : left.overloadShare - right.overloadShare) ||
      left.overloadShare - right.overloadShare,
  )[0]!;
  const need = winner.contender.size(demand);
  return {
    ...need,
    method: 'backtest-pick',
    observed: describePickObserved({
      observed: need.observed,
      winner: winner.contender.id,
      overloadShare: winner.overloadShare,
      overloadThresholdPct,
    }),
  };
}

export function truncateDemand(demand: Demand, steps: number): Demand {
  const cut = <T extends Float64Array | null>(series: T): T =>
    series ? (series.subarray(0, steps) as T) : series;
  return {
    ...demand,
    steps,
    cpuVcpus: cut(demand.cpuVcpus),
    cpuPeakVcpus: cut(demand.cpuPeakVcpus),
    memoryGiB: cut(demand.memoryGiB),
    memoryPeakGiB: cut(demand.memoryPeakGiB),
    networkBytes: cut(demand.networkBytes),
  };
}
