// Which reads of Cost Management bring a subscription's bill in, and keep it current. Pure: days
// in, reads out.
import type { CostRead } from '../../db/schema';
import { dayMs } from '../../lib/time';

// The backfill: 90 days by day, 13 months by month (the current one included).
export const dailyHistoryDays = 90;
export const monthlyHistoryMonths = 13;
// Cost Management answers at most 31 days by day, and a year, in one query.
const dailyChunkDays = 31;
const monthlyChunkMonths = 6;
// Azure refreshes its cost data every few hours; the last days still move until they settle.
export const refreshHours = 4;
export const settlingDays = 3;

const costTypes = ['ActualCost', 'AmortizedCost'] as const;

export function formatDay(time: number): string {
  return new Date(time).toISOString().slice(0, 10);
}

export function readToday(now: Date): number {
  return Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
}

function addMonths(time: number, months: number): number {
  const date = new Date(time);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + months, 1);
}

function bothTypes(granularity: CostRead['granularity'], from: number, to: number): CostRead[] {
  return costTypes.map((costType) => ({ granularity, costType, from: formatDay(from), to: formatDay(to) }));
}

// Newest first, so the screens fill from today backwards while the rest is read.
export function planBackfill(now: Date): CostRead[] {
  const today = readToday(now);
  const reads: CostRead[] = [];
  const oldestDay = today - (dailyHistoryDays - 1) * dayMs;
  for (let to = today; to >= oldestDay; to -= dailyChunkDays * dayMs) {
    reads.push(...bothTypes('Daily', Math.max(oldestDay, to - (dailyChunkDays - 1) * dayMs), to));
  }
  const thisMonth = addMonths(today, 0);
  const oldestMonth = addMonths(today, -(monthlyHistoryMonths - 1));
  for (
    let start = addMonths(thisMonth, -(monthlyChunkMonths - 1));
    ;
    start = addMonths(start, -monthlyChunkMonths)
  ) {
    const from = Math.max(start, oldestMonth);
    const to = Math.min(addMonths(start, monthlyChunkMonths) - dayMs, today);
    reads.push(...bothTypes('Monthly', from, to));
    if (from === oldestMonth) break;
  }
  return reads;
}

// The days still settling by day, and their months by month.
export function planRefresh(now: Date): CostRead[] {
  const today = readToday(now);
  const from = today - settlingDays * dayMs;
  return [...bothTypes('Daily', from, today), ...bothTypes('Monthly', addMonths(from, 0), today)];
}

// A subscription's bill as far as it has been read: its backfill's reads still to make (none once
// backfilled), or undefined when its backfill has not begun.
export interface BillProgress {
  backfilled: boolean;
  plan: readonly CostRead[] | undefined;
}

// What a range of the bill (`from`–`to`, from the daily or the monthly rows) holds while a backfill
// is still under way: complete, or the days at its end that are in (null when none are). The
// backfill reads newest first, so what is in is the range's end after its latest missing day.
export function readBillCoverage(
  progress: readonly BillProgress[],
  range: { from: string; to: string; source: 'day' | 'month' },
  now: Date,
): { complete: boolean; daysRead: { from: string; to: string } | null } {
  const granularity = range.source === 'day' ? 'Daily' : 'Monthly';
  let latestMissing: string | undefined;
  for (const sync of progress) {
    if (sync.backfilled) continue;
    const pending = (sync.plan && sync.plan.length > 0 ? sync.plan : planBackfill(now)).filter(
      (read) => read.granularity === granularity,
    );
    for (const read of pending) {
      if (read.to < range.from || read.from > range.to) continue;
      const missing = read.to < range.to ? read.to : range.to;
      if (latestMissing === undefined || missing > latestMissing) latestMissing = missing;
    }
  }
  if (latestMissing === undefined) return { complete: true, daysRead: { from: range.from, to: range.to } };
  if (latestMissing >= range.to) return { complete: false, daysRead: null };
  return { complete: false, daysRead: { from: formatDay(Date.parse(latestMissing) + dayMs), to: range.to } };
}
