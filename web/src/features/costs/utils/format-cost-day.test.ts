import { describe, expect, it } from 'vitest';
import { formatBucketLabel, formatCostDate } from './format-cost-day';

describe('cost days as written', () => {
  it('writes a daily bar’s day, a monthly bar’s month and a period’s dates as en-US does, in UTC', () => {
    const days = ['2026-01-01', '2026-03-09', '2026-12-31'];
    const intlDay = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
    const intlMonth = new Intl.DateTimeFormat('en-US', { month: 'short', year: 'numeric', timeZone: 'UTC' });
    const intlDate = new Intl.DateTimeFormat('en-US', {
      month: 'short',
      day: 'numeric',
      year: 'numeric',
      timeZone: 'UTC',
    });
    for (const day of days) {
      const date = new Date(`${day}T00:00:00Z`);
      expect(formatBucketLabel(day, 'daily')).toBe(intlDay.format(date));
      expect(formatBucketLabel(day, 'monthly')).toBe(intlMonth.format(date));
      expect(formatCostDate(day)).toBe(intlDate.format(date));
    }
    expect(formatCostDate('2026-03-09')).toBe('Mar 9, 2026');
  });
});
