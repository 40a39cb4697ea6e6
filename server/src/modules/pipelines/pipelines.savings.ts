// What stopping a running VM on a schedule saves: a stop is half a schedule, and the VM saves its
// compute (its disks keep billing) only while it is off, until one of the team's start pipelines
// brings it back. One representative week of the stop's schedule is walked in its time zone (so a
// daylight-saving change counts as the hour it is), each firing off until the next start that covers
// the VM, and the week counts 52.18 times a year. With no start pipeline nobody can say when a person
// starts it again: the saving counts nothing, and the note says why.
import type { PipelineDefinition, PipelineSchedule } from '@cloudtrim/contracts/pipelines';
import { isMostlyReserved, readBilledHourly, type VmBill } from '../recommendations/own-rates';
import { isCoveredWithoutFinding, type PipelineCandidate, type StopSaving } from './pipelines.match';
import { findNextTick } from './pipelines.schedule';
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
export function estimateStopSavings(
  stop: PipelineSchedule,
  starts: readonly StartPipeline[],
  targets: readonly PipelineCandidate[],
  readPrice: (target: PipelineCandidate) => VmPrice,
  from: Date,
): Map<string, StopSaving> {
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
        covering.length > 0 ? findOffHours(stop, covering, target.maintenanceWindow, from) : undefined,
      );
    }
    savings.set(target.resourceId, priceStop(offHoursByKey.get(key), readHourlyRate(readPrice(target))));
  }
  return savings;
}

// The hours a week a VM is off: from each firing of the stop in the week from `from`, until the next
// firing of a start, or of the stop again when no start comes first (the VM stays off, and that firing
// counts on), so no hour counts twice. About a dozen cron reads a week: each costs milliseconds
// (cron-parser steps through the zone's minutes), hence the caller's sharing of weeks.
export function findOffHours(
  stop: PipelineSchedule,
  starts: readonly StartPipeline[],
  windowHour: number,
  from: Date,
): OffHours {
  const until = from.getTime() + weekMs;
  const startNames: string[] = [];
  let offMs = 0;
  let firing = findNextTick(stop, new Date(from.getTime() - 1), [windowHour]);
  while (firing && firing.getTime() < until) {
    const nextStop = findNextTick(stop, firing, [windowHour]);
    let nextStart: { at: number; name: string } | undefined;
    for (const start of starts) {
      const at = findNextTick(start.definition.schedule, firing, [windowHour])?.getTime();
      if (at !== undefined && (!nextStart || at < nextStart.at)) nextStart = { at, name: start.name };
    }
    const end = Math.min(nextStart?.at ?? Infinity, nextStop?.getTime() ?? Infinity);
    if (end === Infinity) break;
    offMs += end - firing.getTime();
    if (nextStart && nextStart.at === end && !startNames.includes(nextStart.name)) {
      startNames.push(nextStart.name);
    }
    firing = nextStop;
  }
  return { hoursPerWeek: offMs / hourMs, startNames };
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
