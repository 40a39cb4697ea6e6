import { useDeferredValue, useMemo } from 'react';
import { noCostDataText, type CostQuery } from '@cloudtrim/contracts/costs';
import { DataLoading } from '../../../components/data-loading';
import { useCost } from '../api/get-cost';
import { buildCostBreakdown, selectTopRows } from '../utils/cost-breakdown';
import { CostBreakdownView } from './cost-breakdown-view';
import { CostLoadFailure } from './cost-load-failure';

export const topResourceCount = 10;

interface TopResourcesProps {
  label: string;
  /** The period by resource, granularity none. */
  query: CostQuery;
  previousQuery: CostQuery;
}

/** The period's 10 costliest resources with their change on the period before. */
export function TopResources({ label, query, previousQuery }: TopResourcesProps) {
  const current = useCost(query);
  const previous = useCost(previousQuery);
  // The answers arrive with the chart's: their rows render after it, so the chart paints first.
  const currentData = useDeferredValue(current.data);
  const previousData = useDeferredValue(previous.data);
  const rows = useMemo(
    () =>
      currentData && previousData
        ? selectTopRows(buildCostBreakdown(currentData.Data, previousData.Data), topResourceCount)
        : [],
    [currentData, previousData],
  );

  if (current.isError || previous.isError)
    return <CostLoadFailure error={(current.error ?? previous.error)!} />;
  if (!currentData || !previousData) return <DataLoading label="Loading the costliest resources" />;
  if (rows.length === 0) return <p className="data-empty">{noCostDataText}</p>;
  return <CostBreakdownView label={label} rows={rows} groupBy="resource" currency={currentData.Currency} />;
}
