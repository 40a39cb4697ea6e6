import { parseDay } from './cost-periods';

// UTC days as the cost screens write them: "Nov 3" under a daily bar, "Nov 2026" under a monthly one,
// "Nov 3, 2026" in a period's description. Formatters are built on first use and kept.
const formatters = new Map<string, Intl.DateTimeFormat>();

const styles = {
  day: { month: 'short', day: 'numeric' },
  month: { month: 'short', year: 'numeric' },
  date: { month: 'short', day: 'numeric', year: 'numeric' },
} as const satisfies Record<string, Intl.DateTimeFormatOptions>;

function format(day: string, style: keyof typeof styles): string {
  let formatter = formatters.get(style);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', { ...styles[style], timeZone: 'UTC' });
    formatters.set(style, formatter);
  }
  return formatter.format(parseDay(day));
}

export function formatBucketLabel(day: string, granularity: 'daily' | 'monthly'): string {
  return format(day, granularity === 'daily' ? 'day' : 'month');
}

export function formatCostDate(day: string): string {
  return format(day, 'date');
}
