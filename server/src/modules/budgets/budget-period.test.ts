import { describe, expect, it } from 'vitest';
import { findBudgetSpan } from './budget-period';

describe('a budget period', () => {
  it('is the month, quarter or year from the start date that holds today', () => {
    expect(findBudgetSpan('monthly', '2026-01-01', '2026-11-24')).toEqual({
      from: '2026-11-01',
      to: '2026-11-30',
    });
    expect(findBudgetSpan('monthly', '2026-01-01', '2026-02-28')).toEqual({
      from: '2026-02-01',
      to: '2026-02-28',
    });
    expect(findBudgetSpan('quarterly', '2026-02-01', '2026-11-24')).toEqual({
      from: '2026-11-01',
      to: '2027-01-31',
    });
    expect(findBudgetSpan('quarterly', '2026-01-01', '2026-12-31')).toEqual({
      from: '2026-10-01',
      to: '2026-12-31',
    });
    expect(findBudgetSpan('yearly', '2025-07-01', '2026-11-24')).toEqual({
      from: '2026-07-01',
      to: '2027-06-30',
    });
    expect(findBudgetSpan('yearly', '2026-01-01', '2026-01-01')).toEqual({
      from: '2026-01-01',
      to: '2026-12-31',
    });
  });

  it('is the first period while the start date is still ahead', () => {
    expect(findBudgetSpan('quarterly', '2027-01-01', '2026-11-24')).toEqual({
      from: '2027-01-01',
      to: '2027-03-31',
    });
  });
});
