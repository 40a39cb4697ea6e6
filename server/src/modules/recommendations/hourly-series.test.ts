import { describe, expect, it } from 'vitest';
import { addHourly, createHourlySeries, placeHourly, readSentFloats, readSentTimes } from './hourly-series';

const hourMs = 3_600_000;
const float8Oid = 701;
const timestamptzOid = 1184;

// A one-dimensional array as PostgreSQL's array_send writes it (null elements as length -1).
function sendArray(elementType: number, elements: (Buffer | null)[]): Buffer {
  const header = Buffer.alloc(20);
  header.writeInt32BE(1, 0);
  header.writeInt32BE(elements.includes(null) ? 1 : 0, 4);
  header.writeInt32BE(elementType, 8);
  header.writeInt32BE(elements.length, 12);
  header.writeInt32BE(1, 16);
  const parts = elements.map((element) => {
    const length = Buffer.alloc(4);
    length.writeInt32BE(element ? element.length : -1);
    return element ? Buffer.concat([length, element]) : length;
  });
  return Buffer.concat([header, ...parts]);
}

const float8 = (value: number) => {
  const bytes = Buffer.alloc(8);
  bytes.writeDoubleBE(value);
  return bytes;
};
const timestamptz = (epochMs: number) => {
  const bytes = Buffer.alloc(8);
  bytes.writeBigInt64BE(BigInt(epochMs - Date.UTC(2000, 0, 1)) * 1000n);
  return bytes;
};

describe('arrays in PostgreSQL’s binary form', () => {
  it('reads float8 values, NULL as NaN', () => {
    const sent = sendArray(float8Oid, [float8(12.5), null, float8(8_589_934_592), float8(-0.1)]);
    expect([...readSentFloats(sent)]).toEqual([12.5, Number.NaN, 8_589_934_592, -0.1]);
  });

  it('reads timestamptz values as epoch milliseconds, before 2000 too', () => {
    const times = [Date.UTC(2026, 10, 23, 10), Date.UTC(1999, 11, 31, 23)];
    expect([...readSentTimes(sendArray(timestamptzOid, times.map(timestamptz)))]).toEqual(times);
  });

  it('reads an empty array, and refuses one of two dimensions', () => {
    const empty = Buffer.alloc(12);
    expect(readSentFloats(empty)).toHaveLength(0);
    const square = sendArray(float8Oid, [float8(1)]);
    square.writeInt32BE(2, 0);
    expect(() => readSentFloats(square)).toThrow(/one-dimensional/);
  });
});

describe('the hourly series', () => {
  const sinceMs = Date.UTC(2026, 10, 9);

  it('puts each value at its hour, leaves missing hours NaN and ignores hours outside it', () => {
    const series = createHourlySeries(4);
    const hours = Float64Array.from([3, 0, -1, 4].map((step) => sinceMs + step * hourMs));
    placeHourly(hours, sinceMs, series.cpuAverage, Float64Array.from([40.5, 12, 99, 99]));
    expect([...series.cpuAverage]).toEqual([12, Number.NaN, Number.NaN, 40.5]);
  });

  it('adds network in and out hour by hour, whichever came first', () => {
    const series = createHourlySeries(3);
    const at = (...steps: number[]) => Float64Array.from(steps.map((step) => sinceMs + step * hourMs));
    addHourly(at(0, 1), sinceMs, series.networkAverage, Float64Array.from([100, 10]));
    addHourly(at(0, 2), sinceMs, series.networkAverage, Float64Array.from([50, 5]));
    expect([...series.networkAverage]).toEqual([150, 10, 5]);
  });
});
