import { describe, expect, it } from 'vitest';
import {
  describeAction,
  describeOutcome,
  describeSchedule,
  formatNextRun,
  formatSaving,
} from './pipeline-text';

const london = { cron: '0 19 * * 1-5', timeZone: 'Europe/London' };

describe('pipeline text', () => {
  it('writes the next run on the schedule’s own clock, either side of a daylight-saving change', () => {
    // 2027: London moves to summer time on 28 March and back on 31 October.
    expect(formatNextRun('2027-03-26T19:00:00.000Z', london)).toBe('26 Mar 2027, 19:00 Europe/London');
    expect(formatNextRun('2027-03-29T18:00:00.000Z', london)).toBe('29 Mar 2027, 19:00 Europe/London');
    expect(formatNextRun('2027-11-01T19:00:00.000Z', london)).toBe('1 Nov 2027, 19:00 Europe/London');
    expect(formatNextRun(null, london)).toBe('N/A');
    expect(formatNextRun('2027-03-29T02:00:00.000Z', { maintenanceWindow: true })).toMatch(/ UTC$/);
  });

  it('writes schedules, actions, outcomes and savings', () => {
    expect(describeSchedule(london)).toBe('0 19 * * 1-5 (Europe/London)');
    expect(describeSchedule({ maintenanceWindow: true })).toBe('Each resource’s maintenance window');
    expect(describeAction({ type: 'applyRecommendation' })).toBe('Apply recommendation');
    expect(describeAction({ type: 'tag', tag: { key: 'owner', value: 'finops' } })).toBe(
      'Tag owner = finops',
    );
    expect(describeOutcome({ outcome: 'skipped', reason: 'notEnoughInARow' })).toBe(
      'Skipped: not matched enough runs in a row',
    );
    expect(describeOutcome({ outcome: 'acted', reason: null })).toBe('Acted');
    expect(formatSaving(1234567.891)).toBe('$1,234,567.89');
  });
});
