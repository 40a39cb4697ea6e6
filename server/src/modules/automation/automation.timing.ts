// When a change at a resource's maintenance window runs: the next start of that hour, UTC.
import { dayMs } from '../../lib/time';

// The start of the window now open counts as passed: a change planned at 02:30 for a 02:00 window
// waits for tomorrow's, so it never runs in the last minutes of a window already under way.
export function findNextWindowStart(now: Date, windowHour: number): Date {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), windowHour);
  return new Date(today >= now.getTime() ? today : today + dayMs);
}
