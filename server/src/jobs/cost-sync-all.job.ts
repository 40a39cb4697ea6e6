import type { Container } from '../container';
import { costSyncAllJob } from '../queue/cloud-work';
import type { JobDefinition } from '../queue/queue';

// The schedule's fan-out: a cost-sync job for each tenant whose bill has a read due.
export function createCostSyncAllJob({
  costs,
}: Pick<Container, 'costs'>): JobDefinition<typeof costSyncAllJob.payload> {
  return {
    ...costSyncAllJob,
    expireInSeconds: 60,
    retryLimit: 0,
    handle: async () => {
      await costs.enqueueDueTenants();
    },
  };
}
