// When a pipeline runs: a cron expression read in an IANA time zone (cron-parser follows the zone's
// daylight-saving changes, so `0 9 * * *` in Europe/London is 09:00 local in winter and summer), or
// each hour for the resources whose maintenance window it is. Pure but for the next tick kept per cron
// (below): the tick job and the list call it.
import type { PipelineSchedule } from '@cloudtrim/contracts/pipelines';
import cronParser, { type CronExpression } from 'cron-parser';
import { BoundedMap } from '../../lib/bounded-map';
import { hourMs } from '../../lib/time';

// A tick the workers missed (a restart, a busy queue) still runs within this long; older ones are
// skipped rather than run late.
export const pipelineCatchUpMs = 15 * 60_000;

// A cron must fire within this long of its saving: `0 0 31 2,4 *` never does, and `0 0 * 2 1#5` not
// before 2044. Each read of a cron stops here too, so none steps through the parser's loop limit.
export const cronHorizonMs = 366 * 24 * hourMs;

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
  // endDate: the parser stops at now rather than searching on (a cron with no firing would
  // otherwise step to its loop limit and throw).
  const ticks = cronParser.parseExpression(schedule.cron, {
    currentDate: new Date(from - 1),
    endDate: now,
    tz: schedule.timeZone,
  });
  let due: Date | undefined;
  for (let tick = readNext(ticks); tick && tick.getTime() <= now.getTime(); tick = readNext(ticks)) {
    due = tick;
  }
  return due;
}

// The next tick of each cron and zone, and the instant it was read from (the least recently read
// dropped past the bound).
const nextTicks = new BoundedMap<string, { fromMs: number; nextMs: number }>(1_000);

// The next tick after `after`; for the window, the next hour one of `windowHours` (UTC) begins.
export function findNextTick(
  schedule: PipelineSchedule,
  after: Date,
  windowHours: readonly number[],
): Date | null {
  if ('cron' in schedule) {
    // The pipelines list asks for every row's next run on every call, a cron parse each (about a
    // millisecond): a tick read from `from` stays the next one for every instant before it.
    const key = `${schedule.cron}|${schedule.timeZone}`;
    const known = nextTicks.get(key);
    if (known && known.fromMs <= after.getTime() && after.getTime() < known.nextMs) {
      return new Date(known.nextMs);
    }
    // A row saved before crons were checked may never fire, or not be read: no next run, never an
    // error (the list shows it).
    try {
      const next = readNext(
        cronParser.parseExpression(schedule.cron, {
          currentDate: after,
          endDate: new Date(after.getTime() + cronHorizonMs),
          tz: schedule.timeZone,
        }),
      );
      if (next) {
        nextTicks.remember(key, { fromMs: after.getTime(), nextMs: next.getTime() });
      }
      return next;
    } catch {
      return null;
    }
  }
  if (windowHours.length === 0) return null;
  const hour = Math.floor(after.getTime() / hourMs) * hourMs;
  for (let next = hour + hourMs; next <= hour + 24 * hourMs; next += hourMs) {
    if (windowHours.includes(new Date(next).getUTCHours())) return new Date(next);
  }
  return null;
}

// A schedule's firings read forward, each read starting where the caller says: one parse of the cron,
// and no read past `endMs` (the parser stops there rather than search on).
export type FiringReader = (after: number) => number | undefined;

// The first firing strictly after `after`, before `endMs`; a window schedule fires at `windowHour`.
export function createFiringReader(
  schedule: PipelineSchedule,
  windowHour: number,
  endMs: number,
): FiringReader {
  if ('maintenanceWindow' in schedule) {
    return (after) => {
      const next = findNextTick(schedule, new Date(after), [windowHour])?.getTime();
      return next !== undefined && next <= endMs ? next : undefined;
    };
  }
  let ticks: CronExpression;
  try {
    ticks = cronParser.parseExpression(schedule.cron, { endDate: new Date(endMs), tz: schedule.timeZone });
  } catch {
    return () => undefined;
  }
  return (after) => {
    ticks.reset(new Date(after));
    return readNext(ticks)?.getTime();
  };
}

// The cron's error as its parser words it, or that it never fires within a year of `now`, or
// undefined for an expression that will run.
export function checkCron(cron: string, timeZone: string, now: Date): string | undefined {
  try {
    const ticks = cronParser.parseExpression(cron, {
      currentDate: now,
      endDate: new Date(now.getTime() + cronHorizonMs),
      tz: timeZone,
    });
    return readNext(ticks) ? undefined : 'it never fires within a year';
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

// The next firing before the expression's endDate, or null past it (the parser throws there, and at
// its loop limit for a cron that never fires).
function readNext(ticks: CronExpression): Date | null {
  try {
    return ticks.next().toDate();
  } catch {
    return null;
  }
}
