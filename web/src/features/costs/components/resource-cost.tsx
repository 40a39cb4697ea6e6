import { useCallback, useMemo } from 'react';
import { noCostDataText, resourceCostDays } from '@cloudtrim/contracts/costs';
import { DataLoading } from '../../../components/data-loading';
import { StackedBarChart } from '../../../components/stacked-bar-chart';
import { useResourceCost } from '../api/get-resource-cost';
import { addDays, formatDay, listPeriodBuckets } from '../utils/cost-periods';
import { formatCostDate } from '../utils/format-cost-day';
import { formatCost } from '../../../lib/format-cost';
import { CostLoadFailure } from './cost-load-failure';
import './cost-analysis.css';

export const resourceCostTitleText = `Cost, last ${resourceCostDays} days`;
const barColor = '#0f6cbd';
const chartHeight = 56;

/** The days charted: the last 30 up to today (UTC), stretched to any day the answer holds beyond them. */
function listChartedDays(days: readonly string[]): string[] {
  const today = formatDay(new Date());
  const from = [addDays(today, -(resourceCostDays - 1)), ...days].reduce((first, day) =>
    day < first ? day : first,
  );
  const to = [today, ...days].reduce((last, day) => (day > last ? day : last));
  return listPeriodBuckets({ from, to }, 'daily');
}

/** A resource's daily cost over the last 30 days and its month to date, for its metrics panel. */
export function ResourceCost({ resourceId }: { resourceId: string }) {
  const cost = useResourceCost(resourceId);
  const currency = cost.data?.Currency ?? 'USD';
  const chart = useMemo(() => {
    if (!cost.data) return null;
    const costByDay = new Map<string, number>();
    for (const point of cost.data.Data) {
      const day = point.Date.slice(0, 10);
      costByDay.set(day, (costByDay.get(day) ?? 0) + point.Cost);
    }
    const days = listChartedDays([...costByDay.keys()]);
    return {
      categories: days.map((day) => formatCostDate(day)),
      series: [{ label: 'Cost', values: days.map((day) => costByDay.get(day) ?? 0), color: barColor }],
    };
  }, [cost.data]);
  const formatValue = useCallback((value: number) => formatCost(value, currency), [currency]);

  return (
    <section className="resource-cost" aria-label={resourceCostTitleText}>
      <div className="resource-cost-header">
        <h4 className="resource-cost-title">{resourceCostTitleText}</h4>
        {cost.data ? (
          <span className="resource-cost-month">
            Month to date: {formatCost(cost.data.MonthToDate, cost.data.Currency)}
          </span>
        ) : null}
      </div>
      {cost.isError ? (
        <CostLoadFailure error={cost.error} />
      ) : !cost.data || !chart ? (
        <DataLoading label="Loading the resource's cost" isSmall />
      ) : cost.data.Data.length === 0 ? (
        <p className="data-empty">{noCostDataText}</p>
      ) : (
        <StackedBarChart
          label={`Daily cost of the last ${resourceCostDays} days`}
          categories={chart.categories}
          series={chart.series}
          formatValue={formatValue}
          height={chartHeight}
          isCompact
        />
      )}
    </section>
  );
}
