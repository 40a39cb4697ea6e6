import { queryOptions, useQuery } from '@tanstack/react-query';
import { recommendationsResponseSchema, type Recommendation } from '@cloudtrim/contracts/recommendations';
import { requestJson } from '../../../lib/api-client';

// The recommendation list is shown by the recommendations page and by the automation view's LOGS
// modal, so its call lives here rather than in one feature.
export const recommendationQueryKeys = {
  all: ['recommendations'] as const,
  list: (resourceId?: string) =>
    [...recommendationQueryKeys.all, 'list', { resourceId: resourceId ?? null }] as const,
  evidence: (id: number) => [...recommendationQueryKeys.all, 'evidence', id] as const,
};

export function buildRecommendationsPath(resourceId?: string): string {
  const path = '/api/v1/log/recommendation';
  return resourceId ? `${path}?${new URLSearchParams({ resourceId }).toString()}` : path;
}

// GET /api/v1/log/recommendation, optionally for one resource.
export async function getRecommendations({
  resourceId,
  signal,
}: { resourceId?: string; signal?: AbortSignal } = {}): Promise<Recommendation[]> {
  const response = await requestJson(buildRecommendationsPath(resourceId), recommendationsResponseSchema, {
    signal,
  });
  return response.Data;
}

export function getRecommendationsQueryOptions(resourceId?: string) {
  return queryOptions({
    queryKey: recommendationQueryKeys.list(resourceId),
    queryFn: ({ signal }) => getRecommendations({ resourceId, signal }),
  });
}

export function useRecommendations(resourceId?: string) {
  return useQuery(getRecommendationsQueryOptions(resourceId));
}
