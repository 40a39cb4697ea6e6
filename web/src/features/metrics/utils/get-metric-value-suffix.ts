import { isPercentageMetric } from '@cloudtrim/contracts/metrics';

/** SPEC §9: a percentage metric's values carry '%' on the chart. */
export function getMetricValueSuffix(metricName: string): string {
  return isPercentageMetric(metricName) ? '%' : '';
}
