import { queryOptions, useQuery } from '@tanstack/react-query';
import { findResourcesResponseSchema, type AutomationResource } from '@cloudtrim/contracts/resources';
import { requestJson } from '../../../lib/api-client';

export const searchQueryKeys = {
  all: ['resource-search'] as const,
  find: (partialResource: string) => [...searchQueryKeys.all, partialResource] as const,
};

export async function findResources({
  partialResource,
  signal,
}: {
  partialResource: string;
  signal?: AbortSignal;
}): Promise<AutomationResource[]> {
  const query = new URLSearchParams({ partialResource });
  const response = await requestJson(
    `/api/v1/resource/find?${query.toString()}`,
    findResourcesResponseSchema,
    {
      signal,
    },
  );
  return response.Data;
}

export function getFindResourcesQueryOptions(partialResource: string) {
  return queryOptions({
    queryKey: searchQueryKeys.find(partialResource),
    queryFn: ({ signal }) => findResources({ partialResource, signal }),
  });
}

/** An empty search is never sent (SPEC §5). */
export function useFindResources(partialResource: string) {
  return useQuery({ ...getFindResourcesQueryOptions(partialResource), enabled: partialResource !== '' });
}
