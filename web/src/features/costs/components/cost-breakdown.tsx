import { useDeferredValue, useMemo, useState } from 'react';
import { noCostDataText, type CostGroupBy, type CostQuery } from '@cloudtrim/contracts/costs';
import { pageSize } from '@cloudtrim/contracts/paging';
import { DataLoading } from '../../../components/data-loading';
import { Pagination } from '../../../components/pagination';
import { clampPage, getPageCount } from '../../../components/pagination-pages';
import { useCost } from '../api/get-cost';
import { buildCostBreakdown, type CostBreakdownRow } from '../utils/cost-breakdown';
import { getChangePercent } from '../../../lib/format-cost';
import { CostBreakdownView } from './cost-breakdown-view';
import { CostLoadFailure } from './cost-load-failure';

interface CostBreakdownProps {
  label: string;
  groupBy: CostGroupBy;
  /** The period, granularity none: one row per group. */
  query: CostQuery;
  /** The period it is compared with, the same way. */
  previousQuery: CostQuery;
}

/** The table under the chart: every group of the period, 30 a page, and the periods' totals. */
export function CostBreakdown({ label, groupBy, query, previousQuery }: CostBreakdownProps) {
  const current = useCost(query);
  const previous = useCost(previousQuery);
  // The answers arrive with the chart's: their rows render after it, so the chart paints first.
  const currentData = useDeferredValue(current.data);
  const previousData = useDeferredValue(previous.data);
  const [page, setPage] = useState(1);
  const rows = useMemo(
    () => (currentData && previousData ? buildCostBreakdown(currentData.Data, previousData.Data) : []),
    [currentData, previousData],
  );

  if (current.isError || previous.isError)
    return <CostLoadFailure error={(current.error ?? previous.error)!} />;
  if (!currentData || !previousData) return <DataLoading label="Loading costs" />;
  if (currentData.Data.length === 0) return <p className="data-empty">{noCostDataText}</p>;

  const total: CostBreakdownRow = {
    group: '',
    cost: currentData.Total,
    previousCost: previousData.Total,
    change: getChangePercent(currentData.Total, previousData.Total),
  };
  const currentPage = clampPage(page, getPageCount(rows.length, pageSize));
  return (
    <>
      <CostBreakdownView
        label={label}
        rows={rows.slice((currentPage - 1) * pageSize, currentPage * pageSize)}
        groupBy={groupBy}
        currency={currentData.Currency}
        total={total}
        isPartial={!currentData.Complete || !previousData.Complete}
      />
      <Pagination
        currentPage={currentPage}
        totalEntries={rows.length}
        onPageChange={setPage}
        label={`Pages of ${label}`}
      />
    </>
  );
}
