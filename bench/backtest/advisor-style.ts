// The Advisor-style baseline of ../shared/backtest-memory (issue 28): over the last week, the cheapest
// size on which the 5-minute P95 of CPU stays at or under 40% of its vCPUs and the P95 of memory at
// or under 60% of its memory (Advisor's published targets for user-facing workloads). A B size also
// needs the week's highest CPU at or under its base: a B-series VM runs at most its base once its
// bank is empty, and one that never went above it never drew on its credits. The size it has when
// nothing cheaper passes.
import type { SizeOption, SizePrice } from '@cloudtrim/rightsizing/analysis.types';

export const advisorStyleRule = { lookbackDays: 7, quantile: 0.95, cpuPct: 40, memoryPct: 60 };

export function decideAdvisorStyle(
  current: SizeOption,
  sizes: readonly SizeOption[],
  prices: ReadonlyMap<string, SizePrice>,
  // Busy vCPUs and used GiB (null without memory) over the history, one reading a step.
  cpuVcpus: Float64Array,
  memoryGiB: Float64Array | null,
  stepsPerDay: number,
): string {
  const from = Math.max(0, cpuVcpus.length - advisorStyleRule.lookbackDays * stepsPerDay);
  const cpu = [...cpuVcpus.subarray(from)].filter((value) => !Number.isNaN(value));
  const cpuP95 = readQuantile(cpu, advisorStyleRule.quantile);
  const cpuPeak = Math.max(...cpu);
  const memory = memoryGiB ? [...memoryGiB.subarray(from)].filter((value) => !Number.isNaN(value)) : [];
  const memoryP95 = memory.length === 0 ? null : readQuantile(memory, advisorStyleRule.quantile);
  const hourly = (size: SizeOption) => prices.get(size.name)?.hourlyPrice ?? Number.POSITIVE_INFINITY;
  const passing = sizes
    .filter(
      (size) =>
        cpuP95 <= (size.vcpus * advisorStyleRule.cpuPct) / 100 &&
        (memoryP95 === null || memoryP95 <= (size.memoryGiB * advisorStyleRule.memoryPct) / 100) &&
        (!size.credits || cpuPeak <= size.credits.baseVcpus),
    )
    .sort((left, right) => hourly(left) - hourly(right));
  const cheapest = passing[0];
  return cheapest && hourly(cheapest) < hourly(current) ? cheapest.name : current.name;
}

// Nearest rank: the smallest reading at or above the share `q` of them.
function readQuantile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
}
