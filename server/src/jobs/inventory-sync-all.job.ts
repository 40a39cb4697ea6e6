import type { Container } from '../container';
import { inventorySyncAllJob } from '../queue/cloud-work';
import type { JobDefinition } from '../queue/queue';

// The schedule's fan-out: one inventory-sync job per active tenant.
export function createInventorySyncAllJob({
  inventory,
}: Pick<Container, 'inventory'>): JobDefinition<typeof inventorySyncAllJob.payload> {
  return {
    ...inventorySyncAllJob,
    expireInSeconds: 120,
    retryLimit: 1,
    handle: () => inventory.enqueueSyncForAllTenants(),
  };
}
