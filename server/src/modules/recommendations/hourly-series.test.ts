import { describe, expect, it } from 'vitest';
import { addPackedAverages, createHourlySeries, readPacked } from './hourly-series';

describe('the packed hourly series', () => {
  it('puts each value at its step, leaves missing hours NaN and skips what it is told to', () => {
    const series = createHourlySeries(4);
    readPacked('3 40.5 90 80 0 12 30.25 20', 3, 4, [series.cpuAverage, undefined, series.cpuMaximum]);
    expect([...series.cpuAverage]).toEqual([12, Number.NaN, Number.NaN, 40.5]);
    expect([...series.cpuMaximum]).toEqual([20, Number.NaN, Number.NaN, 80]);
  });

  it('reads PostgreSQL’s float text: exponents, negatives, shortest round-trip digits', () => {
    const series = createHourlySeries(2);
    readPacked('0 8.589934592e+09 1 -0.1', 1, 2, [series.memoryMinimum]);
    expect([...series.memoryMinimum]).toEqual([8_589_934_592, -0.1]);
  });

  it('ignores steps outside the lookback and a truncated last record', () => {
    const series = createHourlySeries(2);
    readPacked('-1 5 5 5 2 6 6 6 1 7 7 7 0 9', 3, 2, [series.cpuAverage]);
    expect([...series.cpuAverage]).toEqual([Number.NaN, 7]);
  });

  it('adds network in and out hour by hour, whichever came first', () => {
    const series = createHourlySeries(3);
    addPackedAverages('0 100 150 140 1 10 20 20', 3, 3, series.networkAverage);
    addPackedAverages('0 50 60 60 2 5 5 5', 3, 3, series.networkAverage);
    expect([...series.networkAverage]).toEqual([150, 10, 5]);
  });
});
