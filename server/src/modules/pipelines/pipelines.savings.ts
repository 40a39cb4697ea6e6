// What stopping a running VM on a schedule saves: a stop is half a schedule, and the VM saves its
// compute (its disks keep billing) only while it is off, until one of the team's start pipelines
// brings it back. One representative week of the stop's schedule is walked in its time zone (so a
// daylight-saving change counts as the hour it is), each firing off until the next start that covers
// the VM, and the week counts 52.18 times a year. With no start pipeline nobody can say when a person
// starts it again: the saving counts nothing, and the note says why.
import type { PipelineDefinition, PipelineSchedule } from '@cloudtrim/contracts/pipelines';
import { isMostlyReserved, readBilledHourly, type VmBill } from '../recommendations/own-rates';
import { isCoveredWithoutFinding, type PipelineCandidate, type StopSaving } from './pipelines.match';
import { createFiringReader, cronHorizonMs } from './pipelines.schedule';
import { yieldToEventLoop } from '../../lib/concurrency';
import { hourMs, weekMs, weeksPerYear } from '../../lib/time';

export interface StartPipeline {
  name: string;
  definition: PipelineDefinition;
}

// What a VM's compute is known to cost: its bill over the settled days, its size's list price.
export interface VmPrice {
  bill?: VmBill;
  listHourly?: number;
}

export interface OffHours {
  hoursPerWeek: number;
  // The start pipelines that end the VM's off hours, in the order they first do.
  startNames: string[];
}

type HourlyRate =
  | { kind: 'rate'; hourly: number; source: 'its bill' | 'list price' }
  | { kind: 'reserved' }
  | { kind: 'unknown' };

// Each target's saving by resource id. Off hours depend only on which start pipelines cover a VM and
// its window hour, so 10,000 VMs walk the week a handful of times.
export async function estimateStopSavings(
  stop: PipelineSchedule,
  starts: readonly StartPipeline[],
  targets: readonly PipelineCandidate[],
  readPrice: (target: PipelineCandidate) => VmPrice,
  from: Date,
): Promise<Map<string, StopSaving>> {
  const usesWindow = [stop, ...starts.map((start) => start.definition.schedule)].some(
    (schedule) => 'maintenanceWindow' in schedule,
  );
  const offHoursByKey = new Map<string, OffHours | undefined>();
  const savings = new Map<string, StopSaving>();
  for (const target of targets) {
    const covering = starts.filter((start) => isCoveredWithoutFinding(start.definition, target));
    const key = `${usesWindow ? target.maintenanceWindow : ''}|${covering.map((start) => starts.indexOf(start)).join(',')}`;
    if (!offHoursByKey.has(key)) {
      offHoursByKey.set(
        key,
        covering.length > 0 ? await findOffHours(stop, covering, target.maintenanceWindow, from) : undefined,
      );
    }
    savings.set(target.resourceId, priceStop(offHoursByKey.get(key), readHourlyRate(readPrice(target))));
  }
  return savings;
}

