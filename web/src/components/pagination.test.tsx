// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Pagination } from './pagination';
import {
  formatPaginationSummary,
  getEntryRange,
  getPageCount,
  getPageItems,
  type PageItem,
} from './pagination-pages';

afterEach(cleanup);

/** Renders page items the way a user reads the bar, e.g. '1 … 4 5 6 7 8'. */
function describeItems(items: PageItem[]): string {
  return items.map((item) => (item.kind === 'page' ? String(item.page) : '…')).join(' ');
}

function readPageButtons(): string {
  const navigation = screen.getByRole('navigation', { name: 'Pagination' });
  return within(navigation)
    .getAllByRole('listitem')
    .map((item) => item.textContent)
    .join(' ');
}

describe('getPageCount', () => {
  it('counts one page for an empty list', () => {
    expect(getPageCount(0, 30)).toBe(1);
  });

  it('rounds a partially filled last page up', () => {
    expect(getPageCount(30, 30)).toBe(1);
    expect(getPageCount(31, 30)).toBe(2);
    expect(getPageCount(210, 30)).toBe(7);
    expect(getPageCount(211, 30)).toBe(8);
  });
});

describe('getPageItems', () => {
  it('shows the single page of a one-page list', () => {
    expect(describeItems(getPageItems(1, 1))).toBe('1');
  });

  it('shows every page, without ellipses, up to exactly 7 pages', () => {
    for (const page of [1, 4, 7]) expect(describeItems(getPageItems(page, 7))).toBe('1 2 3 4 5 6 7');
  });

  it('collapses the end of 8 pages on the first page', () => {
    expect(describeItems(getPageItems(1, 8))).toBe('1 2 3 4 5 … 8');
  });

  it('keeps the first and last page of 8 pages in the middle', () => {
    expect(describeItems(getPageItems(4, 8))).toBe('1 2 3 4 5 … 8');
    expect(describeItems(getPageItems(5, 8))).toBe('1 … 4 5 6 7 8');
  });

  it('collapses the start of 8 pages on the last page', () => {
    expect(describeItems(getPageItems(8, 8))).toBe('1 … 4 5 6 7 8');
  });

  it('puts an ellipsis on each side of a page deep inside a long list', () => {
    expect(describeItems(getPageItems(10, 20))).toBe('1 … 9 10 11 … 20');
  });

  it('never shows more than 7 slots and always the first and last page', () => {
    for (let pageCount = 8; pageCount <= 40; pageCount += 1) {
      for (let page = 1; page <= pageCount; page += 1) {
        const items = getPageItems(page, pageCount);
        expect(items).toHaveLength(7);
        expect(items[0]).toEqual({ kind: 'page', page: 1 });
        expect(items.at(-1)).toEqual({ kind: 'page', page: pageCount });
        expect(items).toContainEqual({ kind: 'page', page });
      }
    }
  });

  it('treats a page outside the list as its nearest end', () => {
    expect(describeItems(getPageItems(0, 8))).toBe('1 2 3 4 5 … 8');
    expect(describeItems(getPageItems(99, 8))).toBe('1 … 4 5 6 7 8');
  });
});

describe('getEntryRange and the summary line', () => {
  it('reads zero entries as 0 to 0 on page 1 of 1', () => {
    expect(getEntryRange(1, 30, 0)).toEqual({ firstEntry: 0, lastEntry: 0 });
    expect(formatPaginationSummary({ currentPage: 1, pageCount: 1, pageSize: 30, totalEntries: 0 })).toBe(
      'Showing 0 to 0 of 0 entries • Page 1 of 1',
    );
  });

  it('ends a partially filled last page at the last entry', () => {
    expect(getEntryRange(3, 30, 75)).toEqual({ firstEntry: 61, lastEntry: 75 });
    expect(formatPaginationSummary({ currentPage: 3, pageCount: 3, pageSize: 30, totalEntries: 75 })).toBe(
      'Showing 61 to 75 of 75 entries • Page 3 of 3',
    );
  });

  it('fills a middle page completely', () => {
    expect(getEntryRange(2, 30, 75)).toEqual({ firstEntry: 31, lastEntry: 60 });
  });
});

describe('<Pagination>', () => {
  it('shows an empty list as one page with both arrows disabled', () => {
    render(<Pagination currentPage={1} totalEntries={0} onPageChange={() => {}} />);
    expect(screen.getByText('Showing 0 to 0 of 0 entries • Page 1 of 1')).toBeTruthy();
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Previous' }).disabled).toBe(true);
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Next' }).disabled).toBe(true);
    expect(readPageButtons()).toBe('Previous 1 Next');
  });

  it('marks the only page of a full single page as current', () => {
    render(<Pagination currentPage={1} totalEntries={30} onPageChange={() => {}} />);
    expect(screen.getByRole('button', { name: '1' }).getAttribute('aria-current')).toBe('page');
    expect(screen.getByText('Showing 1 to 30 of 30 entries • Page 1 of 1')).toBeTruthy();
  });

  it('shows all 7 pages of 210 entries', () => {
    render(<Pagination currentPage={4} totalEntries={210} onPageChange={() => {}} />);
    expect(readPageButtons()).toBe('Previous 1 2 3 4 5 6 7 Next');
    expect(screen.getByText('Showing 91 to 120 of 210 entries • Page 4 of 7')).toBeTruthy();
  });

  it('shows 8 pages with an ellipsis at the first, a middle and the last page', () => {
    const { rerender } = render(<Pagination currentPage={1} totalEntries={240} onPageChange={() => {}} />);
    expect(readPageButtons()).toBe('Previous 1 2 3 4 5 … 8 Next');

    rerender(<Pagination currentPage={5} totalEntries={240} onPageChange={() => {}} />);
    expect(readPageButtons()).toBe('Previous 1 … 4 5 6 7 8 Next');

    rerender(<Pagination currentPage={8} totalEntries={240} onPageChange={() => {}} />);
    expect(readPageButtons()).toBe('Previous 1 … 4 5 6 7 8 Next');
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Next' }).disabled).toBe(true);
  });

  it('reads a partially filled last page', () => {
    render(<Pagination currentPage={8} totalEntries={215} onPageChange={() => {}} />);
    expect(screen.getByText('Showing 211 to 215 of 215 entries • Page 8 of 8')).toBeTruthy();
  });

  it('asks for the neighbouring or chosen page, and not for the current one', () => {
    const onPageChange = vi.fn();
    render(<Pagination currentPage={5} totalEntries={600} onPageChange={onPageChange} />);
    fireEvent.click(screen.getByRole('button', { name: 'Previous' }));
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    fireEvent.click(screen.getByRole('button', { name: '20' }));
    fireEvent.click(screen.getByRole('button', { name: '5' }));
    expect(onPageChange.mock.calls).toEqual([[4], [6], [20]]);
  });

  it('uses a given page count for lists of unknown length', () => {
    render(<Pagination currentPage={2} totalEntries={60} pageCount={15} onPageChange={() => {}} />);
    expect(readPageButtons()).toBe('Previous 1 2 3 4 5 … 15 Next');
  });
});
