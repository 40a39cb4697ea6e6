// The periods /analysis offers, as UTC day ranges, each with the period it is compared with: the same
// length just before it, or for this month the same days of last month (as the summary compares).
import { dayMs } from '@cloudtrim/contracts/time';

export const costPeriods = [
  'this-month',
  'last-month',
  'last-30-days',
  'last-90-days',
  'last-12-months',
] as const;
export type CostPeriod = (typeof costPeriods)[number];

export const costPeriodLabels: Record<CostPeriod, string> = {
  'this-month': 'This month',
  'last-month': 'Last month',
  'last-30-days': 'Last 30 days',
  'last-90-days': 'Last 90 days',
  'last-12-months': 'Last 12 months',
};

export const defaultCostPeriod: CostPeriod = 'this-month';

/** UTC days spelled YYYY-MM-DD, both ends included. */
export interface DayRange {
  from: string;
  to: string;
}

export interface ResolvedCostPeriod extends DayRange {
  /** Twelve months are charted by month; every shorter period by day. */
  granularity: 'daily' | 'monthly';
  previous: DayRange;
}

export function formatDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

export function parseDay(day: string): Date {
  return new Date(`${day}T00:00:00Z`);
}

export function addDays(day: string, days: number): string {
  return formatDay(new Date(parseDay(day).getTime() + days * dayMs));
}

/** The given day of the month `monthOffset` months from `date`'s, kept inside that month. */
function createDayOfMonth(date: Date, monthOffset: number, dayOfMonth: number): string {
  const firstOfMonth = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + monthOffset, 1));
  const lastDayOfMonth = new Date(
    Date.UTC(firstOfMonth.getUTCFullYear(), firstOfMonth.getUTCMonth() + 1, 0),
  ).getUTCDate();
  firstOfMonth.setUTCDate(Math.min(dayOfMonth, lastDayOfMonth));
  return formatDay(firstOfMonth);
}

function createTrailingDays(today: string, days: number): ResolvedCostPeriod {
  const from = addDays(today, -(days - 1));
  return {
    from,
    to: today,
    granularity: 'daily',
    previous: { from: addDays(from, -days), to: addDays(from, -1) },
  };
}

/** The period's days as of `now` (the bill's days are UTC days). */
export function resolveCostPeriod(period: CostPeriod, now: Date = new Date()): ResolvedCostPeriod {
  const today = formatDay(now);
  const dayOfMonth = now.getUTCDate();
  switch (period) {
    case 'this-month':
      return {
        from: createDayOfMonth(now, 0, 1),
        to: today,
        granularity: 'daily',
        previous: { from: createDayOfMonth(now, -1, 1), to: createDayOfMonth(now, -1, dayOfMonth) },
      };
    case 'last-month':
      return {
        from: createDayOfMonth(now, -1, 1),
        to: createDayOfMonth(now, -1, 31),
        granularity: 'daily',
        previous: { from: createDayOfMonth(now, -2, 1), to: createDayOfMonth(now, -2, 31) },
      };
    case 'last-30-days':
      return createTrailingDays(today, 30);
    case 'last-90-days':
      return createTrailingDays(today, 90);
    case 'last-12-months':
      return {
        from: createDayOfMonth(now, -11, 1),
        to: today,
        granularity: 'monthly',
        previous: { from: createDayOfMonth(now, -23, 1), to: createDayOfMonth(now, -12, dayOfMonth) },
      };
  }
}

/** Every day (daily) or every month's first day (monthly) the range touches, in order. */
export function listPeriodBuckets({ from, to }: DayRange, granularity: 'daily' | 'monthly'): string[] {
  const buckets: string[] = [];
  if (granularity === 'daily') {
    for (let day = from; day <= to; day = addDays(day, 1)) buckets.push(day);
    return buckets;
  }
  const start = parseDay(from);
  for (let offset = 0; ; offset += 1) {
    const month = createDayOfMonth(start, offset, 1);
    if (month > to) return buckets;
    buckets.push(month);
  }
}

/** A point's bucket: its day, or its month's first day. */
export function getBucketKey(date: string, granularity: 'daily' | 'monthly'): string {
  const day = date.slice(0, 10);
  return granularity === 'daily' ? day : `${day.slice(0, 7)}-01`;
}
