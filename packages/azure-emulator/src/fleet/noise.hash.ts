import { createHash } from 'node:crypto';

// Workload noise is recomputed for every minute of every query, so it must be a few integer
// operations, allocation-free and identical on every run: a 32-bit avalanche mix (lowbias32).
export function mixHash(value: number): number {
  let mixed = value | 0;
  mixed ^= mixed >>> 16;
  mixed = Math.imul(mixed, 0x7feb352d);
  mixed ^= mixed >>> 15;
  mixed = Math.imul(mixed, 0x846ca68b);
  mixed ^= mixed >>> 16;
  return mixed >>> 0;
}

export function combineHash(first: number, second: number, third = 0): number {
  return mixHash(first ^ mixHash(second ^ mixHash(third + 0x9e3779b9)));
}

/** A uniform number in [0, 1) fully determined by its three keys. */
export function hashToUnit(first: number, second: number, third = 0): number {
  return combineHash(first, second, third) / 4294967296;
}

/** Value noise in [0, 1): hashed knots every `periodMinutes`, smoothly interpolated between them. */
export function computeSmoothNoise(
  seedKey: number,
  streamKey: number,
  minute: number,
  periodMinutes: number,
): number {
  const knot = Math.floor(minute / periodMinutes);
  const fraction = (minute - knot * periodMinutes) / periodMinutes;
  const eased = fraction * fraction * (3 - 2 * fraction);
  const from = hashToUnit(seedKey, streamKey, knot);
  const to = hashToUnit(seedKey, streamKey, knot + 1);
  return from + (to - from) * eased;
}

/** A 32-bit key for a text label, so callers can hash names without allocating on hot paths. */
export function hashText(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return mixHash(hash);
}

/** A GUID derived from the seed and a label, so the same seed always yields the same ids. */
export function deriveGuid(seed: number, label: string): string {
  const hex = createHash('sha256').update(`${seed}:${label}`).digest('hex');
  const variant = ((parseInt(hex.charAt(16), 16) & 0x3) | 0x8).toString(16);
  return [
    hex.slice(0, 8),
    hex.slice(8, 12),
    `4${hex.slice(13, 16)}`,
    `${variant}${hex.slice(17, 20)}`,
    hex.slice(20, 32),
  ].join('-');
}

/** Random-looking but reproducible text (secrets, disk suffixes) drawn from the seed and a label. */
export function deriveToken(seed: number, label: string, length: number, alphabet: string): string {
  const digest = createHash('sha512').update(`${seed}:${label}`).digest();
  let token = '';
  for (let index = 0; index < length; index += 1) {
    token += alphabet.charAt((digest[index % digest.length] ?? 0) % alphabet.length);
  }
  return token;
}

/** A seeded generator for one-off choices made while building the fleet (not on hot paths). */
export function createSeededRandom(seed: number, label: string): () => number {
  let state = combineHash(seed, hashText(label));
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    return mixHash(state) / 4294967296;
  };
}
