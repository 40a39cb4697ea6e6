import { queryOptions, skipToken, useQuery } from '@tanstack/react-query';
import { costResponseSchema, type CostQuery, type CostResponse } from '@cloudtrim/contracts/costs';
import { requestJson } from '../../../lib/api-client';

export const costQueryKeys = {
  all: ['costs'] as const,
  cost: (query: CostQuery | null) => [...costQueryKeys.all, 'cost', query] as const,
  summary: (tenantId?: string) => [...costQueryKeys.all, 'summary', { tenantId: tenantId ?? null }] as const,
  resource: (resourceId: string) => [...costQueryKeys.all, 'resource', resourceId] as const,
};

/** A query string of the values that are set, in the order given. */
export function buildCostSearch(values: Readonly<Record<string, string | undefined>>): string {
  const entries = Object.entries(values).filter((entry): entry is [string, string] => Boolean(entry[1]));
  return new URLSearchParams(entries).toString();
}

// GET /api/v1/cost: the bill over a range of days, by day, month or the whole range, grouped.
export function getCost({
  query,
  signal,
}: {
  query: CostQuery;
  signal?: AbortSignal;
}): Promise<CostResponse> {
  const { from, to, granularity, groupBy, costType, ...filter } = query;
  const search = buildCostSearch({ from, to, granularity, groupBy, costType, ...filter });
  return requestJson(`/api/v1/cost?${search}`, costResponseSchema, { signal });
}

/** Nothing is asked while `query` is null (a tag grouping still without its key). */
export function getCostQueryOptions(query: CostQuery | null) {
  return queryOptions({
    queryKey: costQueryKeys.cost(query),
    queryFn: query ? ({ signal }) => getCost({ query, signal }) : skipToken,
  });
}

export function useCost(query: CostQuery | null) {
  return useQuery(getCostQueryOptions(query));
}
