// What the forecast and the anomaly detector share on a daily cost series: robust statistics (a
// median, a Theil–Sen slope, absolute deviations) and days as whole numbers since the epoch. Pure.
import { dayMs } from '../../lib/time';

export function median(values: ArrayLike<number>): number {
  if (values.length === 0) return 0;
  // A typed array sorts by value natively: the forecast's Theil–Sen slope asks for the median of
  // thousands of pairs' slopes at each of its origins, and a comparator called from the sort was
  // most of a forecast's time.
  const sorted = Float64Array.from(values).sort();
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

// Theil–Sen: the median of the slopes between every pair of days, which a few odd days hardly move.
export function fitSlope(values: ArrayLike<number>): number {
  const slopes = new Float64Array((values.length * (values.length - 1)) / 2);
  let index = 0;
  for (let first = 0; first < values.length; first += 1) {
    for (let second = first + 1; second < values.length; second += 1) {
      slopes[index++] = (values[second]! - values[first]!) / (second - first);
    }
  }
  return median(slopes);
}

export function sumDeviations(values: readonly number[], center: number): number {
  return values.reduce((sum, value) => sum + Math.abs(value - center), 0);
}

// 0 for Thursday 1 January 1970, as every seventh day after it.
export function weekday(day: number): number {
  return ((day % 7) + 7) % 7;
}

export function toDayNumber(day: string): number {
  return Math.floor(Date.parse(`${day}T00:00:00Z`) / dayMs);
}

export function formatDayNumber(day: number): string {
  return new Date(day * dayMs).toISOString().slice(0, 10);
}