// The hours a week a VM is off: from each firing of the stop in the week from `from`, until the next
// firing of a start, or the stop's first firing after the week when no start comes first (the VM stays
// off through the stops between), so no hour counts twice. The two streams are merged in order: after
// a stop only the starts' next firing is read, after a start only the stop's, so each cron is read
// about once per firing that changes the VM's state, never once per stop firing per start (a
// minutely stop beside a start that fires once in years is a handful of reads, not ten thousand).
export async function findOffHours(
  stop: PipelineSchedule,
  starts: readonly StartPipeline[],
  windowHour: number,
  from: Date,
): Promise<OffHours> {
  const pause = createPause();
  const until = from.getTime() + weekMs;
  const readStop = createFiringReader(stop, windowHour, until + cronHorizonMs);
  // Where the last off stretch of the week ends at the latest.
  const stopAfterWeek = readStop(until - 1);
  const startsEnd = stopAfterWeek ?? until + cronHorizonMs;
  const readStarts = starts.map((start) => ({
    name: start.name,
    read: createFiringReader(start.definition.schedule, windowHour, startsEnd),
  }));
  const startNames: string[] = [];
  let offMs = 0;
  for (let at = readStop(from.getTime() - 1); at !== undefined && at < until; ) {
    // A cron read costs about a millisecond: a stop and start that alternate all week read hundreds,
    // so the walk lets the API's other requests in every few milliseconds.
    await pause();
    let nextStart: { at: number; name: string } | undefined;
    for (const start of readStarts) {
      const next = start.read(at);
      if (next !== undefined && (!nextStart || next < nextStart.at))
        nextStart = { at: next, name: start.name };
    }
    const end = Math.min(nextStart?.at ?? Infinity, stopAfterWeek ?? Infinity);
    if (end === Infinity) {
      // Neither a start nor another stop within a year: off to the week's end.
      offMs += until - at;
      break;
    }
    offMs += end - at;
    if (nextStart && nextStart.at === end && !startNames.includes(nextStart.name)) {
      startNames.push(nextStart.name);
    }
    if (end === stopAfterWeek) break;
    // The stop's next firing at or after the start that ended this stretch.
    at = readStop(end - 1);
  }
  return { hoursPerWeek: offMs / hourMs, startNames };
}

// Yields to the event loop once `everyMs` of work have passed since it last did.
function createPause(everyMs = 5): () => Promise<void> {
  let since = performance.now();
  return async () => {
    if (performance.now() - since < everyMs) return;
    await yieldToEventLoop();
    since = performance.now();
  };
}

// The VM's compute an hour: what its bill shows it cost (amortized ÷ hours used, so an agreement's
// discount counts), else its size's list price in its region.
function readHourlyRate(price: VmPrice): HourlyRate {
  const billed = readBilledHourly(price.bill);
  if (billed !== undefined) {
    // A VM a reservation mostly pays for costs the same stopped.
    if (isMostlyReserved(price.bill)) return { kind: 'reserved' };
    return { kind: 'rate', hourly: billed, source: 'its bill' };
  }
  if (price.listHourly) return { kind: 'rate', hourly: price.listHourly, source: 'list price' };
  return { kind: 'unknown' };
}

function priceStop(offHours: OffHours | undefined, rate: HourlyRate): StopSaving {
  const isStartedAgain = offHours !== undefined;
  if (rate.kind === 'reserved') {
    return {
      annualSaving: 0,
      note: 'a reservation covers its hours, so stopping it saves nothing on the bill',
      isStartedAgain,
    };
  }
  const priced = rate.kind === 'rate' ? `${formatRate(rate.hourly)} an hour of compute (${rate.source})` : '';
  if (!offHours) {
    return {
      annualSaving: 0,
      note: priced ? `saves ${priced} while off; no pipeline starts it again` : 'no pipeline starts it again',
      isStartedAgain,
    };
  }
  const until = offHours.startNames.length > 0 ? ` (until ${offHours.startNames.join(' or ')})` : '';
  const off = `off ${formatHours(offHours.hoursPerWeek)} a week${until}`;
  if (rate.kind === 'unknown') {
    return { annualSaving: 0, note: `${off}; no price read yet for its size`, isStartedAgain };
  }
  return {
    annualSaving: rate.hourly * offHours.hoursPerWeek * weeksPerYear,
    note: `${off} at ${priced}`,
    isStartedAgain,
  };
}

function formatHours(hours: number): string {
  const rounded = Math.round(hours * 10) / 10;
  return `${rounded.toLocaleString('en-US', { maximumFractionDigits: 1 })} hour${rounded === 1 ? '' : 's'}`;
}

// $0.42, $0.096, $0.1234: cents at least, four places at most.
function formatRate(hourly: number): string {
  return `$${hourly.toFixed(4).replace(/0{1,2}$/, '')}`;
}
