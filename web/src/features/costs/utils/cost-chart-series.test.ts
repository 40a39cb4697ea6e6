import { describe, expect, it } from 'vitest';
import type { CostPoint } from '@cloudtrim/contracts/costs';
import { buildStackedCostGroups } from './cost-chart-series';

const days = ['2026-03-01', '2026-03-02', '2026-03-03'];

describe('buildStackedCostGroups', () => {
  it('stacks the 8 costliest groups by name and the rest as Other, keeping every day’s total', () => {
    // Group g0 costs 1 a day, g1 2 a day, … g10 11 a day: g10 to g3 are the 8 costliest.
    const points: CostPoint[] = Array.from({ length: 11 }, (_, group) =>
      days.map((Date) => ({ Date, Group: `g${group}`, Cost: group + 1 })),
    ).flat();
    const stacks = buildStackedCostGroups(points, days, 'daily');
    expect(stacks.map((stack) => stack.group)).toEqual([
      'g10',
      'g9',
      'g8',
      'g7',
      'g6',
      'g5',
      'g4',
      'g3',
      null,
    ]);
    expect(stacks.at(-1)!.values).toEqual([6, 6, 6]);
    const dayTotals = days.map((_, index) => stacks.reduce((sum, stack) => sum + stack.values[index]!, 0));
    expect(dayTotals).toEqual([66, 66, 66]);
  });

  it('has no Other when 8 groups or fewer cost anything, and fills a day without cost with 0', () => {
    const stacks = buildStackedCostGroups(
      [
        { Date: '2026-03-01', Group: 'Storage', Cost: 2 },
        { Date: '2026-03-03', Group: 'Storage', Cost: 3 },
        { Date: '2026-03-03', Group: 'Virtual Machines', Cost: 10 },
      ],
      days,
      'daily',
    );
    expect(stacks).toEqual([
      { group: 'Virtual Machines', values: [0, 0, 10] },
      { group: 'Storage', values: [2, 0, 3] },
    ]);
  });

  it('ranks by the whole period, not by one day', () => {
    const stacks = buildStackedCostGroups(
      [
        { Date: '2026-03-01', Group: 'spike', Cost: 9 },
        { Date: '2026-03-01', Group: 'steady', Cost: 4 },
        { Date: '2026-03-02', Group: 'steady', Cost: 4 },
        { Date: '2026-03-03', Group: 'steady', Cost: 4 },
      ],
      days,
      'daily',
      1,
    );
    expect(stacks).toEqual([
      { group: 'steady', values: [4, 4, 4] },
      { group: null, values: [9, 0, 0] },
    ]);
  });

  it('puts monthly points in their month', () => {
    const months = ['2026-01-01', '2026-02-01'];
    const stacks = buildStackedCostGroups(
      [
        { Date: '2026-01-01', Group: 'a', Cost: 31 },
        { Date: '2026-02-01', Group: 'a', Cost: 28 },
      ],
      months,
      'monthly',
    );
    expect(stacks).toEqual([{ group: 'a', values: [31, 28] }]);
  });
});
