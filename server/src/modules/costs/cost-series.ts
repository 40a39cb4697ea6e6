// What the forecast and the anomaly detector share on a daily cost series: robust statistics (a
// median, a Theil–Sen slope, absolute deviations) and days as whole numbers since the epoch. Pure.
import { dayMs } from '../../lib/time';

// Picked, not sorted: the forecast's Theil–Sen slope asks for the median of thousands of pairs'
// slopes at each of its origins, and a sort with a comparator was most of a forecast's time.
export function median(values: ArrayLike<number>): number {
  if (values.length === 0) return 0;
  const scratch = Float64Array.from(values);
  const middle = scratch.length >> 1;
  const upper = selectNth(scratch, middle);
  if (scratch.length % 2 === 1) return upper;
  // Below the selected one, only what is not larger: the largest of them is the lower middle.
  let lower = -Infinity;
  for (let index = 0; index < middle; index += 1) lower = Math.max(lower, scratch[index]!);
  return (lower + upper) / 2;
}

// The nth smallest value (from 0), by Hoare's selection in place: afterwards nothing before index
// `nth` is larger than it and nothing after is smaller.
function selectNth(values: Float64Array, nth: number): number {
  let left = 0;
  let right = values.length - 1;
  while (left < right) {
    const pivot = values[(left + right) >> 1]!;
    let low = left;
    let high = right;
    while (low <= high) {
      while (values[low]! < pivot) low += 1;
      while (values[high]! > pivot) high -= 1;
      if (low <= high) {
        const swapped = values[low]!;
        values[low] = values[high]!;
        values[high] = swapped;
        low += 1;
        high -= 1;
      }
    }
    if (nth <= high) right = high;
    else if (nth >= low) left = low;
    else return values[nth]!;
  }
  return values[nth]!;
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
