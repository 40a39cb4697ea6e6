import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { scopeResponseSchema, type ScopeQuery, type ScopeResponse } from '@cloudtrim/contracts/scope';
import { requestJson } from './api-client';

// GET /api/v1/scope: a page of what the team's estate holds (tenants, subscriptions, resource
// groups, tag keys or a key's values), searched, for the scope pickers of the budget form and the
// pipeline builder.
export function getScopeOptions(
  query: ScopeQuery,
  { signal }: { signal?: AbortSignal } = {},
): Promise<ScopeResponse> {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== '') params.set(name, String(value));
  }
  return requestJson(`/api/v1/scope?${params}`, scopeResponseSchema, { signal });
}

export function getScopeOptionsQueryOptions(query: ScopeQuery) {
  return queryOptions({
    queryKey: ['scope', query] as const,
    queryFn: ({ signal }) => getScopeOptions(query, { signal }),
    staleTime: 60_000,
    placeholderData: keepPreviousData,
  });
}

export function useScopeOptions(query: ScopeQuery | null) {
  return useQuery({
    ...getScopeOptionsQueryOptions(query ?? { kind: 'tenants' }),
    enabled: query !== null,
  });
}
