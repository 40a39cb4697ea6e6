// The analysis's hourly input per VM, and the reading of the packed days the repository's query
// answers with (metric_day): per metric, its days' offsets from the first day of the series and
// their 24-hour blocks laid end to end, in base64 (a third smaller than bytea's hex on the wire).

// One VM's hourly series over [since, until), one element per hour, NaN where the hour has no
// aggregate: CPU percent (mean, peak), available memory bytes (mean, p95 of the minutes, the lowest
// minute where the hour was rolled up from 1-minute points), bytes moved per minute in and out
// together (mean), and on a B-series VM its CPU credits remaining (mean, lowest minute likewise).
// A series exists only where a metric's days filled it (`hoursOf` makes it): a VM without credits or
// memory carries none, and a 10,000-VM analysis allocates no empty arrays for them.
export interface HourlySeries {
  steps: number;
  cpuAverage?: Float64Array;
  cpuMaximum?: Float64Array;
  memoryAverage?: Float64Array;
  memoryP95?: Float64Array;
  memoryMinimum?: Float64Array;
  networkAverage?: Float64Array;
  creditsAverage?: Float64Array;
  creditsMinimum?: Float64Array;
}

export type HourlyAggregate = Exclude<keyof HourlySeries, 'steps'>;

export function createHourlySeries(steps: number): HourlySeries {
  return { steps };
}

// The series' hours of one aggregate, made empty (every hour NaN) when first asked for.
export function hoursOf(series: HourlySeries, aggregate: HourlyAggregate): Float64Array {
  return (series[aggregate] ??= emptyHours(series.steps));
}

export function emptyHours(steps: number): Float64Array {
  return new Float64Array(steps).fill(Number.NaN);
}

const hoursPerDay = 24;

// Packed days as PostgreSQL keeps them (float4 big-endian per hour, NaN where none) as floats: the
// bytes are swapped in one native pass and viewed in place, where reading them one by one
// (readFloatBE) cost a tenth of the whole read.
export function decodePackedDays(base64: string): Float32Array {
  return readFloats(Buffer.from(base64, 'base64'));
}

// The bytes of packed days read as floats, in place (the bytes are swapped).
function readFloats(bytes: Buffer): Float32Array {
  if (bytes.length % 4 !== 0) throw new Error(`packed days of ${bytes.length} bytes are not whole floats`);
  bytes.swap32();
  // A view needs 4-byte alignment; a small buffer may sit anywhere in Node's shared pool.
  const aligned = bytes.byteOffset % 4 === 0 ? bytes : Buffer.from(bytes);
  return new Float32Array(aligned.buffer, aligned.byteOffset, aligned.length / 4);
}

// Where a series' hours sit among its packed days: step 0 is hour `firstHour` (0-23, UTC) of day 0.
export interface DayLayout {
  firstHour: number;
  steps: number;
}

// Each packed day's hours go to their steps of `target`; hours outside the series are ignored, and
// so are NaN hours, so a day read later never blanks an hour another metric's day filled (`add`).
export function placeDays(
  layout: DayLayout,
  dayOffsets: readonly number[],
  packed: Float32Array,
  target: Float64Array,
  combine: 'replace' | 'add' = 'replace',
): void {
  if (packed.length !== dayOffsets.length * hoursPerDay) {
    throw new Error(`expected ${dayOffsets.length} packed days, got ${packed.length} hours`);
  }
  for (let day = 0; day < dayOffsets.length; day += 1) {
    const firstStep = dayOffsets[day]! * hoursPerDay - layout.firstHour;
    for (let hour = 0; hour < hoursPerDay; hour += 1) {
      const step = firstStep + hour;
      if (step < 0 || step >= layout.steps) continue;
      const value = packed[day * hoursPerDay + hour]!;
      if (Number.isNaN(value)) continue;
      const previous = target[step]!;
      target[step] = combine === 'add' && !Number.isNaN(previous) ? previous + value : value;
    }
  }
}

// A column of packed days (base64, or null where the query sent none) placed into its series. Each
// column is decoded, placed and done with before the next, so one buffer of its own serves them all:
// a whole analysis decodes some 60,000 columns, and a buffer each was work for the collector.
let scratch = Buffer.allocUnsafeSlow(4096);

export function placePacked(
  layout: DayLayout,
  dayOffsets: readonly number[],
  packed: string | null,
  target: Float64Array,
  combine: 'replace' | 'add' = 'replace',
): void {
  if (packed === null) return;
  // At most 3 bytes per 4 characters of base64.
  const capacity = Math.ceil(packed.length / 4) * 3;
  if (scratch.length < capacity) scratch = Buffer.allocUnsafeSlow(capacity);
  const length = scratch.write(packed, 0, 'base64');
  placeDays(layout, dayOffsets, readFloats(scratch.subarray(0, length)), target, combine);
}
