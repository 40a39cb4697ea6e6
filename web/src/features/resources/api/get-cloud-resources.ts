import { queryOptions, useQuery } from '@tanstack/react-query';
import { cloudResourcesResponseSchema, type CloudResourcesResponse } from '@cloudtrim/contracts/resources';
import { requestJson } from '../../../lib/api-client';

export const cloudResourceQueryKeys = {
  all: ['cloud-resources'] as const,
  list: () => [...cloudResourceQueryKeys.all, 'list'] as const,
};

export function getCloudResources({
  signal,
}: { signal?: AbortSignal } = {}): Promise<CloudResourcesResponse> {
  return requestJson('/api/v1/resource', cloudResourcesResponseSchema, { signal });
}

export function getCloudResourcesQueryOptions() {
  return queryOptions({
    queryKey: cloudResourceQueryKeys.list(),
    queryFn: ({ signal }) => getCloudResources({ signal }),
    // Tenants come and go on another screen and the inventory syncs in the background: re-read on
    // every visit, showing the last list meanwhile.
    staleTime: 0,
  });
}

export function useCloudResources() {
  return useQuery(getCloudResourcesQueryOptions());
}
