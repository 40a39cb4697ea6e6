import { describe, expect, it } from 'vitest';
import { fitSlope, median } from './cost-series';

// The median as sorting tells it, to check the selection against.
function sortedMedian(values: number[]): number {
  const sorted = [...values].sort((first, second) => first - second);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

describe('median', () => {
  it('is the middle value, or the mean of the two middle ones, and 0 of nothing', () => {
    expect(median([])).toBe(0);
    expect(median([7])).toBe(7);
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([5, 5, 5, 1])).toBe(5);
  });

  it('agrees with sorting on series with ties, runs and negative values', () => {
    let seed = 7;
    const random = () => ((seed = (seed * 48_271) % 2_147_483_647) / 2_147_483_647) * 2 - 1;
    for (let length = 1; length <= 300; length += 7) {
      const values = Array.from({ length }, (_, index) =>
        index % 5 === 0 ? 1 : index % 3 === 0 ? -index : Math.round(random() * 100) / 4,
      );
      expect(median(values)).toBe(sortedMedian(values));
      expect(median(values.toSorted((first, second) => second - first))).toBe(sortedMedian(values));
    }
  });

  it('leaves its input as it was', () => {
    const values = [3, 1, 2, 5, 4];
    median(values);
    expect(values).toEqual([3, 1, 2, 5, 4]);
  });
});

describe('fitSlope', () => {
  it('reads the trend through a few odd days', () => {
    const days = Array.from({ length: 30 }, (_, day) => 100 + 2 * day + (day % 10 === 3 ? 500 : 0));
    expect(fitSlope(days)).toBe(2);
  });
});
