import { describe, expect, it } from 'vitest';
import { canLoadMetricCard } from './metric-card-deferral';

function createProgress(doneCount: number, cardCount: number) {
  return { isDoneByIndex: Array.from({ length: cardCount }, (_, index) => index < doneCount) };
}

describe('canLoadMetricCard', () => {
  it('loads the first 4 cards at once', () => {
    const progress = createProgress(0, 10);
    expect([0, 1, 2, 3].map((index) => canLoadMetricCard(index, progress))).toEqual([true, true, true, true]);
    expect(canLoadMetricCard(4, progress)).toBe(false);
  });

  it('loads the fifth card once the four before it are done', () => {
    expect(canLoadMetricCard(4, createProgress(3, 6))).toBe(false);
    expect(canLoadMetricCard(4, createProgress(4, 6))).toBe(true);
    expect(canLoadMetricCard(5, createProgress(4, 6))).toBe(false);
  });

  it('loads a later card once at least 5 earlier cards are done', () => {
    expect(canLoadMetricCard(5, createProgress(5, 8))).toBe(true);
    expect(canLoadMetricCard(9, createProgress(5, 12))).toBe(true);
    expect(
      canLoadMetricCard(9, {
        isDoneByIndex: [true, true, true, true, false, false, false, false, false, true],
      }),
    ).toBe(false);
  });

  it('counts only earlier cards towards the 5', () => {
    const isDoneByIndex = [true, true, false, false, false, false, true, true, true];
    expect(canLoadMetricCard(5, { isDoneByIndex })).toBe(false);
  });

  it('starts no deferred card once more than 15 cards have completed', () => {
    expect(canLoadMetricCard(16, createProgress(15, 20))).toBe(true);
    expect(canLoadMetricCard(17, createProgress(16, 20))).toBe(false);
    expect(canLoadMetricCard(2, createProgress(16, 20))).toBe(true);
  });
});
