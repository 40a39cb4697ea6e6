import type { Container } from '../container';
import { metricsCollectJob } from './cloud-work';
import type { JobDefinition } from './queue';

const expireInSeconds = 280;

// One collection cycle for one tenant. No retry: the next cycle reads from where this one stopped.
export function createMetricsCollectJob(
  container: Container,
): JobDefinition<typeof metricsCollectJob.payload> {
  return {
    ...metricsCollectJob,
    policy: 'stately',
    concurrency: 4,
    expireInSeconds,
    retryLimit: 0,
    handle: async ({ tenantId }) => {
      await container.metrics.collectTenant(tenantId, {
        signal: AbortSignal.timeout((expireInSeconds - 20) * 1000),
      });
    },
  };
}
