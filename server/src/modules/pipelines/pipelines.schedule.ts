// When a pipeline runs: a cron expression read in an IANA time zone (cron-parser follows the zone's
// daylight-saving changes, so `0 9 * * *` in Europe/London is 09:00 local in winter and summer), or
// each hour for the resources whose maintenance window it is. Pure: the tick job and the list call it.
import type { PipelineSchedule } from '@cloudtrim/contracts/pipelines';
import cronParser from 'cron-parser';
import { hourMs } from '../../lib/time';

// A tick the workers missed (a restart, a busy queue) still runs within this long; older ones are
// skipped rather than run late.
export const pipelineCatchUpMs = 15 * 60_000;

// The scheduled tick a run is due for at `now`, if any: the latest tick at or before now, when it came
// at or after `since` (the pipeline's creation or resumption) and within the catch-up.
export function findDueTick(schedule: PipelineSchedule, now: Date, since: Date): Date | undefined {
  const from = Math.max(since.getTime(), now.getTime() - pipelineCatchUpMs);
  if ('maintenanceWindow' in schedule) {
    const hour = Math.floor(now.getTime() / hourMs) * hourMs;
    return hour >= from ? new Date(hour) : undefined;
  }
  // Forward from the earliest tick allowed: cron-parser's prev() steps back a minute at a time
  // (30 ms a call measured), next() jumps (1 ms).
  const ticks = cronParser.parseExpression(schedule.cron, {
    currentDate: new Date(from - 1),
    tz: schedule.timeZone,
  });
  let due: Date | undefined;
  for (;;) {
    const tick = ticks.next().toDate();
    if (tick.getTime() > now.getTime()) return due;
    due = tick;
  }
}

// The next tick after `after`; for the window, the next hour one of `windowHours` (UTC) begins.
export function findNextTick(
  schedule: PipelineSchedule,
  after: Date,
  windowHours: readonly number[],
): Date | null {
  if ('cron' in schedule) {
    return cronParser
      .parseExpression(schedule.cron, { currentDate: after, tz: schedule.timeZone })
      .next()
      .toDate();
  }
  if (windowHours.length === 0) return null;
  const hour = Math.floor(after.getTime() / hourMs) * hourMs;
  for (let next = hour + hourMs; next <= hour + 24 * hourMs; next += hourMs) {
    if (windowHours.includes(new Date(next).getUTCHours())) return new Date(next);
  }
  return null;
}

// The cron's error as its parser words it, or undefined for an expression it reads.
export function checkCron(cron: string, timeZone: string): string | undefined {
  try {
    cronParser.parseExpression(cron, { tz: timeZone });
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}
