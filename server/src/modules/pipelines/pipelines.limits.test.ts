import { describe, expect, it } from 'vitest';
import { checkCronInterval } from './pipelines.limits';

const now = new Date('2027-03-01T00:00:00Z');

describe('checkCronInterval', () => {
  it('lets an acting pipeline fire every 15 minutes and no more often', () => {
    expect(checkCronInterval('*/15 * * * *', 'UTC', now, 15)).toBeUndefined();
    expect(checkCronInterval('0 19 * * 1-5', 'Europe/London', now, 15)).toBeUndefined();
    expect(checkCronInterval('*/10 * * * *', 'UTC', now, 15)).toMatch(/at most every 15 minutes/);
    // Two firings close together once a day are as close as a cron every minute.
    expect(checkCronInterval('0,5 9 * * *', 'UTC', now, 15)).toMatch(/at most every 15 minutes/);
  });

  it('lets a notice or dry run fire every 5 minutes and no more often', () => {
    expect(checkCronInterval('*/5 * * * *', 'UTC', now, 5)).toBeUndefined();
    expect(checkCronInterval('* * * * *', 'UTC', now, 5)).toBe('a pipeline may run at most every 5 minutes');
  });
});
