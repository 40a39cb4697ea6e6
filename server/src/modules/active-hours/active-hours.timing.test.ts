import { describe, expect, it } from 'vitest';
import { findLastBoundary, listRecentBoundaryHours } from './active-hours.timing';

const at = (text: string) => new Date(`${text}Z`);

describe('findLastBoundary', () => {
  it('is the start once the start hour has begun, and the end once the end hour has', () => {
    expect(findLastBoundary(at('2026-03-10T08:00:00'), 8, 18)).toEqual({
      at: at('2026-03-10T08:00:00'),
      action: 'start',
    });
    expect(findLastBoundary(at('2026-03-10T17:59:59'), 8, 18)).toEqual({
      at: at('2026-03-10T08:00:00'),
      action: 'start',
    });
    expect(findLastBoundary(at('2026-03-10T18:00:30'), 8, 18)).toEqual({
      at: at('2026-03-10T18:00:00'),
      action: 'deallocate',
    });
    // Before today's start, yesterday's end is the last boundary.
    expect(findLastBoundary(at('2026-03-10T07:59:00'), 8, 18)).toEqual({
      at: at('2026-03-09T18:00:00'),
      action: 'deallocate',
    });
  });

  it('wraps over midnight when the start comes after the end', () => {
    expect(findLastBoundary(at('2026-03-10T23:30:00'), 22, 6)).toEqual({
      at: at('2026-03-10T22:00:00'),
      action: 'start',
    });
    expect(findLastBoundary(at('2026-03-11T05:59:00'), 22, 6)).toEqual({
      at: at('2026-03-10T22:00:00'),
      action: 'start',
    });
    expect(findLastBoundary(at('2026-03-11T06:00:10'), 22, 6)).toEqual({
      at: at('2026-03-11T06:00:00'),
      action: 'deallocate',
    });
    // Across a month's end as well.
    expect(findLastBoundary(at('2026-03-01T00:10:00'), 0, 23)).toEqual({
      at: at('2026-03-01T00:00:00'),
      action: 'start',
    });
    expect(findLastBoundary(at('2026-03-01T00:10:00'), 1, 23)).toEqual({
      at: at('2026-02-28T23:00:00'),
      action: 'deallocate',
    });
  });

  it('asks for nothing when the hours are equal or not set', () => {
    expect(findLastBoundary(at('2026-03-10T08:00:00'), 8, 8)).toBeUndefined();
    expect(findLastBoundary(at('2026-03-10T08:00:00'), null, 18)).toBeUndefined();
    expect(findLastBoundary(at('2026-03-10T08:00:00'), 8, null)).toBeUndefined();
  });
});

describe('listRecentBoundaryHours', () => {
  it('names the hour now and the one a grace period reaches back into', () => {
    expect(listRecentBoundaryHours(at('2026-03-10T08:05:00'), 15 * 60_000).sort()).toEqual([7, 8]);
    expect(listRecentBoundaryHours(at('2026-03-10T08:20:00'), 15 * 60_000)).toEqual([8]);
    expect(listRecentBoundaryHours(at('2026-03-10T00:05:00'), 15 * 60_000).sort((a, b) => a - b)).toEqual([
      0, 23,
    ]);
  });
});
