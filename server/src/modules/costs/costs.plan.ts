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
