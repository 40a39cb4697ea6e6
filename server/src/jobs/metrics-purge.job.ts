import type { Container } from '../container';
import { metricsPurgeJob } from '../queue/cloud-work';
import type { JobDefinition } from '../queue/queue';

// Hourly: the metric tables' partitions made ahead, and dropped once past retention (1-minute points
// 48 hours, hourly aggregates and packed days 90 days).
export function createMetricsPurgeJob({
  metrics,
}: Pick<Container, 'metrics'>): JobDefinition<typeof metricsPurgeJob.payload> {
  return {
    ...metricsPurgeJob,
    expireInSeconds: 1800,
    retryLimit: 1,
    handle: async () => {
      await metrics.purgeExpired();
    },
  };
}
