import { queryOptions, useQuery } from '@tanstack/react-query';
import { metricsResponseSchema, type Metric } from '@cloudtrim/contracts/metrics';
import { requestJson } from '../../../lib/api-client';

// A resource's metrics are charted wherever a resource is shown with its metrics (search today, the
// automation view later), so the calls live here rather than in one feature.
export const metricQueryKeys = {
  all: ['metrics'] as const,
  list: (resourceId: string) => [...metricQueryKeys.all, 'list', resourceId] as const,
  data: (metricId: string, minutes: number) => [...metricQueryKeys.all, 'data', metricId, minutes] as const,
};

/** SPEC §4: a metric listed twice (same MetricId) is charted once. */
export function removeDuplicateMetrics(metrics: readonly Metric[]): Metric[] {
  const seenIds = new Set<string>();
  return metrics.filter((metric) => {
    if (seenIds.has(metric.MetricId)) return false;
    seenIds.add(metric.MetricId);
    return true;
  });
}

export async function getMetrics({
  resourceId,
  signal,
}: {
  resourceId: string;
  signal?: AbortSignal;
}): Promise<Metric[]> {
  const query = new URLSearchParams({ azureResource: resourceId });
  const response = await requestJson(`/api/v1/metric?${query.toString()}`, metricsResponseSchema, { signal });
  return removeDuplicateMetrics(response.Data);
}

export function getMetricsQueryOptions(resourceId: string) {
  return queryOptions({
    queryKey: metricQueryKeys.list(resourceId),
    queryFn: ({ signal }) => getMetrics({ resourceId, signal }),
  });
}

export function useMetrics(resourceId: string) {
  return useQuery(getMetricsQueryOptions(resourceId));
}
