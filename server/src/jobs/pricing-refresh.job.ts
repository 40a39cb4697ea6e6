import type { Container } from '../container';
import { pricingRefreshJob } from '../queue/cloud-work';
import type { JobDefinition } from '../queue/queue';

const expireInSeconds = 900;

// Daily: sizes and prices of every region where a tenant has a VM.
export function createPricingRefreshJob({
  pricing,
}: Pick<Container, 'pricing'>): JobDefinition<typeof pricingRefreshJob.payload> {
  return {
    ...pricingRefreshJob,
    expireInSeconds,
    retryLimit: 2,
    handle: async () => {
      await pricing.refreshRegionsInUse({
        signal: AbortSignal.timeout((expireInSeconds - 30) * 1000),
      });
    },
  };
}
