import { queryOptions, useQuery } from '@tanstack/react-query';
import { resourceCostResponseSchema, type ResourceCostResponse } from '@cloudtrim/contracts/costs';
import { requestJson } from '../../../lib/api-client';
import { buildCostSearch, costQueryKeys } from './get-cost';

// GET /api/v1/cost/resource?resourceId=: one resource's cost per day over the last 30 days and its
// month to date, for the metrics panel.
export function getResourceCost({
  resourceId,
  signal,
}: {
  resourceId: string;
  signal?: AbortSignal;
}): Promise<ResourceCostResponse> {
  return requestJson(`/api/v1/cost/resource?${buildCostSearch({ resourceId })}`, resourceCostResponseSchema, {
    signal,
  });
}

export function getResourceCostQueryOptions(resourceId: string) {
  return queryOptions({
    queryKey: costQueryKeys.resource(resourceId),
    queryFn: ({ signal }) => getResourceCost({ resourceId, signal }),
  });
}

export function useResourceCost(resourceId: string) {
  return useQuery(getResourceCostQueryOptions(resourceId));
}
