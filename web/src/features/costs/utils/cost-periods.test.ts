import { describe, expect, it } from 'vitest';
import { getBucketKey, listPeriodBuckets, resolveCostPeriod } from './cost-periods';

const at = (isoTime: string) => new Date(isoTime);

describe('resolveCostPeriod', () => {
  it('compares this month so far with the same days of last month, kept inside a shorter month', () => {
    expect(resolveCostPeriod('this-month', at('2026-03-31T22:00:00Z'))).toEqual({
      from: '2026-03-01',
      to: '2026-03-31',
      granularity: 'daily',
      previous: { from: '2026-02-01', to: '2026-02-28' },
    });
    expect(resolveCostPeriod('this-month', at('2026-01-05T00:30:00Z'))).toMatchObject({
      from: '2026-01-01',
      to: '2026-01-05',
      previous: { from: '2025-12-01', to: '2025-12-05' },
    });
  });

  it('takes last month whole against the month before it', () => {
    expect(resolveCostPeriod('last-month', at('2026-03-15T12:00:00Z'))).toEqual({
      from: '2026-02-01',
      to: '2026-02-28',
      granularity: 'daily',
      previous: { from: '2026-01-01', to: '2026-01-31' },
    });
  });

  it('takes the last 30 and 90 days up to today against as many days before', () => {
    expect(resolveCostPeriod('last-30-days', at('2026-03-15T12:00:00Z'))).toEqual({
      from: '2026-02-14',
      to: '2026-03-15',
      granularity: 'daily',
      previous: { from: '2026-01-15', to: '2026-02-13' },
    });
    const quarter = resolveCostPeriod('last-90-days', at('2026-03-15T12:00:00Z'));
    expect(listPeriodBuckets(quarter, 'daily')).toHaveLength(90);
    expect(listPeriodBuckets(quarter.previous, 'daily')).toHaveLength(90);
    expect(quarter.previous.to).toBe('2025-12-15');
  });

  it('charts the last 12 months by month, from the first of the month 11 months back', () => {
    const year = resolveCostPeriod('last-12-months', at('2026-03-15T12:00:00Z'));
    expect(year).toEqual({
      from: '2025-04-01',
      to: '2026-03-15',
      granularity: 'monthly',
      previous: { from: '2024-04-01', to: '2025-03-15' },
    });
    expect(listPeriodBuckets(year, 'monthly')).toEqual([
      '2025-04-01',
      '2025-05-01',
      '2025-06-01',
      '2025-07-01',
      '2025-08-01',
      '2025-09-01',
      '2025-10-01',
      '2025-11-01',
      '2025-12-01',
      '2026-01-01',
      '2026-02-01',
      '2026-03-01',
    ]);
  });

  it('uses UTC days whatever the clock says locally', () => {
    expect(resolveCostPeriod('last-30-days', at('2026-03-15T23:59:59Z')).to).toBe('2026-03-15');
    expect(resolveCostPeriod('last-30-days', at('2026-03-16T00:00:00Z')).to).toBe('2026-03-16');
  });
});

describe('listPeriodBuckets and getBucketKey', () => {
  it('lists every day of a range, across a month end', () => {
    expect(listPeriodBuckets({ from: '2026-02-27', to: '2026-03-02' }, 'daily')).toEqual([
      '2026-02-27',
      '2026-02-28',
      '2026-03-01',
      '2026-03-02',
    ]);
    expect(listPeriodBuckets({ from: '2026-03-02', to: '2026-03-02' }, 'daily')).toEqual(['2026-03-02']);
  });

  it('puts a point in its day, or its month', () => {
    expect(getBucketKey('2026-03-17', 'daily')).toBe('2026-03-17');
    expect(getBucketKey('2026-03-17', 'monthly')).toBe('2026-03-01');
    expect(getBucketKey('2026-03-17T00:00:00Z', 'daily')).toBe('2026-03-17');
  });
});
