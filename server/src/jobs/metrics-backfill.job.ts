import type { Container } from '../container';
import { metricsBackfillJob } from '../queue/cloud-work';
import { defineTenantJob } from './tenant-job';

// 14 days of hourly history for a tenant's resources that have none, queued by a sync that found
// new resources.
export function createMetricsBackfillJob({
  metrics,
  recommendations,
}: Pick<Container, 'metrics' | 'recommendations'>) {
  return defineTenantJob(
    metricsBackfillJob,
    {
      concurrency: 2,
      expireInSeconds: 1800,
      deadlineMarginSeconds: 60,
      retryLimit: 2,
      retryDelaySeconds: 120,
    },
    async (tenantId, options) => {
      const summary = await metrics.backfillTenant(tenantId, options);
      // The whole history changed: every VM is analysed again (a tenant with no work, or a back-fill
      // that wrote no hour, leaves nothing new to analyse).
      if (summary && summary.pointCount > 0) await recommendations.enqueueReanalysis(tenantId);
    },
  );
}
