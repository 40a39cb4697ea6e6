import { describe, expect, it } from 'vitest';
import {
  findBarIndex,
  getBandedTotals,
  getBarChartScale,
  getLabelStride,
  getRoundStep,
  getStackTotals,
} from './stacked-bar-chart-layout';

describe('stacked bar chart layout', () => {
  it('tops the scale at 1.2 times the highest stack, with gridlines a round step apart', () => {
    expect(getBarChartScale([40, 100, 70])).toEqual({ max: 120, ticks: [0, 50, 100] });
    expect(getBarChartScale([0.3])).toEqual({ max: 0.36, ticks: [0, 0.1, 0.2, 0.3] });
    expect(getBarChartScale([])).toEqual({ max: 1, ticks: [0, 0.25, 0.5, 0.75, 1] });
  });

  it('rounds a step up to 1, 2, 2.5 or 5 times a power of ten', () => {
    expect(getRoundStep(30)).toBe(50);
    expect(getRoundStep(0.07)).toBe(0.1);
    expect(getRoundStep(2.2)).toBe(2.5);
    expect(getRoundStep(1000)).toBe(1000);
  });

  it('stacks each bucket’s values, a credit counting as nothing', () => {
    expect(getStackTotals([{ values: [1, 2, 3] }, { values: [4, -5, 6] }], 3)).toEqual([5, 2, 9]);
  });

  it('writes every label that fits, else every second, third…', () => {
    expect(getLabelStride(12, 600, 40)).toBe(1);
    expect(getLabelStride(90, 600, 40)).toBe(6);
  });

  it('finds the bar under the pointer, none outside the plot', () => {
    expect(findBarIndex(50, 50, 300, 30)).toBe(0);
    expect(findBarIndex(349.9, 50, 300, 30)).toBe(29);
    expect(findBarIndex(49, 50, 300, 30)).toBeNull();
    expect(findBarIndex(350, 50, 300, 30)).toBeNull();
  });

  it('raises the scale to a forecast range above the bars', () => {
    const points = [null, { expected: 8, low: 6, high: 12 }, { expected: 3, low: 1, high: 4 }];
    expect(getBandedTotals([5, 2, 9], points)).toEqual([5, 12, 9]);
    expect(getBandedTotals([5, 2], [])).toEqual([5, 2]);
  });
});
