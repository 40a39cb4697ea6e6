import type { Container } from '../container';
import { metricsCollectJob } from '../queue/cloud-work';
import { defineTenantJob } from './tenant-job';

// One collection cycle for one tenant. No retry: the next cycle reads from where this one stopped.
export function createMetricsCollectJob({
  metrics,
  recommendations,
}: Pick<Container, 'metrics' | 'recommendations'>) {
  return defineTenantJob(
    metricsCollectJob,
    { concurrency: 4, expireInSeconds: 280, deadlineMarginSeconds: 20, retryLimit: 0 },
    async (tenantId, options) => {
      const summary = await metrics.collectTenant(tenantId, options);
      // The VMs whose data changed are analysed next (a tenant with no work has nothing to analyse).
      if (summary) await recommendations.enqueueAnalysis(tenantId);
    },
  );
}
