// Active hours: a VM runs from the start hour to the end hour, UTC, every day. Start after end wraps
// over midnight (22 → 6 runs through the night); equal hours mean always on, so nothing is done.
import { dayMs } from '../../lib/time';

export type ActiveHoursAction = 'start' | 'deallocate';

export interface ActiveHoursBoundary {
  at: Date;
  action: ActiveHoursAction;
}

// The boundary most recently passed (at or before `now`), or undefined when the hours ask for none.
export function findLastBoundary(
  now: Date,
  startHour: number | null,
  endHour: number | null,
): ActiveHoursBoundary | undefined {
  if (startHour === null || endHour === null || startHour === endHour) return undefined;
  const start = findLastOccurrence(now, startHour);
  const end = findLastOccurrence(now, endHour);
  return start.getTime() > end.getTime() ? { at: start, action: 'start' } : { at: end, action: 'deallocate' };
}

// The hours a boundary passed within `withinMs` (under an hour) of now can fall on.
export function listRecentBoundaryHours(now: Date, withinMs: number): number[] {
  return [...new Set([new Date(now.getTime() - withinMs).getUTCHours(), now.getUTCHours()])];
}

function findLastOccurrence(now: Date, hour: number): Date {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), hour);
  return new Date(today <= now.getTime() ? today : today - dayMs);
}
