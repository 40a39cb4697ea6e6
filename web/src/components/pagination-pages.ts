import { pagingSummaryText } from '@cloudtrim/contracts/messages';

// Pure page arithmetic behind <Pagination>: which page buttons show and what the summary line says.

/** More pages than this and the bar collapses runs of pages into ellipses (SPEC §9). */
export const maxPageButtons = 7;

export type PageItem = { kind: 'page'; page: number } | { kind: 'ellipsis'; position: 'start' | 'end' };

/** Always at least one page, so an empty list still reads 'Page 1 of 1'. */
export function getPageCount(totalEntries: number, pageSize: number): number {
  return Math.max(1, Math.ceil(Math.max(0, totalEntries) / pageSize));
}

export function clampPage(page: number, pageCount: number): number {
  return Math.min(Math.max(1, Math.trunc(page)), Math.max(1, pageCount));
}

function createPageRange(first: number, last: number): PageItem[] {
  return Array.from({ length: last - first + 1 }, (_, index) => ({ kind: 'page', page: first + index }));
}

/**
 * Up to 7 pages: all of them. Beyond: always seven slots, with the first and last page always
 * shown and an ellipsis standing for each hidden run, e.g. 1 … 9 10 11 … 20.
 */
export function getPageItems(currentPage: number, pageCount: number): PageItem[] {
  const lastPage = Math.max(1, pageCount);
  if (lastPage <= maxPageButtons) return createPageRange(1, lastPage);

  const page = clampPage(currentPage, lastPage);
  const startEllipsis: PageItem = { kind: 'ellipsis', position: 'start' };
  const endEllipsis: PageItem = { kind: 'ellipsis', position: 'end' };
  const firstPage: PageItem = { kind: 'page', page: 1 };
  const finalPage: PageItem = { kind: 'page', page: lastPage };

  if (page <= 4) return [...createPageRange(1, 5), endEllipsis, finalPage];
  if (page >= lastPage - 3) return [firstPage, startEllipsis, ...createPageRange(lastPage - 4, lastPage)];
  return [firstPage, startEllipsis, ...createPageRange(page - 1, page + 1), endEllipsis, finalPage];
}

export interface EntryRange {
  firstEntry: number;
  lastEntry: number;
}

export function getEntryRange(currentPage: number, pageSize: number, totalEntries: number): EntryRange {
  if (totalEntries <= 0) return { firstEntry: 0, lastEntry: 0 };
  const page = clampPage(currentPage, getPageCount(totalEntries, pageSize));
  return {
    firstEntry: (page - 1) * pageSize + 1,
    lastEntry: Math.min(page * pageSize, totalEntries),
  };
}

export interface PaginationSummaryInput {
  currentPage: number;
  pageCount: number;
  pageSize: number;
  totalEntries: number;
}

export function formatPaginationSummary({
  currentPage,
  pageCount,
  pageSize,
  totalEntries,
}: PaginationSummaryInput) {
  const { firstEntry, lastEntry } = getEntryRange(currentPage, pageSize, totalEntries);
  const page = clampPage(currentPage, pageCount);
  return pagingSummaryText(firstEntry, lastEntry, totalEntries, page, Math.max(1, pageCount));
}
