import type { Container } from '../container';
import { costSyncJob } from './cloud-work';
import { defineTenantJob } from './tenant-job';

// Reads a tenant's bill for up to five minutes; where it stopped is kept, and the schedule's next
// fan-out goes on from there. No retry: the plan in the database is the retry.
export function createCostSyncJob({ costs }: Pick<Container, 'costs'>) {
  return defineTenantJob(
    costSyncJob,
    { concurrency: 2, expireInSeconds: 330, deadlineMarginSeconds: 30, retryLimit: 0 },
    async (tenantId, options) => {
      await costs.syncTenant(tenantId, options);
    },
  );
}
