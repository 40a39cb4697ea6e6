import type { CostPoint } from '@cloudtrim/contracts/costs';
import { getChangePercent } from '../../../lib/format-cost';

// The table under the chart: each group's cost in the period against the period before.

export interface CostBreakdownRow {
  group: string;
  cost: number;
  previousCost: number;
  /** Percent; null when the group cost nothing before. */
  change: number | null;
}

/**
 * Ties are put in a fixed order by code point: String.localeCompare builds a collator each call, and
 * hundreds of resources of one size, costing the same, made it milliseconds of the first paint.
 */
export function compareText(left: string, right: string): number {
  if (left === right) return 0;
  return left < right ? -1 : 1;
}

function sumByGroup(points: readonly CostPoint[]): Map<string, number> {
  const sums = new Map<string, number>();
  for (const point of points) sums.set(point.Group, (sums.get(point.Group) ?? 0) + point.Cost);
  return sums;
}

/**
 * Every group of either period, costliest first; a group the previous period had and this one has not
 * is listed at 0, so both columns add up to their periods' totals.
 */
export function buildCostBreakdown(
  current: readonly CostPoint[],
  previous: readonly CostPoint[],
): CostBreakdownRow[] {
  const currentSums = sumByGroup(current);
  const previousSums = sumByGroup(previous);
  const groups = new Set([...currentSums.keys(), ...previousSums.keys()]);
  return [...groups]
    .map((group) => {
      const cost = currentSums.get(group) ?? 0;
      const previousCost = previousSums.get(group) ?? 0;
      return { group, cost, previousCost, change: getChangePercent(cost, previousCost) };
    })
    .sort(
      (left, right) =>
        right.cost - left.cost ||
        right.previousCost - left.previousCost ||
        compareText(left.group, right.group),
    );
}

/** The `count` costliest groups of this period (a group that cost nothing now is not among them). */
export function selectTopRows(rows: readonly CostBreakdownRow[], count: number): CostBreakdownRow[] {
  return rows.filter((row) => row.cost > 0).slice(0, count);
}
