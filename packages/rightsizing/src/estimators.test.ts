import { describe, expect, it } from 'vitest';
import {
  estimateDailyPercentiles,
  estimateLearntMargin,
  estimateRegimeDays,
  estimateWindowLevel,
  measureCoverage,
  type MarginRule,
  type RegimeRule,
} from './estimators';

const perDay = 24;
const regime: RegimeRule = { dropRatio: 0.4, minimumDays: 2, beforeDays: 3, windowDays: 7 };
const margin: MarginRule = {
  q: 0.995,
  regime,
  firstOriginDays: 7,
  originEveryDays: 1,
  judgeDays: 7,
  marginQuantile: 0,
  maxMargin: 2,
  fullConfidenceDays: 14,
};

function days(count: number, level: (day: number, hour: number) => number): Float64Array {
  return Float64Array.from({ length: count * perDay }, (_, step) =>
    level(Math.floor(step / perDay), step % perDay),
  );
}

describe('the estimators', () => {
  it('read the whole window when the load holds, and only the days since a drop to a new level', () => {
    const steady = days(14, () => 4);
    expect(estimateRegimeDays(estimateDailyPercentiles(steady, 0.995, perDay, steady.length), regime)).toBe(
      7,
    );
    // Eleven days at 8, then three at 1: the level is read from the three.
    const dropped = days(14, (day) => (day < 11 ? 8 : 1));
    const daily = estimateDailyPercentiles(dropped, 0.995, perDay, dropped.length);
    expect(estimateRegimeDays(daily, regime)).toBe(3);
    expect(estimateWindowLevel(dropped, 0.995, perDay, dropped.length, daily, regime)).toBe(1);
  });

  it('learn no margin on a steady load, and the growth a rising one outran its forecasts by', () => {
    const steady = days(21, () => 4);
    const steadyDaily = estimateDailyPercentiles(steady, 0.995, perDay, steady.length);
    expect(estimateLearntMargin(steady, perDay, steady.length, steadyDaily, margin)).toBe(1);
    const rising = days(21, (day) => 2 + day * 0.2);
    const risingDaily = estimateDailyPercentiles(rising, 0.995, perDay, rising.length);
    const learnt = estimateLearntMargin(rising, perDay, rising.length, risingDaily, margin);
    expect(learnt).toBeGreaterThan(1);
    expect(learnt).toBeLessThanOrEqual(2);
  });

  it('widen the margin to its cap when too short a history cannot judge itself', () => {
    const short = days(3, () => 4);
    const daily = estimateDailyPercentiles(short, 0.995, perDay, short.length);
    // 3 of 14 days: 1 + (2 − 1) × (1 − 3/14).
    expect(estimateLearntMargin(short, perDay, short.length, daily, margin)).toBeCloseTo(1 + 11 / 14, 10);
  });

  it('measure the share of steps with a reading', () => {
    expect(measureCoverage(Float64Array.from([1, Number.NaN, 2, Number.NaN]))).toBe(0.5);
  });
});
