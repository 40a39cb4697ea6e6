import type { Container } from '../container';
import { inventorySyncJob } from '../queue/cloud-work';
import { defineTenantJob } from './tenant-job';

// One tenant's subscriptions and resources. Tenants sync side by side, each within its deadline,
// so a slow or failing tenant holds up nobody else.
export function createInventorySyncJob({ inventory }: Pick<Container, 'inventory'>) {
  return defineTenantJob(
    inventorySyncJob,
    { concurrency: 4, expireInSeconds: 900, deadlineMarginSeconds: 30, retryLimit: 2, retryDelaySeconds: 60 },
    async (tenantId, options) => {
      await inventory.syncTenant(tenantId, options);
    },
  );
}
