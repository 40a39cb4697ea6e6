// What one team's pipelines may not exceed, so a careless or hostile definition cannot stall the
// scheduler or reach too far: how often a pipeline may fire, how many a team keeps, how long run items
// are kept, and how many resources a team's pipelines may act on in an hour. Pure: the service checks
// definitions with these, the run's fence and the purge job read the numbers.
import type { PipelineDefinition } from '@cloudtrim/contracts/pipelines';
import cronParser from 'cron-parser';
import type { EvaluatedItem } from './pipelines.match';

// A pipeline that acts fires at most every 15 minutes; one that only notifies or dry-runs, every 5.
export const actingIntervalMinutes = 15;
export const watchingIntervalMinutes = 5;
export const maxPipelinesPerTeam = 100;
// Run items (what a run did with each resource) older than this are purged each day.
export const runItemRetentionDays = 90;
// Resources a team's pipelines may act on in an hour, across all of them: the default and the most
// a team may set.
export const defaultTeamBlastRadius = 50;
export const maxTeamBlastRadius = 1_000;

const minuteMs = 60_000;
export const blastRadiusWindowMs = 60 * minuteMs;

// The items a run would act on now, past what the team has left of its hour's blast radius: skipped,
// the largest savings kept (the run's own order). Answers how many it keeps.
export function capToTeamBlastRadius(items: EvaluatedItem[], remaining: number, limit: number): number {
  const acting = items.filter((item) => item.outcome === 'acted');
  findOverTeamBlastRadius(acting, remaining).forEach((item) => {
    item.outcome = 'skipped';
    item.reason = 'overBlastRadius';
    item.detail = describeOverTeamBlastRadius(limit);
    item.plan = null;
  });
  return Math.min(acting.length, Math.max(remaining, 0));
}

// Of the items about to be acted on (a run's, or an approval's being carried out), those past what the
// team has left of its hour: all but the `remaining` largest savings.
export function findOverTeamBlastRadius<Item extends { annualSaving: number }>(
  items: readonly Item[],
  remaining: number,
): Item[] {
  return [...items]
    .sort((first, second) => second.annualSaving - first.annualSaving)
    .slice(Math.max(remaining, 0));
}

export const describeOverTeamBlastRadius = (limit: number) =>
  `Over the team's blast radius of ${limit} an hour`;

// Fairness across teams: a due pipeline's job priority is minus its place among its own team's due
// pipelines of the tick, so the workers take every team's first pipeline before any team's second,
// and a team's backlog (many pipelines, or slow ones still queued from an earlier tick) waits behind
// the other teams' new ticks instead of ahead of them.
export function rankByTeam<Due extends { teamId: string }>(
  due: readonly Due[],
): (Due & { priority: number })[] {
  const places = new Map<string, number>();
  return due.map((item) => {
    const place = places.get(item.teamId) ?? 0;
    places.set(item.teamId, place + 1);
    return { ...item, priority: -place };
  });
}

// A week's firings of the tightest allowed cron (every 5 minutes), and one more: enough to find the
// closest two firings of any cron that repeats within a week.
const maxFiringsRead = (7 * 24 * 60) / watchingIntervalMinutes + 1;

export function readMinimumIntervalMinutes(definition: PipelineDefinition): number {
  return definition.action.type === 'notify' || definition.gates.dryRun
    ? watchingIntervalMinutes
    : actingIntervalMinutes;
}

// The closest two firings of the cron in the week from `now` come at least `minutes` apart; else the
// sentence saying the limit. Stops reading at the first gap too small.
export function checkCronInterval(
  cron: string,
  timeZone: string,
  now: Date,
  minutes: number,
): string | undefined {
  const ticks = cronParser.parseExpression(cron, {
    currentDate: now,
    endDate: new Date(now.getTime() + 7 * 24 * 60 * minuteMs),
    tz: timeZone,
  });
  let previous: number | undefined;
  for (let read = 0; read < maxFiringsRead; read += 1) {
    let at: number;
    try {
      at = ticks.next().toDate().getTime();
    } catch {
      return undefined;
    }
    if (previous !== undefined && at - previous < minutes * minuteMs) {
      return minutes === actingIntervalMinutes
        ? `a pipeline that acts may run at most every ${actingIntervalMinutes} minutes (a notice or dry run every ${watchingIntervalMinutes})`
        : `a pipeline may run at most every ${watchingIntervalMinutes} minutes`;
    }
    previous = at;
  }
  return undefined;
}
