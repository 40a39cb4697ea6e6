// The analysis's hourly input per VM, and the reading of the arrays the repository's query answers
// with: each metric's hours and values in PostgreSQL's binary array form (array_send).

// One VM's hourly series over [since, until), one element per hour, NaN where the hour has no
// aggregate: CPU percent (mean, peak), available memory bytes (mean, p95 of the minutes, the lowest
// minute where 1-minute points are kept), bytes moved per minute in and out together (mean).
export interface HourlySeries {
  cpuAverage: Float64Array;
  cpuMaximum: Float64Array;
  memoryAverage: Float64Array;
  memoryP95: Float64Array;
  memoryMinimum: Float64Array;
  networkAverage: Float64Array;
}

export function createHourlySeries(steps: number): HourlySeries {
  const empty = () => new Float64Array(steps).fill(Number.NaN);
  return {
    cpuAverage: empty(),
    cpuMaximum: empty(),
    memoryAverage: empty(),
    memoryP95: empty(),
    memoryMinimum: empty(),
    networkAverage: empty(),
  };
}

const hourMs = 3_600_000;
// timestamptz counts microseconds from 2000-01-01 UTC.
const postgresEpochMs = Date.UTC(2000, 0, 1);
// array_send: dimensions, has-nulls flag, element type, then per dimension its length and lower
// bound; then each element as its byte length (-1 for NULL) and its bytes, big-endian.
const arrayHeaderBytes = 12;
const dimensionBytes = 8;

function readSentArray(sent: Buffer, readElement: (offset: number) => number): Float64Array {
  const dimensions = sent.readInt32BE(0);
  if (dimensions === 0) return new Float64Array(0);
  if (dimensions !== 1) throw new Error(`expected a one-dimensional array, got ${dimensions} dimensions`);
  const length = sent.readInt32BE(arrayHeaderBytes);
  const values = new Float64Array(length);
  let offset = arrayHeaderBytes + dimensionBytes;
  for (let index = 0; index < length; index += 1) {
    const size = sent.readInt32BE(offset);
    offset += 4;
    if (size < 0) {
      values[index] = Number.NaN;
      continue;
    }
    values[index] = readElement(offset);
    offset += size;
  }
  return values;
}

// A float8[] as array_send writes it.
export function readSentFloats(sent: Buffer): Float64Array {
  return readSentArray(sent, (offset) => sent.readDoubleBE(offset));
}

// A timestamptz[] as array_send writes it, in epoch milliseconds.
export function readSentTimes(sent: Buffer): Float64Array {
  return readSentArray(
    sent,
    (offset) => postgresEpochMs + (sent.readInt32BE(offset) * 2 ** 32 + sent.readUInt32BE(offset + 4)) / 1000,
  );
}

// Each value goes to its hour's index from `sinceMs`; hours outside the series are ignored.
export function placeHourly(
  hours: Float64Array,
  sinceMs: number,
  target: Float64Array,
  values: Float64Array,
): void {
  for (let index = 0; index < hours.length; index += 1) {
    const step = Math.round((hours[index]! - sinceMs) / hourMs);
    if (step >= 0 && step < target.length) target[step] = values[index]!;
  }
}

// Network in and out are two metrics whose hourly means add up to the traffic of the hour.
export function addHourly(
  hours: Float64Array,
  sinceMs: number,
  target: Float64Array,
  values: Float64Array,
): void {
  for (let index = 0; index < hours.length; index += 1) {
    const step = Math.round((hours[index]! - sinceMs) / hourMs);
    if (step < 0 || step >= target.length) continue;
    target[step] = Number.isNaN(target[step]!) ? values[index]! : target[step]! + values[index]!;
  }
}
