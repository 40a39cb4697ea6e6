// A budget's periods: whole months from its start date (a month's first day), one, three or twelve at
// a time, repeating. Pure, on UTC days spelled YYYY-MM-DD.
import type { BudgetPeriod } from '@cloudtrim/contracts/budgets';

const periodMonths: Record<BudgetPeriod, number> = { monthly: 1, quarterly: 3, yearly: 12 };

export interface BudgetSpan {
  from: string;
  to: string;
}

// The period that holds `today`; before the start date, the first one.
export function findBudgetSpan(period: BudgetPeriod, startDate: string, today: string): BudgetSpan {
  const months = periodMonths[period];
  const start = toMonthIndex(startDate);
  const elapsed = Math.max(0, toMonthIndex(today) - start);
  const first = start + Math.floor(elapsed / months) * months;
  return { from: formatMonthStart(first), to: formatDayBefore(first + months) };
}

function toMonthIndex(day: string): number {
  return Number(day.slice(0, 4)) * 12 + Number(day.slice(5, 7)) - 1;
}

function formatMonthStart(monthIndex: number): string {
  return new Date(Date.UTC(Math.floor(monthIndex / 12), monthIndex % 12, 1)).toISOString().slice(0, 10);
}

function formatDayBefore(monthIndex: number): string {
  return new Date(Date.UTC(Math.floor(monthIndex / 12), monthIndex % 12, 0)).toISOString().slice(0, 10);
}
