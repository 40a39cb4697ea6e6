// The rules every waste finder shares: what is somebody else's to manage, how long a state must
// have lasted, and how figures are written.
import { dayMs } from '../time';
import type { WasteFinding, WasteKind, WasteResource } from './waste.types';

export { dayMs, hoursPerYear } from '../time';
export const monthsPerYear = 12;

// A team opts a resource out of every recommendation with this tag (any value but 'false').
export const excludeTagName = 'cloudtrim:exclude';
// AKS tags the disks (and other resources) it creates for a cluster's volumes: the cluster
// deletes them itself, and deleting one from outside breaks the volume claim.
const aksTagPrefix = 'kubernetes.io-created-for-';

// Why the resource is not ours to judge, if it is not.
export function findManagedElsewhere(resource: WasteResource): string | undefined {
  for (const [name, value] of Object.entries(resource.tags)) {
    const lowerName = name.toLowerCase();
    if (lowerName === excludeTagName && value.toLowerCase() !== 'false') {
      return `it carries the ${excludeTagName} tag`;
    }
    if (lowerName.startsWith(aksTagPrefix)) return `AKS manages it (tag ${name})`;
  }
  return undefined;
}

export function clear(kind: WasteKind, reason: string): WasteFinding {
  return { kind, verdict: 'clear', reason };
}

export function unjudged(kind: WasteKind, reason: string): WasteFinding {
  return { kind, verdict: 'unjudged', reason };
}

// Whole days from `since` to `now`.
export function daysBetween(since: number, now: number): number {
  return Math.floor((now - since) / dayMs);
}

export { roundCents } from '../money';

// $0.0052, $1.54, $19.71: hourly prices keep four decimals, monthly two.
export function formatHourly(amount: number): string {
  return `$${amount.toFixed(4).replace(/0{1,2}$/, '')}`;
}

// One formatter for every memo: toLocaleString with options builds a new one per call, which was a
// noticeable share of a 10,000-VM analysis's waste pass.
const dollars = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

export function formatDollars(amount: number): string {
  return `$${dollars.format(amount)}`;
}

export function formatDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

export function readString(details: WasteResource['details'], key: string): string | null {
  const value = details[key];
  return typeof value === 'string' && value !== '' ? value : null;
}

export function readNumber(details: WasteResource['details'], key: string): number | null {
  const value = details[key];
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}
