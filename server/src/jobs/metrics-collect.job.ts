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
      const summary = await container.metrics.collectTenant(tenantId, {
        signal: AbortSignal.timeout((expireInSeconds - 20) * 1000),
      });
      // The VMs whose data changed are analysed next (a gone tenant has nothing to analyse).
      if (summary) await container.recommendations.enqueueAnalysis(tenantId);
    },
  };
}
