import type { Container } from '../container';
import { metricsPurgeJob } from '../queue/cloud-work';
import type { JobDefinition } from '../queue/queue';

// Hourly: 1-minute points past 48 hours and hourly aggregates past 90 days.
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
