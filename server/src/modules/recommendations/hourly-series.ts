// The analysis's hourly input per VM, and the reading of the packed text the repository's query
// answers with: "step v1 v2 v3 step v1 v2 v3 …", step being the hour's index from the lookback's
// start. One string per VM and metric splits far faster than the driver builds a row per hour.

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

// Records of a step and `valuesPerStep` values: the values go to `targets` in order (undefined skips
// one). A step outside [0, steps) is ignored.
export function readPacked(
  packed: string,
  valuesPerStep: number,
  steps: number,
  targets: (Float64Array | undefined)[],
): void {
  const fields = packed.split(' ');
  const width = 1 + valuesPerStep;
  for (let start = 0; start + width <= fields.length; start += width) {
    const step = Number(fields[start]);
    if (!(step >= 0 && step < steps)) continue;
    for (let index = 0; index < targets.length; index += 1) {
      const target = targets[index];
      if (target) target[step] = Number(fields[start + 1 + index]);
    }
  }
}

// Network in and out are two metrics whose hourly means add up to the traffic of the hour: the first
// of each record's `valuesPerStep` values (the mean) is added to what `target` holds.
export function addPackedAverages(
  packed: string,
  valuesPerStep: number,
  steps: number,
  target: Float64Array,
): void {
  const fields = packed.split(' ');
  const width = 1 + valuesPerStep;
  for (let start = 0; start + width <= fields.length; start += width) {
    const step = Number(fields[start]);
    if (!(step >= 0 && step < steps)) continue;
    const value = Number(fields[start + 1]);
    target[step] = Number.isNaN(target[step]!) ? value : target[step]! + value;
  }
}
