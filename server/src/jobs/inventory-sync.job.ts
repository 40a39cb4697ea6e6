import type { Container } from '../container';
import { inventorySyncJob } from '../queue/cloud-work';
import { defineTenantJob } from './tenant-job';

// One tenant's subscriptions and resources, then its security scan on the VMs and disks the sync just
// read. Tenants sync side by side, each within its deadline, so a slow or failing tenant holds up
// nobody else.
export function createInventorySyncJob({ inventory, security }: Pick<Container, 'inventory' | 'security'>) {
  return defineTenantJob(
    inventorySyncJob,
    { concurrency: 4, expireInSeconds: 900, deadlineMarginSeconds: 30, retryLimit: 2, retryDelaySeconds: 60 },
    async (tenantId, options) => {
      const summary = await inventory.syncTenant(tenantId, options);
      if (summary && summary.failures.length === 0)
        await security.scanTenant(tenantId, options, summary.resourcesBySubscription);
    },
  );
}
