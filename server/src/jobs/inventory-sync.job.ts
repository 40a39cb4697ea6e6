import type { Container } from '../container';
import { inventorySyncJob } from '../queue/cloud-work';
import { defineTenantJob } from './tenant-job';

// One tenant's subscriptions and resources, then its security scan on the VMs and disks the sync just
// read. Tenants sync side by side, each within its deadline, so a slow or failing tenant holds up
// nobody else. A failed sync is left to the schedule's next (15 minutes on), except a new tenant's
// first: nothing of it is known yet (no resources, no back-fill, no waste found), so the job fails
// and is retried a minute, then two, later (Azure slow or throttled as the tenant is connected).
export function createInventorySyncJob({ inventory, security }: Pick<Container, 'inventory' | 'security'>) {
  return defineTenantJob(
    inventorySyncJob,
    { concurrency: 4, expireInSeconds: 900, deadlineMarginSeconds: 30, retryLimit: 2, retryDelaySeconds: 60 },
    async (tenantId, options) => {
      const summary = await inventory.syncTenant(tenantId, options);
      if (!summary) return;
      if (summary.failures.length === 0) {
        await security.scanTenant(tenantId, options, summary.resourcesBySubscription);
      } else if (summary.isFirstSync) {
        throw new Error(`The first sync of the tenant failed: ${summary.failures.join('; ')}`);
      }
    },
  );
}
