import type { CostFilter, CostForecastDay, CostForecastQuery, CostType } from '@cloudtrim/contracts/costs';
import type { BandPoint } from '../../../components/stacked-bar-chart-layout';
import { formatDay, parseDay, type CostPeriod } from './cost-periods';

// The forecast drawn after this month's bars: the days from today to the month's end, each with the
// cost expected and the range it falls in 8 times out of 10.

export const forecastBandText = 'Forecast to month end (shaded: the range it falls in 8 times out of 10)';

/**
 * The forecast's question for a view of the chart, or null where it has none: it forecasts this
 * month's actual cost, for a tenant, subscription, resource group or tag, not for one service.
 */
export function getForecastQuery(
  period: CostPeriod,
  costType: CostType,
  filter: CostFilter,
): CostForecastQuery | null {
  if (period !== 'this-month' || costType !== 'actual' || filter.service) return null;
  const { tenantId, subscriptionId, resourceGroup, tag } = filter;
  return { period: 'month', tenantId, subscriptionId, resourceGroup, tag };
}

/** One point per bucket: the forecast's days where it has them, null on the days already billed. */
export function buildForecastBand(
  days: readonly CostForecastDay[],
  buckets: readonly string[],
): (BandPoint | null)[] {
  const forecastByDay = new Map(
    days.filter((day) => day.Kind === 'forecast').map((day) => [day.Date.slice(0, 10), day]),
  );
  return buckets.map((bucket) => {
    const day = forecastByDay.get(bucket);
    return day ? { expected: day.Cost, low: day.Low, high: day.High } : null;
  });
}

/** The last day of `day`'s month. */
export function getMonthEnd(day: string): string {
  const date = parseDay(day);
  return formatDay(new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)));
}
