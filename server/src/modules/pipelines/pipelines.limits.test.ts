import { describe, expect, it } from 'vitest';
import { checkCronInterval, findOverTeamBlastRadius, rankByTeam } from './pipelines.limits';

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

describe('findOverTeamBlastRadius', () => {
  it('keeps the largest savings the team has room for, and answers the rest', () => {
    const items = [10, 300, 20, 200].map((annualSaving, id) => ({ id, annualSaving }));
    expect(findOverTeamBlastRadius(items, 2).map((item) => item.annualSaving)).toEqual([20, 10]);
    expect(findOverTeamBlastRadius(items, 0)).toHaveLength(4);
    // A team over its limit already (a limit lowered within the hour) has no room at all.
    expect(findOverTeamBlastRadius(items, -3)).toHaveLength(4);
    expect(findOverTeamBlastRadius(items, 9)).toEqual([]);
  });
});

describe('rankByTeam', () => {
  it("ranks each pipeline by its place in its own team's turn, so every team's first goes first", () => {
    const due = ['busy', 'busy', 'busy', 'other', 'busy', 'third', 'other'].map((teamId, index) => ({
      teamId,
      pipelineId: `p${index}`,
    }));
    expect(rankByTeam(due).map((item) => [item.pipelineId, item.priority])).toEqual([
      ['p0', -0],
      ['p1', -1],
      ['p2', -2],
      ['p3', -0],
      ['p4', -3],
      ['p5', -0],
      ['p6', -1],
    ]);
  });
});
