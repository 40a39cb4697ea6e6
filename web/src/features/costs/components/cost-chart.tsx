import { useCallback, useMemo } from 'react';
import {
  noCostDataText,
  type CostForecastQuery,
  type CostGroupBy,
  type CostQuery,
} from '@cloudtrim/contracts/costs';
import { DataLoading } from '../../../components/data-loading';
import {
  StackedBarChart,
  type StackedBarBand,
  type StackedBarSeries,
} from '../../../components/stacked-bar-chart';
import { useCost } from '../api/get-cost';
import { useCostForecast } from '../api/get-cost-forecast';
import { describeBillGap } from '../utils/cost-bill-gap';
import { buildStackedCostGroups, otherGroupLabel } from '../utils/cost-chart-series';
import { buildForecastBand, forecastBandText, getMonthEnd } from '../utils/cost-forecast-band';
import { describeCostGroup } from '../utils/cost-groups';
import { listPeriodBuckets, type DayRange } from '../utils/cost-periods';
import { formatBucketLabel } from '../utils/format-cost-day';
import { formatCompactCost, formatCost } from '../../../lib/format-cost';
import { CostLoadFailure } from './cost-load-failure';

// Eight colours told apart with the common colour-vision deficiencies, then grey for 'Other'.
export const groupColors = [
  '#0f6cbd',
  '#e8710a',
  '#1e8e3e',
  '#9334e6',
  '#d93025',
  '#12b5cb',
  '#e52592',
  '#f9ab00',
] as const;
export const otherGroupColor = '#9aa0a6';
const forecastColor = '#3b4a5e';
const chartHeight = 260;

interface CostChartProps {
  label: string;
  groupBy: CostGroupBy;
  /** The period, daily or monthly, grouped. */
  query: CostQuery;
  period: DayRange;
  granularity: 'daily' | 'monthly';
  /** This month's forecast, drawn after its bars to the month's end; null for no forecast. */
  forecastQuery: CostForecastQuery | null;
}

/** The period's cost per day (or month), stacked by the 8 costliest groups and the rest as 'Other'. */
export function CostChart({ label, groupBy, query, period, granularity, forecastQuery }: CostChartProps) {
  const cost = useCost(query);
  const forecast = useCostForecast(forecastQuery);
  const currency = cost.data?.Currency ?? 'USD';
  const hasForecast = forecastQuery !== null && !forecast.isError;
  // The month's remaining days are on the axis from the first paint, so the band arrives without
  // moving the bars.
  const chartTo = hasForecast ? getMonthEnd(period.to) : period.to;
  const buckets = useMemo(
    () => listPeriodBuckets({ from: period.from, to: chartTo }, granularity),
    [period.from, chartTo, granularity],
  );
  const categories = useMemo(
    () => buckets.map((bucket) => formatBucketLabel(bucket, granularity)),
    [buckets, granularity],
  );
  const series = useMemo<StackedBarSeries[]>(() => {
    if (!cost.data) return [];
    return buildStackedCostGroups(cost.data.Data, buckets, granularity).map((stack, index) => ({
      label: stack.group === null ? otherGroupLabel : describeCostGroup(groupBy, stack.group),
      values: stack.values,
      color: stack.group === null ? otherGroupColor : groupColors[index % groupColors.length]!,
    }));
  }, [cost.data, buckets, granularity, groupBy]);
  const band = useMemo<StackedBarBand | undefined>(() => {
    if (!hasForecast) return undefined;
    const points = forecast.data ? buildForecastBand(forecast.data.Data, buckets) : [];
    return { label: forecastBandText, points, color: forecastColor };
  }, [hasForecast, forecast.data, buckets]);
  const formatValue = useCallback((value: number) => formatCost(value, currency), [currency]);
  const formatAxisValue = useCallback((value: number) => formatCompactCost(value, currency), [currency]);

  if (cost.isError) return <CostLoadFailure error={cost.error} />;
  if (!cost.data) {
    // As tall as the chart will be (its padding and a line of legend), so nothing below it moves.
    return (
      <div className="cost-chart-placeholder" style={{ minHeight: `calc(${chartHeight}px + 3.2rem)` }}>
        <DataLoading label="Loading the cost chart" />
      </div>
    );
  }
  // While the tenant's bill is still being read: which days are not in yet, under the chart.
  const gap = describeBillGap(cost.data, { from: query.from, to: query.to });
  const gapNote = gap ? <p className="cost-partial-note">{gap}</p> : null;
  // In the first hours of a month nothing is billed yet, but the month's forecast already stands: the
  // chart shows it over empty days rather than saying there is nothing.
  const isForecastShown = band?.points.some((point) => point !== null) ?? false;
  if (cost.data.Data.length === 0 && !isForecastShown)
    return (
      <>
        <p className="data-empty">{noCostDataText}</p>
        {gapNote}
      </>
    );
  return (
    <>
      <StackedBarChart
        label={label}
        categories={categories}
        series={series}
        formatValue={formatValue}
        formatAxisValue={formatAxisValue}
        height={chartHeight}
        band={band}
      />
      {gapNote}
    </>
  );
}
