// The sandbox's fixed sample: an hour of disk read and write operations per second, one point a minute,
// from a fixed start so every visitor sees the same chart.
export const demoChartStart = Date.UTC(2026, 0, 15, 9, 0, 0) / 1000;
const minutes = 60;

export interface DemoDiskSeries {
  times: number[];
  reads: number[];
  writes: number[];
}

export function createDemoDiskSeries(): DemoDiskSeries {
  const times: number[] = [];
  const reads: number[] = [];
  const writes: number[] = [];
  for (let minute = 0; minute < minutes; minute += 1) {
    times.push(demoChartStart + minute * 60);
    // A morning ramp with a backup burst at minute 40: shaped, not random, so the data never changes.
    const ramp = 120 + minute * 2.5;
    const wave = 35 * Math.sin(minute / 4) + 15 * Math.sin(minute / 1.7);
    const burst = minute >= 40 && minute < 46 ? 260 : 0;
    reads.push(Math.round((ramp + wave) * 10) / 10);
    writes.push(Math.round((ramp * 0.55 - wave * 0.6 + burst) * 10) / 10);
  }
  return { times, reads, writes };
}
