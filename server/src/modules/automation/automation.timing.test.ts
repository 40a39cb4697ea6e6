import { describe, expect, it } from 'vitest';
import { toSteps } from './automation.guard';
import { findNextWindowStart } from './automation.timing';

describe('findNextWindowStart', () => {
  it('is later today when the hour is still to come', () => {
    expect(findNextWindowStart(new Date('2026-03-10T01:15:00Z'), 2).toISOString()).toBe(
      '2026-03-10T02:00:00.000Z',
    );
  });

  it('is tomorrow once the window has started, so a change never lands late inside one', () => {
    expect(findNextWindowStart(new Date('2026-03-10T02:30:00Z'), 2).toISOString()).toBe(
      '2026-03-11T02:00:00.000Z',
    );
    expect(findNextWindowStart(new Date('2026-03-10T23:59:59Z'), 0).toISOString()).toBe(
      '2026-03-11T00:00:00.000Z',
    );
  });

  it('is now when now is exactly the start of the window', () => {
    expect(findNextWindowStart(new Date('2026-03-10T02:00:00Z'), 2).toISOString()).toBe(
      '2026-03-10T02:00:00.000Z',
    );
  });

  it('crosses month and year ends in UTC', () => {
    expect(findNextWindowStart(new Date('2026-12-31T23:30:00Z'), 23).toISOString()).toBe(
      '2027-01-01T23:00:00.000Z',
    );
  });
});

describe('toSteps', () => {
  it("averages 1-minute values into the guard rule's steps and leaves a partial last step out", () => {
    expect(toSteps([10, 20, 30, 40, 50, 60, 70], 3)).toEqual([20, 50]);
    expect(toSteps([], 5)).toEqual([]);
  });
});
