import { pageSize as defaultPageSize } from '@cloudtrim/contracts/paging';
import { clampPage, formatPaginationSummary, getPageCount, getPageItems } from './pagination-pages';

interface PaginationProps {
  /** 1-based. */
  currentPage: number;
  totalEntries: number;
  pageSize?: number;
  /** For lists whose size the server does not tell; defaults to the pages the entries fill. */
  pageCount?: number;
  onPageChange: (page: number) => void;
  /** Names the navigation landmark when a screen holds more than one list. */
  label?: string;
}

export function Pagination({
  currentPage,
  totalEntries,
  pageSize = defaultPageSize,
  pageCount = getPageCount(totalEntries, pageSize),
  onPageChange,
  label = 'Pagination',
}: PaginationProps) {
  const page = clampPage(currentPage, pageCount);
  const isFirstPage = page <= 1;
  const isLastPage = page >= pageCount;

  function onSelectPage(target: number) {
    if (target !== page) onPageChange(target);
  }

  return (
    <div className="pagination-bar">
      <p className="pagination-summary">
        {formatPaginationSummary({ currentPage: page, pageCount, pageSize, totalEntries })}
      </p>
      <nav aria-label={label}>
        <ul className="pagination pagination-sm mb-0">
          <li className={isFirstPage ? 'page-item disabled' : 'page-item'}>
            <button
              type="button"
              className="page-link"
              disabled={isFirstPage}
              onClick={() => onSelectPage(page - 1)}
            >
              Previous
            </button>
          </li>
          {getPageItems(page, pageCount).map((item) =>
            item.kind === 'ellipsis' ? (
              <li key={`ellipsis-${item.position}`} className="page-item disabled">
                <span className="page-link" aria-hidden="true">
                  …
                </span>
              </li>
            ) : (
              <li key={item.page} className={item.page === page ? 'page-item active' : 'page-item'}>
                <button
                  type="button"
                  className="page-link"
                  aria-current={item.page === page ? 'page' : undefined}
                  onClick={() => onSelectPage(item.page)}
                >
                  {item.page}
                </button>
              </li>
            ),
          )}
          <li className={isLastPage ? 'page-item disabled' : 'page-item'}>
            <button
              type="button"
              className="page-link"
              disabled={isLastPage}
              onClick={() => onSelectPage(page + 1)}
            >
              Next
            </button>
          </li>
        </ul>
      </nav>
    </div>
  );
}
