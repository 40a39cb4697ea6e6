import { pageSize } from '@cloudtrim/contracts/paging';

// SPEC §9: the server does not tell how long the activity log is, so the pager guesses from the page
// in hand. A short page is the last one; a full page promises at least ten more, and at least 15 in all.
export const activityPagesAhead = 10;
export const activityMinimumPageCount = 15;

export function getActivityLogPageCount(currentPage: number, entryCount: number): number {
  if (entryCount < pageSize) return currentPage;
  return Math.max(currentPage + activityPagesAhead, activityMinimumPageCount);
}

/** The pager shows once there is somewhere to go: past page 1, or a full first page. */
export function isActivityLogPagerShown(currentPage: number, entryCount: number): boolean {
  return currentPage > 1 || entryCount >= pageSize;
}

/** The entries known so far: every earlier page was full. */
export function countKnownActivityEntries(currentPage: number, entryCount: number): number {
  return (currentPage - 1) * pageSize + entryCount;
}
