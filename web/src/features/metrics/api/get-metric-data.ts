import { queryOptions, useQuery } from '@tanstack/react-query';
import { defaultMetricMinutes, metricDataResponseSchema } from '@cloudtrim/contracts/metrics';
import { requestJson } from '../../../lib/api-client';
import { metricQueryKeys } from './get-metrics';

export interface MetricSeries {
  /** Seconds since the epoch, ascending. */
  times: number[];
  values: number[];
}

/** The wire's map of ISO time to value, as a time-ordered series. */
export function convertMetricData(data: Readonly<Record<string, number>>): MetricSeries {
  const points = Object.entries(data)
    .map(([time, value]) => ({ time: Date.parse(time) / 1000, value }))
    .filter((point) => Number.isFinite(point.time) && Number.isFinite(point.value))
    .sort((left, right) => left.time - right.time);
  return { times: points.map((point) => point.time), values: points.map((point) => point.value) };
}

export async function getMetricData({
  metricId,
  minutes = defaultMetricMinutes,
  signal,
}: {
  metricId: string;
  minutes?: number;
  signal?: AbortSignal;
}): Promise<MetricSeries> {
  const query = new URLSearchParams({ metricId, minutes: String(minutes) });
  const response = await requestJson(`/api/v1/metricdata?${query.toString()}`, metricDataResponseSchema, {
    signal,
  });
  return convertMetricData(response.Data);
}

export function getMetricDataQueryOptions(metricId: string, minutes = defaultMetricMinutes) {
  return queryOptions({
    queryKey: metricQueryKeys.data(metricId, minutes),
    queryFn: ({ signal }) => getMetricData({ metricId, minutes, signal }),
  });
}

export function useMetricData(metricId: string, { isEnabled = true, minutes = defaultMetricMinutes } = {}) {
  return useQuery({ ...getMetricDataQueryOptions(metricId, minutes), enabled: isEnabled });
}
