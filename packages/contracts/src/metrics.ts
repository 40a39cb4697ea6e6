import { z } from 'zod';
import { createQueryIntegerSchema, dataWrapper, isoDateTimeSchema } from './common';
import { resourceIdSchema } from './resources';

// GET /api/v1/metric?azureResource=: the metrics a resource has.
export const metricsQuerySchema = z.object({ azureResource: resourceIdSchema });
export type MetricsQuery = z.infer<typeof metricsQuerySchema>;

export const metricSchema = z.object({ MetricId: z.string(), Metric: z.string() });
export type Metric = z.infer<typeof metricSchema>;

export const metricsResponseSchema = dataWrapper(z.array(metricSchema));
export type MetricsResponse = z.infer<typeof metricsResponseSchema>;

// SPEC §9: names containing 'Percentage' get a % unit.
export function isPercentageMetric(metricName: string): boolean {
  return metricName.includes('Percentage');
}

// GET /api/v1/metricdata?metricId=&minutes=: up to two days of points, an hour by default.
export const defaultMetricMinutes = 60;
export const maxMetricMinutes = 2880;

export const metricDataQuerySchema = z.object({
  metricId: z.string().trim().min(1).max(200),
  minutes: createQueryIntegerSchema(1, maxMetricMinutes).default(defaultMetricMinutes),
});
export type MetricDataQuery = z.input<typeof metricDataQuerySchema>;
export type MetricDataRequest = z.infer<typeof metricDataQuerySchema>;

// A map of ISO time to value.
export const metricDataResponseSchema = dataWrapper(z.record(isoDateTimeSchema, z.number()));
export type MetricDataResponse = z.infer<typeof metricDataResponseSchema>;
