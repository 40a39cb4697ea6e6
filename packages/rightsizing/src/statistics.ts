// Small numeric helpers over typed arrays; NaN marks a missing reading and is skipped everywhere.

// The q-quantile (0..1) of the readings, by the nearest rank; NaN when there are none. The engine
// mostly asks for high quantiles (P95, P99.5), a few readings from the top: those are picked in one
// pass without copying or sorting the series.
export function quantile(values: ArrayLike<number>, q: number, from = 0, to = values.length): number {
  const count = countPresent(values, from, to);
  if (count === 0) return Number.NaN;
  const rank = Math.min(count - 1, Math.max(0, Math.ceil(q * count) - 1));
  if (count - 1 - rank < topBuffer.length) return selectFromTop(values, count - 1 - rank, from, to);
  const present = collectPresent(values, from, to);
  present.sort();
  return present[rank]!;
}

// Scratch for selectFromTop, reused across calls (no allocation per quantile).
const topBuffer = new Float64Array(64);

// The reading with `fromTop` readings above it: keeps the highest fromTop + 1, largest first.
function selectFromTop(values: ArrayLike<number>, fromTop: number, from: number, to: number): number {
  const size = fromTop + 1;
  let filled = 0;
  for (let index = from; index < to; index += 1) {
    const value = values[index]!;
    if (Number.isNaN(value) || (filled === size && value <= topBuffer[size - 1]!)) continue;
    let slot = filled < size ? filled++ : size - 1;
    while (slot > 0 && topBuffer[slot - 1]! < value) {
      topBuffer[slot] = topBuffer[slot - 1]!;
      slot -= 1;
    }
    topBuffer[slot] = value;
  }
  return topBuffer[size - 1]!;
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
