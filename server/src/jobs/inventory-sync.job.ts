import type { Container } from '../container';
import { inventorySyncJob } from './cloud-work';
import type { JobDefinition } from './queue';

const expireInSeconds = 900;

// One tenant's subscriptions and resources. Tenants sync side by side, each within its deadline,
// so a slow or failing tenant holds up nobody else.
export function createInventorySyncJob(container: Container): JobDefinition<typeof inventorySyncJob.payload> {
  return {
    ...inventorySyncJob,
    policy: 'stately',
    concurrency: 4,
    expireInSeconds,
    retryLimit: 2,
    retryDelaySeconds: 60,
    handle: async ({ tenantId }) => {
      await container.inventory.syncTenant(tenantId, {
        signal: AbortSignal.timeout((expireInSeconds - 30) * 1000),
      });
    },
  };
}
