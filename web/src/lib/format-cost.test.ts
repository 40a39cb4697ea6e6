import { describe, expect, it } from 'vitest';
import {
  formatChangePercent,
  formatCompactCost,
  formatCost,
  getChangeDirection,
  getChangePercent,
} from './format-cost';

describe('formatCost', () => {
  it('writes dollars as the app does: $ prefix, thousands separators, 2 decimals', () => {
    expect(formatCost(1234567.891, 'USD')).toBe('$1,234,567.89');
    expect(formatCost(0, 'USD')).toBe('$0.00');
    expect(formatCost(-12.5, 'USD')).toBe('-$12.50');
  });

  it('writes the bill’s own currency', () => {
    expect(formatCost(1500, 'EUR')).toBe('€1,500.00');
    expect(formatCost(1500, 'XYZ1')).toBe('1,500.00 XYZ1');
  });

  it('abbreviates for a chart’s axis', () => {
    expect(formatCompactCost(1200, 'USD')).toBe('$1.2K');
    expect(formatCompactCost(35_000, 'USD')).toBe('$35K');
  });
});

describe('change', () => {
  it('is the change on the previous amount in percent, or none without one', () => {
    expect(getChangePercent(150, 100)).toBe(50);
    expect(getChangePercent(50, 200)).toBe(-75);
    expect(getChangePercent(10, 0)).toBeNull();
  });

  it('is written with its sign and one decimal, N/A without a previous amount', () => {
    expect(formatChangePercent(12.345)).toBe('+12.3%');
    expect(formatChangePercent(-4)).toBe('-4.0%');
    expect(formatChangePercent(0.04)).toBe('0.0%');
    expect(formatChangePercent(null)).toBe('N/A');
  });

  it('goes up or down as it reads: a rise rounded to nothing is flat', () => {
    expect(getChangeDirection(3)).toBe('up');
    expect(getChangeDirection(-0.2)).toBe('down');
    expect(getChangeDirection(0.04)).toBe('flat');
    expect(getChangeDirection(null)).toBe('none');
  });
});
