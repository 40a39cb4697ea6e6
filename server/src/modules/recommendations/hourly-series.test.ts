import { describe, expect, it } from 'vitest';
import { createHourlySeries, placeDays } from './hourly-series';

// Days as metric_day keeps them: 24 float4 big-endian, NaN where the hour has none.
function packDays(...days: Record<number, number>[]): Buffer {
  const packed = Buffer.alloc(days.length * 96);
  days.forEach((hours, day) => {
    for (let hour = 0; hour < 24; hour += 1)
      packed.writeFloatBE(hours[hour] ?? Number.NaN, day * 96 + hour * 4);
  });
  return packed;
}

describe('the hourly series from packed days', () => {
  it('puts each hour at its step from the series’ first hour, and ignores hours outside it', () => {
    const series = createHourlySeries(30);
    // The series starts at 22:00 of day 0 and ends at 03:00 of day 2.
    placeDays(
      { firstHour: 22, steps: 30 },
      [0, 2],
      packDays({ 21: 99, 22: 12.5, 23: 13 }, { 3: 40, 4: 99 }),
      series.cpuAverage,
    );
    expect(series.cpuAverage[0]).toBe(12.5);
    expect(series.cpuAverage[1]).toBe(13);
    expect(series.cpuAverage[29]).toBe(40);
    expect([...series.cpuAverage].filter((value) => !Number.isNaN(value))).toHaveLength(3);
  });

  it('leaves the hours of a missing day and NaN hours empty', () => {
    const series = createHourlySeries(72);
    placeDays({ firstHour: 0, steps: 72 }, [0, 2], packDays({ 0: 1 }, { 0: 3 }), series.memoryAverage);
    expect(series.memoryAverage[0]).toBe(1);
    expect(series.memoryAverage[24]).toBeNaN();
    expect(series.memoryAverage[48]).toBe(3);
    expect(series.memoryAverage[1]).toBeNaN();
  });

  it('adds network in and out hour by hour, whichever came first', () => {
    const series = createHourlySeries(3);
    placeDays({ firstHour: 0, steps: 3 }, [0], packDays({ 0: 100, 1: 10 }), series.networkAverage, 'add');
    placeDays({ firstHour: 0, steps: 3 }, [0], packDays({ 0: 50, 2: 5 }), series.networkAverage, 'add');
    expect([...series.networkAverage]).toEqual([150, 10, 5]);
  });

  it('refuses blocks that do not match their days', () => {
    expect(() =>
      placeDays({ firstHour: 0, steps: 24 }, [0, 1], packDays({ 0: 1 }), new Float64Array(24)),
    ).toThrow(/2 packed days/);
  });
});
