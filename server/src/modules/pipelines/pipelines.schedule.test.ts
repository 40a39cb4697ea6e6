import { describe, expect, it } from 'vitest';
import { checkCron, findDueTick, findNextTick } from './pipelines.schedule';

const london = { cron: '0 9 * * *', timeZone: 'Europe/London' };
const longAgo = new Date('2027-01-01T00:00:00Z');

// Every five minutes of the span (a tick stays due for 15): the ticks the tick job would fire.
function listFiredTicks(from: string, to: string): string[] {
  const fired = new Set<string>();
  for (let at = Date.parse(from); at <= Date.parse(to); at += 5 * 60_000) {
    const tick = findDueTick(london, new Date(at), longAgo);
    if (tick) fired.add(tick.toISOString());
  }
  return [...fired];
}

describe('a cron schedule in Europe/London', () => {
  it('fires at 09:00 local on each side of the spring change (28 March 2027)', () => {
    expect(listFiredTicks('2027-03-26T00:00:00Z', '2027-03-30T00:00:00Z')).toEqual([
      '2027-03-26T09:00:00.000Z',
      '2027-03-27T09:00:00.000Z',
      '2027-03-28T08:00:00.000Z',
      '2027-03-29T08:00:00.000Z',
    ]);
  });

  it('fires at 09:00 local on each side of the autumn change (31 October 2027)', () => {
    expect(listFiredTicks('2027-10-30T00:00:00Z', '2027-11-02T00:00:00Z')).toEqual([
      '2027-10-30T08:00:00.000Z',
      '2027-10-31T09:00:00.000Z',
      '2027-11-01T09:00:00.000Z',
    ]);
  });

  it('is due from the minute of its tick, not the second before', () => {
    expect(findDueTick(london, new Date('2027-03-29T07:59:59Z'), longAgo)).toBeUndefined();
    expect(findDueTick(london, new Date('2027-03-29T08:00:00Z'), longAgo)?.toISOString()).toBe(
      '2027-03-29T08:00:00.000Z',
    );
  });

  it('is due for 15 minutes after its tick, and never for a tick before the pipeline was active', () => {
    expect(findDueTick(london, new Date('2027-03-29T08:15:00Z'), longAgo)?.toISOString()).toBe(
      '2027-03-29T08:00:00.000Z',
    );
    expect(findDueTick(london, new Date('2027-03-29T08:15:01Z'), longAgo)).toBeUndefined();
    expect(
      findDueTick(london, new Date('2027-03-29T08:05:00Z'), new Date('2027-03-29T08:01:00Z')),
    ).toBeUndefined();
  });

  it('names the next run in UTC', () => {
    expect(findNextTick(london, new Date('2027-10-30T12:00:00Z'), [])?.toISOString()).toBe(
      '2027-10-31T09:00:00.000Z',
    );
  });

  it('names the same next run however often it is asked, until that run has come', () => {
    const quarterly = { cron: '*/15 * * * *', timeZone: 'UTC' };
    const next = (at: string) => findNextTick(quarterly, new Date(at), [])?.toISOString();
    expect(next('2027-05-04T10:01:00Z')).toBe('2027-05-04T10:15:00.000Z');
    expect(next('2027-05-04T10:14:59Z')).toBe('2027-05-04T10:15:00.000Z');
    // On the tick, and after it: the one after.
    expect(next('2027-05-04T10:15:00Z')).toBe('2027-05-04T10:30:00.000Z');
    expect(next('2027-05-04T10:31:00Z')).toBe('2027-05-04T10:45:00.000Z');
    // Earlier than any read so far: read again, not answered from the later one.
    expect(next('2027-05-04T09:50:00Z')).toBe('2027-05-04T10:00:00.000Z');
  });
});

describe('the maintenance window', () => {
  it('ticks each hour and names the next hour a resource has its window', () => {
    const window = { maintenanceWindow: true as const };
    expect(findDueTick(window, new Date('2027-03-29T02:10:00Z'), longAgo)?.toISOString()).toBe(
      '2027-03-29T02:00:00.000Z',
    );
    expect(findNextTick(window, new Date('2027-03-29T02:10:00Z'), [2, 23])?.toISOString()).toBe(
      '2027-03-29T23:00:00.000Z',
    );
    expect(findNextTick(window, new Date('2027-03-29T02:10:00Z'), [])).toBeNull();
  });
});

describe('checkCron', () => {
  it('reads five fields and says what is wrong with others', () => {
    expect(checkCron('0 19 * * 1-5', 'Europe/London', longAgo)).toBeUndefined();
    expect(checkCron('61 19 * * *', 'Europe/London', longAgo)).toMatch(/61/);
  });

  it('refuses a cron that never fires within a year', () => {
    expect(checkCron('0 0 31 2,4 *', 'UTC', longAgo)).toBe('it never fires within a year');
    // The fifth Monday of a February: not before 2044.
    expect(checkCron('0 0 * 2 1#5', 'UTC', longAgo)).toBe('it never fires within a year');
    expect(checkCron('0 0 29 2 *', 'UTC', new Date('2027-03-01T00:00:00Z'))).toBeUndefined();
  });
});

describe('a cron saved before crons were checked, that never fires', () => {
  const never = { cron: '0 0 31 2,4 *', timeZone: 'UTC' };

  it('is never due and has no next run, and neither throws', () => {
    expect(findDueTick(never, new Date('2027-03-29T08:00:00Z'), longAgo)).toBeUndefined();
    expect(findNextTick(never, new Date('2027-03-29T08:00:00Z'), [])).toBeNull();
  });
});
