import { queryOptions, useQuery } from '@tanstack/react-query';
import {
  recommendationEvidenceSchema,
  type RecommendationEvidence,
} from '@cloudtrim/contracts/recommendations';
import { requestJson } from '../../../lib/api-client';
import { recommendationQueryKeys } from './get-recommendations';

// GET /api/v1/log/recommendation/evidence?id=: what the evidence chart draws for one recommendation.
export function getRecommendationEvidence({
  id,
  signal,
}: {
  id: number;
  signal?: AbortSignal;
}): Promise<RecommendationEvidence> {
  const query = new URLSearchParams({ id: String(id) }).toString();
  return requestJson(`/api/v1/log/recommendation/evidence?${query}`, recommendationEvidenceSchema, {
    signal,
  });
}

export function getRecommendationEvidenceQueryOptions(id: number) {
  return queryOptions({
    queryKey: recommendationQueryKeys.evidence(id),
    queryFn: ({ signal }) => getRecommendationEvidence({ id, signal }),
  });
}

export function useRecommendationEvidence(id: number) {
  return useQuery(getRecommendationEvidenceQueryOptions(id));
}
