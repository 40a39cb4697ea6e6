// The analysis's hourly input per VM, and the reading of the packed days the repository's query
// answers with (metric_day): per metric, its days' offsets from the first day of the series and
// their 24-hour blocks laid end to end.

// One VM's hourly series over [since, until), one element per hour, NaN where the hour has no
// aggregate: CPU percent (mean, peak), available memory bytes (mean, p95 of the minutes, the lowest
// minute where the hour was rolled up from 1-minute points), bytes moved per minute in and out
// together (mean).
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

const hoursPerDay = 24;
// A packed day: one float4 per hour, big-endian, NaN where the hour has no aggregate.
const dayBytes = hoursPerDay * 4;

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
  packed: Buffer,
  target: Float64Array,
  combine: 'replace' | 'add' = 'replace',
): void {
  if (packed.length !== dayOffsets.length * dayBytes) {
    throw new Error(`expected ${dayOffsets.length} packed days, got ${packed.length} bytes`);
  }
  for (let day = 0; day < dayOffsets.length; day += 1) {
    const firstStep = dayOffsets[day]! * hoursPerDay - layout.firstHour;
    for (let hour = 0; hour < hoursPerDay; hour += 1) {
      const step = firstStep + hour;
      if (step < 0 || step >= layout.steps) continue;
      const value = packed.readFloatBE(day * dayBytes + hour * 4);
      if (Number.isNaN(value)) continue;
      const previous = target[step]!;
      target[step] = combine === 'add' && !Number.isNaN(previous) ? previous + value : value;
    }
  }
}
