import { describe, expect, it } from 'vitest';
import { formatChartValue, getChartYMax } from './chart-format';

describe('getChartYMax', () => {
  it('reaches 1.2 times the highest value', () => {
    expect(getChartYMax([10, 50, 20])).toBeCloseTo(60);
    expect(getChartYMax([2_500_000])).toBeCloseTo(3_000_000);
  });

  it('keeps a visible axis for a flat or empty series', () => {
    expect(getChartYMax([0, 0])).toBe(1);
    expect(getChartYMax([])).toBe(1);
  });
});

describe('formatChartValue', () => {
  it('abbreviates a million or more with M', () => {
    expect(formatChartValue(1_000_000)).toBe('1M');
    expect(formatChartValue(2_450_000)).toBe('2.5M');
    expect(formatChartValue(3_200_000_000)).toBe('3,200M');
  });

  it('writes smaller values in full', () => {
    expect(formatChartValue(999_999)).toBe('999,999');
    expect(formatChartValue(12.345)).toBe('12.35');
    expect(formatChartValue(0)).toBe('0');
  });

  it('appends the suffix', () => {
    expect(formatChartValue(42.5, '%')).toBe('42.5%');
  });

  it('writes nothing for a missing value', () => {
    expect(formatChartValue(null)).toBe('');
    expect(formatChartValue(Number.NaN)).toBe('');
  });
});
