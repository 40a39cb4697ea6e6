import type { Container } from '../container';
import { metricsCollectAllJob } from '../queue/cloud-work';
import type { JobDefinition } from '../queue/queue';

// The schedule's fan-out: one metrics-collect job per active tenant.
export function createMetricsCollectAllJob({
  metrics,
}: Pick<Container, 'metrics'>): JobDefinition<typeof metricsCollectAllJob.payload> {
  return {
    ...metricsCollectAllJob,
    expireInSeconds: 60,
    retryLimit: 0,
    handle: () => metrics.enqueueCollectionForAllTenants(),
  };
}
