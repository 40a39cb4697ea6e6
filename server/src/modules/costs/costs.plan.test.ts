import { describe, expect, it } from 'vitest';
import { planBackfill, planRefresh, readBillCoverage } from './costs.plan';
import { dayMs } from '../../lib/time';

const daysOf = (from: string, to: string) => (Date.parse(to) - Date.parse(from)) / dayMs + 1;

describe('planBackfill', () => {
  const now = new Date('2026-11-24T15:00:00Z');
  const reads = planBackfill(now);

  it('reads 90 days by day, newest first, in periods Cost Management answers (31 days at most)', () => {
    const daily = reads.filter((read) => read.granularity === 'Daily' && read.costType === 'ActualCost');
    expect(daily[0]).toMatchObject({ to: '2026-11-24' });
    expect(daily.at(-1)).toMatchObject({ from: '2026-08-27' });
    expect(daily.every((read) => daysOf(read.from, read.to) <= 31)).toBe(true);
    expect(daily.reduce((total, read) => total + daysOf(read.from, read.to), 0)).toBe(90);
    for (let index = 1; index < daily.length; index += 1) {
      expect(daysOf(daily[index]!.to, daily[index - 1]!.from)).toBe(2);
    }
  });

  it('reads 13 months by month, this one included, each period within a year', () => {
    const monthly = reads.filter(
      (read) => read.granularity === 'Monthly' && read.costType === 'AmortizedCost',
    );
    expect(monthly[0]).toMatchObject({ to: '2026-11-24' });
    expect(monthly.at(-1)).toMatchObject({ from: '2025-11-01' });
    expect(monthly.every((read) => daysOf(read.from, read.to) <= 366)).toBe(true);
    const covered = monthly.reduce((total, read) => total + daysOf(read.from, read.to), 0);
    expect(covered).toBe(daysOf('2025-11-01', '2026-11-24'));
  });

  it('reads every period as actual and as amortized cost', () => {
    const actual = reads.filter((read) => read.costType === 'ActualCost');
    const amortized = reads.filter((read) => read.costType === 'AmortizedCost');
    expect(amortized.map(({ from, to, granularity }) => ({ from, to, granularity }))).toEqual(
      actual.map(({ from, to, granularity }) => ({ from, to, granularity })),
    );
  });
});

describe('planRefresh', () => {
  it('re-reads the settling days and their months, across a month boundary', () => {
    expect(planRefresh(new Date('2026-12-02T08:00:00Z'))).toEqual([
      { granularity: 'Daily', costType: 'ActualCost', from: '2026-11-29', to: '2026-12-02' },
      { granularity: 'Daily', costType: 'AmortizedCost', from: '2026-11-29', to: '2026-12-02' },
      { granularity: 'Monthly', costType: 'ActualCost', from: '2026-11-01', to: '2026-12-02' },
      { granularity: 'Monthly', costType: 'AmortizedCost', from: '2026-11-01', to: '2026-12-02' },
    ]);
  });
});

describe('readBillCoverage', () => {
  const now = new Date('2026-11-24T15:00:00Z');
  const backfill = planBackfill(now);
  const november = { from: '2026-11-01', to: '2026-11-24', source: 'day' } as const;

  it('is complete once every subscription in scope is backfilled', () => {
    expect(readBillCoverage([{ backfilled: true, plan: [] }], november, now)).toEqual({
      complete: true,
      daysRead: { from: '2026-11-01', to: '2026-11-24' },
    });
  });

  it('has nothing in for a backfill not yet begun', () => {
    expect(readBillCoverage([{ backfilled: false, plan: undefined }], november, now)).toEqual({
      complete: false,
      daysRead: null,
    });
  });

  it('has the newest days in as the backfill goes back, and the older ones missing', () => {
    // The newest month by day is read (both cost types), the next one not yet.
    const rest = backfill.slice(2);
    const october = { from: '2026-10-01', to: '2026-10-31', source: 'day' } as const;
    expect(
      readBillCoverage(
        [
          { backfilled: true, plan: [] },
          { backfilled: false, plan: rest },
        ],
        october,
        now,
      ),
    ).toEqual({
      complete: false,
      daysRead: { from: '2026-10-25', to: '2026-10-31' },
    });
    expect(readBillCoverage([{ backfilled: false, plan: rest }], november, now).complete).toBe(true);
    // The months by month come after the days: a year's range waits for them.
    const year = { from: '2026-01-01', to: '2026-11-24', source: 'month' } as const;
    expect(readBillCoverage([{ backfilled: false, plan: rest }], year, now)).toEqual({
      complete: false,
      daysRead: null,
    });
  });
});
