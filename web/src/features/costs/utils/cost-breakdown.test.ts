import { describe, expect, it } from 'vitest';
import type { CostPoint } from '@cloudtrim/contracts/costs';
import { buildCostBreakdown, selectTopRows } from './cost-breakdown';

const point = (Group: string, Cost: number, Date = '2026-03-01'): CostPoint => ({ Date, Group, Cost });

describe('buildCostBreakdown', () => {
  it('lists every group of either period, costliest first, with its change in percent', () => {
    const rows = buildCostBreakdown(
      [point('Storage', 50), point('Virtual Machines', 300), point('Bandwidth', 5)],
      [point('Virtual Machines', 200), point('Storage', 100), point('Backup', 40)],
    );
    expect(rows).toEqual([
      { group: 'Virtual Machines', cost: 300, previousCost: 200, change: 50 },
      { group: 'Storage', cost: 50, previousCost: 100, change: -50 },
      { group: 'Bandwidth', cost: 5, previousCost: 0, change: null },
      { group: 'Backup', cost: 0, previousCost: 40, change: -100 },
    ]);
  });

  it('adds up a group answered in several rows, so both columns sum to their periods’ totals', () => {
    const current = [point('a', 1.25, '2026-03-01'), point('a', 2.5, '2026-03-02'), point('b', 4)];
    const previous = [point('b', 3), point('c', 0.75)];
    const rows = buildCostBreakdown(current, previous);
    expect(rows.find((row) => row.group === 'a')?.cost).toBe(3.75);
    expect(rows.reduce((sum, row) => sum + row.cost, 0)).toBe(7.75);
    expect(rows.reduce((sum, row) => sum + row.previousCost, 0)).toBe(3.75);
  });

  it('orders equal costs by the previous period, then by name', () => {
    const rows = buildCostBreakdown([point('b', 1), point('a', 1), point('c', 1)], [point('c', 2)]);
    expect(rows.map((row) => row.group)).toEqual(['c', 'a', 'b']);
  });
});

describe('selectTopRows', () => {
  it('keeps the costliest of this period, leaving out what costs nothing now', () => {
    const rows = buildCostBreakdown(
      Array.from({ length: 12 }, (_, index) => point(`vm-${index}`, index + 1)),
      [point('gone', 500)],
    );
    const top = selectTopRows(rows, 10);
    expect(top.map((row) => row.group)).toEqual([
      'vm-11',
      'vm-10',
      'vm-9',
      'vm-8',
      'vm-7',
      'vm-6',
      'vm-5',
      'vm-4',
      'vm-3',
      'vm-2',
    ]);
  });
});
