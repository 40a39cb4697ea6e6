import { getChartYMax } from './chart-format';

// Pure arithmetic behind <StackedBarChart>: the value scale, which x labels fit, which bar a pointer is on.

export interface BarChartScale {
  /** The top of the value axis: 1.2 times the highest stack (SPEC §9's chart headroom). */
  max: number;
  /** Gridline values from 0, a round step apart, up to the top. */
  ticks: number[];
}

/** 1, 2, 2.5 or 5 times a power of ten: the smallest such step at least `rough`. */
export function getRoundStep(rough: number): number {
  if (!(rough > 0) || !Number.isFinite(rough)) return 1;
  const power = 10 ** Math.floor(Math.log10(rough));
  const fraction = rough / power;
  const multiplier = [1, 2, 2.5, 5].find((candidate) => fraction <= candidate) ?? 10;
  return multiplier * power;
}

export function getBarChartScale(stackTotals: readonly number[], tickCount = 4): BarChartScale {
  const max = getChartYMax(stackTotals);
  const step = getRoundStep(max / tickCount);
  const ticks: number[] = [];
  // Rounded to 12 digits, so a 0.1 step reads 0.3 rather than 0.30000000000000004.
  for (let index = 0; index * step <= max; index += 1) ticks.push(Number((index * step).toPrecision(12)));
  return { max, ticks };
}

/**
 * Each bucket's stack height. A credit (a negative cost) is drawn as nothing: bars stack upwards
 * from zero, and the table beside the chart carries the exact figures.
 */
export function getStackTotals(series: readonly { values: readonly number[] }[], count: number): number[] {
  const totals = new Array<number>(count).fill(0);
  for (const line of series) {
    for (let index = 0; index < count; index += 1) totals[index]! += Math.max(0, line.values[index] ?? 0);
  }
  return totals;
}

/** Every how many buckets an x label is written so neighbours do not overlap. */
export function getLabelStride(count: number, plotWidth: number, labelWidth: number): number {
  if (count <= 0 || plotWidth <= 0) return 1;
  const slotWidth = plotWidth / count;
  return Math.max(1, Math.ceil(labelWidth / slotWidth));
}

/** The bucket under an x position of the plot, or null outside it. */
export function findBarIndex(x: number, plotLeft: number, plotWidth: number, count: number): number | null {
  if (count <= 0 || plotWidth <= 0 || x < plotLeft || x >= plotLeft + plotWidth) return null;
  return Math.min(count - 1, Math.floor(((x - plotLeft) / plotWidth) * count));
}

/** A bucket's forecast: the expected value and the range around it. */
export interface BandPoint {
  expected: number;
  low: number;
  high: number;
}

/** What the value axis must reach: each bucket's stack, or its forecast range's top where higher. */
export function getBandedTotals(
  stackTotals: readonly number[],
  points: readonly (BandPoint | null | undefined)[],
): number[] {
  return stackTotals.map((total, index) => Math.max(total, points[index]?.high ?? 0));
}
