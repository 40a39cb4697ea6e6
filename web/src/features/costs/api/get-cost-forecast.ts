import { queryOptions, skipToken, useQuery } from '@tanstack/react-query';
import {
  costForecastResponseSchema,
  type CostForecastQuery,
  type CostForecastResponse,
} from '@cloudtrim/contracts/costs';
import { requestJson } from '../../../lib/api-client';
import { buildCostSearch, costQueryKeys } from './get-cost';

// GET /api/v1/cost/forecast: the period's cost at its end, expected and its 80% band, by day.
export function getCostForecast({
  query,
  signal,
}: {
  query: CostForecastQuery;
  signal?: AbortSignal;
}): Promise<CostForecastResponse> {
  const { period, ...filter } = query;
  const search = buildCostSearch({ period, ...filter });
  return requestJson(`/api/v1/cost/forecast?${search}`, costForecastResponseSchema, { signal });
}

/** Nothing is asked while `query` is null (a view the forecast does not cover). */
export function getCostForecastQueryOptions(query: CostForecastQuery | null) {
  return queryOptions({
    queryKey: [...costQueryKeys.all, 'forecast', query] as const,
    queryFn: query ? ({ signal }) => getCostForecast({ query, signal }) : skipToken,
  });
}

export function useCostForecast(query: CostForecastQuery | null) {
  return useQuery(getCostForecastQueryOptions(query));
}
