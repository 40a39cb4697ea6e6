import type { Container } from '../container';
import { metricsBackfillJob } from './cloud-work';
import type { JobDefinition } from './queue';

const expireInSeconds = 1800;

// 14 days of hourly history for a tenant's resources that have none, queued by a sync that found
// new resources.
export function createMetricsBackfillJob(
  container: Container,
): JobDefinition<typeof metricsBackfillJob.payload> {
  return {
    ...metricsBackfillJob,
    policy: 'stately',
    concurrency: 2,
    expireInSeconds,
    retryLimit: 2,
    retryDelaySeconds: 120,
    handle: async ({ tenantId }) => {
      const summary = await container.metrics.backfillTenant(tenantId, {
        signal: AbortSignal.timeout((expireInSeconds - 60) * 1000),
      });
      // The whole history changed: every VM is analysed again (a gone tenant has nothing to analyse).
      if (summary) await container.recommendations.enqueueReanalysis(tenantId);
    },
  };
}
