import { describe, expect, it } from 'vitest';
import { createHourlySeries, decodePackedDays, hoursOf, placeDays, placePacked } from './hourly-series';

// Days as metric_day keeps them: 24 float4 big-endian, NaN where the hour has none.
function packBytes(...days: Record<number, number>[]): Buffer {
  const packed = Buffer.alloc(days.length * 96);
  days.forEach((hours, day) => {
    for (let hour = 0; hour < 24; hour += 1)
      packed.writeFloatBE(hours[hour] ?? Number.NaN, day * 96 + hour * 4);
  });
  return packed;
}

// As the repository's query answers them (base64, PostgreSQL's line breaks included), decoded.
function packDays(...days: Record<number, number>[]): Float32Array {
  const base64 = packBytes(...days)
    .toString('base64')
    .replace(/(.{76})/g, '$1\n');
  return decodePackedDays(base64);
}

describe('packed days', () => {
  it('decode to floats, NaN hours included', () => {
    const floats = packDays({ 0: 12.5, 23: -0.25 });
    expect(floats).toHaveLength(24);
    expect(floats[0]).toBe(12.5);
    expect(floats[1]).toBeNaN();
    expect(floats[23]).toBe(-0.25);
  });

  it('decode from any place in memory, and refuse a partial float', () => {
    for (const hours of [1, 2, 3, 5]) {
      const bytes = Buffer.alloc(hours * 4);
      for (let hour = 0; hour < hours; hour += 1) bytes.writeFloatBE(hour + 0.5, hour * 4);
      expect([...decodePackedDays(bytes.toString('base64'))]).toEqual(
        Array.from({ length: hours }, (_, hour) => hour + 0.5),
      );
    }
    expect(() => decodePackedDays(Buffer.alloc(6).toString('base64'))).toThrow(/whole floats/);
  });
});

describe('placing a column of packed days', () => {
  it('reads columns one after another, longer and shorter, with PostgreSQL’s line breaks', () => {
    const layout = { firstHour: 0, steps: 24 * 50 };
    const long = new Float64Array(layout.steps).fill(Number.NaN);
    const short = new Float64Array(layout.steps).fill(Number.NaN);
    const longDays = Array.from({ length: 50 }, (_, day) => ({ 5: day + 0.5 }));
    const asQueryAnswers = (bytes: Buffer) => bytes.toString('base64').replace(/(.{76})/g, '$1\n');
    placePacked(
      layout,
      Array.from({ length: 50 }, (_, day) => day),
      asQueryAnswers(packBytes(...longDays)),
      long,
    );
    placePacked(layout, [3], asQueryAnswers(packBytes({ 7: 42 })), short);
    placePacked(layout, [0], null, short);
    expect(long[49 * 24 + 5]).toBe(49.5);
    expect(long[6]).toBeNaN();
    expect(short[3 * 24 + 7]).toBe(42);
    expect(short.filter((value) => !Number.isNaN(value))).toHaveLength(1);
  });
});

describe('the hourly series from packed days', () => {
  it('puts each hour at its step from the series’ first hour, and ignores hours outside it', () => {
    const series = createHourlySeries(30);
    // The series starts at 22:00 of day 0 and ends at 03:00 of day 2.
    placeDays(
      { firstHour: 22, steps: 30 },
      [0, 2],
      packDays({ 21: 99, 22: 12.5, 23: 13 }, { 3: 40, 4: 99 }),
      hoursOf(series, 'cpuAverage'),
    );
    expect(series.cpuAverage![0]).toBe(12.5);
    expect(series.cpuAverage![1]).toBe(13);
    expect(series.cpuAverage![29]).toBe(40);
    expect([...series.cpuAverage!].filter((value) => !Number.isNaN(value))).toHaveLength(3);
    // Only what a metric's days filled exists.
    expect(Object.keys(series)).toEqual(['steps', 'cpuAverage']);
  });

  it('leaves the hours of a missing day and NaN hours empty', () => {
    const series = createHourlySeries(72);
    const memory = hoursOf(series, 'memoryAverage');
    placeDays({ firstHour: 0, steps: 72 }, [0, 2], packDays({ 0: 1 }, { 0: 3 }), memory);
    expect(memory[0]).toBe(1);
    expect(memory[24]).toBeNaN();
    expect(memory[48]).toBe(3);
    expect(memory[1]).toBeNaN();
  });

  it('adds network in and out hour by hour, whichever came first', () => {
    const series = createHourlySeries(3);
    placeDays(
      { firstHour: 0, steps: 3 },
      [0],
      packDays({ 0: 100, 1: 10 }),
      hoursOf(series, 'networkAverage'),
      'add',
    );
    placeDays(
      { firstHour: 0, steps: 3 },
      [0],
      packDays({ 0: 50, 2: 5 }),
      hoursOf(series, 'networkAverage'),
      'add',
    );
    expect([...series.networkAverage!]).toEqual([150, 10, 5]);
  });

  it('refuses blocks that do not match their days', () => {
    expect(() =>
      placeDays({ firstHour: 0, steps: 24 }, [0, 1], packDays({ 0: 1 }), new Float64Array(24)),
    ).toThrow(/2 packed days/);
  });
});
