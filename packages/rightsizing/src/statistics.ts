// Small numeric helpers over typed arrays; NaN marks a missing reading and is skipped everywhere.

// The q-quantile (0..1) of the readings, by the nearest rank; NaN when there are none.
export function quantile(values: ArrayLike<number>, q: number, from = 0, to = values.length): number {
  const present = collectPresent(values, from, to);
  if (present.length === 0) return Number.NaN;
  present.sort();
  return present[Math.min(present.length - 1, Math.max(0, Math.ceil(q * present.length) - 1))]!;
}

// The q-quantile where each reading counts with its weight (recent readings weigh more).
export function weightedQuantile(
  values: ArrayLike<number>,
  weights: ArrayLike<number>,
  q: number,
  from = 0,
  to = values.length,
): number {
  const order: number[] = [];
  let total = 0;
  for (let index = from; index < to; index += 1) {
    if (Number.isNaN(values[index]!)) continue;
    order.push(index);
    total += weights[index]!;
  }
  if (order.length === 0 || total <= 0) return Number.NaN;
  order.sort((left, right) => values[left]! - values[right]!);
  const target = q * total;
  let cumulative = 0;
  for (const index of order) {
    cumulative += weights[index]!;
    if (cumulative >= target) return values[index]!;
  }
  return values[order.at(-1)!]!;
}

export function mean(values: ArrayLike<number>, from = 0, to = values.length): number {
  let sum = 0;
  let count = 0;
  for (let index = from; index < to; index += 1) {
    const value = values[index]!;
    if (Number.isNaN(value)) continue;
    sum += value;
    count += 1;
  }
  return count === 0 ? Number.NaN : sum / count;
}

export function maximum(values: ArrayLike<number>, from = 0, to = values.length): number {
  let peak = Number.NaN;
  for (let index = from; index < to; index += 1) {
    const value = values[index]!;
    if (!Number.isNaN(value) && !(value <= peak)) peak = value;
  }
  return peak;
}

export function countPresent(values: ArrayLike<number>, from = 0, to = values.length): number {
  let count = 0;
  for (let index = from; index < to; index += 1) if (!Number.isNaN(values[index]!)) count += 1;
  return count;
}

function collectPresent(values: ArrayLike<number>, from: number, to: number): Float64Array {
  const present = new Float64Array(to - from);
  let length = 0;
  for (let index = from; index < to; index += 1) {
    const value = values[index]!;
    if (!Number.isNaN(value)) present[length++] = value;
  }
  return present.subarray(0, length);
}
