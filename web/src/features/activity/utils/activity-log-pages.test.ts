import { describe, expect, it } from 'vitest';
import {
  countKnownActivityEntries,
  getActivityLogPageCount,
  isActivityLogPagerShown,
} from './activity-log-pages';

describe('getActivityLogPageCount', () => {
  it('ends at the current page when fewer than 30 entries come back', () => {
    expect(getActivityLogPageCount(1, 0)).toBe(1);
    expect(getActivityLogPageCount(1, 29)).toBe(1);
    expect(getActivityLogPageCount(7, 12)).toBe(7);
  });

  it('shows at least 15 pages while pages are full', () => {
    expect(getActivityLogPageCount(1, 30)).toBe(15);
    expect(getActivityLogPageCount(5, 30)).toBe(15);
  });

  it('shows at least ten pages beyond a full current page', () => {
    expect(getActivityLogPageCount(6, 30)).toBe(16);
    expect(getActivityLogPageCount(40, 30)).toBe(50);
  });
});

describe('isActivityLogPagerShown', () => {
  it('hides the pager on a first page that is not full', () => {
    expect(isActivityLogPagerShown(1, 0)).toBe(false);
    expect(isActivityLogPagerShown(1, 29)).toBe(false);
  });

  it('shows it on a full first page and on every later page', () => {
    expect(isActivityLogPagerShown(1, 30)).toBe(true);
    expect(isActivityLogPagerShown(2, 0)).toBe(true);
    expect(isActivityLogPagerShown(3, 5)).toBe(true);
  });
});

describe('countKnownActivityEntries', () => {
  it('counts every earlier page as full', () => {
    expect(countKnownActivityEntries(1, 12)).toBe(12);
    expect(countKnownActivityEntries(3, 30)).toBe(90);
    expect(countKnownActivityEntries(4, 7)).toBe(97);
  });
});
