import type { CostPoint } from '@cloudtrim/contracts/costs';
import { compareText } from './cost-breakdown';
import { getBucketKey } from './cost-periods';

// The chart's stacks: the period's 8 costliest groups, each its own colour, and the rest as 'Other',
// so a bill of hundreds of groups still reads.
export const chartedGroupCount = 8;
export const otherGroupLabel = 'Other';

export interface StackedCostGroup {
  /** The wire's group, or null for 'Other'. */
  group: string | null;
  /** One per bucket, in the buckets' order. */
  values: number[];
}

export function buildStackedCostGroups(
  points: readonly CostPoint[],
  buckets: readonly string[],
  granularity: 'daily' | 'monthly',
  groupCount: number = chartedGroupCount,
): StackedCostGroup[] {
  const bucketIndex = new Map(buckets.map((bucket, index) => [bucket, index]));
  const valuesByGroup = new Map<string, number[]>();
  const totals = new Map<string, number>();
  for (const point of points) {
    const index = bucketIndex.get(getBucketKey(point.Date, granularity));
    if (index === undefined) continue;
    let values = valuesByGroup.get(point.Group);
    if (!values) {
      values = new Array<number>(buckets.length).fill(0);
      valuesByGroup.set(point.Group, values);
    }
    values[index]! += point.Cost;
    totals.set(point.Group, (totals.get(point.Group) ?? 0) + point.Cost);
  }

  const ranked = [...totals.entries()]
    .sort(([leftGroup, left], [rightGroup, right]) => right - left || compareText(leftGroup, rightGroup))
    .map(([group]) => group);
  const shown = ranked.slice(0, groupCount).map((group) => ({ group, values: valuesByGroup.get(group)! }));
  const rest = ranked.slice(groupCount);
  if (rest.length === 0) return shown;

  const otherValues = new Array<number>(buckets.length).fill(0);
  for (const group of rest) {
    valuesByGroup.get(group)!.forEach((value, index) => (otherValues[index]! += value));
  }
  return [...shown, { group: null, values: otherValues }];
}
