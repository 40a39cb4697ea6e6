import { describe, expect, it } from 'vitest';
import {
  isPercentageMetric,
  metricDataQuerySchema,
  metricDataResponseSchema,
  metricsResponseSchema,
} from './metrics';

describe('metrics', () => {
  it('wraps the metric list and the data map in `Data`', () => {
    expect(
      metricsResponseSchema.safeParse({ Data: [{ MetricId: 'm1', Metric: 'Percentage CPU' }] }).success,
    ).toBe(true);
    expect(metricDataResponseSchema.safeParse({ Data: { '2025-01-01T10:00:00.000Z': 12.5 } }).success).toBe(
      true,
    );
    expect(metricDataResponseSchema.safeParse({ Data: { yesterday: 12.5 } }).success).toBe(false);
  });

  it('asks for 60 minutes unless told, and at most two days', () => {
    expect(metricDataQuerySchema.parse({ metricId: 'm1' })).toEqual({ metricId: 'm1', minutes: 60 });
    expect(metricDataQuerySchema.parse({ metricId: 'm1', minutes: '1440' }).minutes).toBe(1440);
    expect(metricDataQuerySchema.safeParse({ metricId: 'm1', minutes: '0' }).success).toBe(false);
    expect(metricDataQuerySchema.safeParse({ metricId: 'm1', minutes: '2881' }).success).toBe(false);
  });

  it('gives a % unit to Percentage metrics', () => {
    expect(isPercentageMetric('Percentage CPU')).toBe(true);
    expect(isPercentageMetric('Disk Read Operations/Sec')).toBe(false);
  });
});
