import type { Container } from '../container';
import { recommendationsAnalyseJob } from './cloud-work';
import type { JobDefinition } from './queue';

const expireInSeconds = 600;

// One tenant's analysis after its collection cycle: the VMs whose data changed. One at a time per
// tenant (stately, keyed by tenant); no retry, the next cycle picks up whatever is still due.
export function createRecommendationsAnalyseJob(
  container: Container,
): JobDefinition<typeof recommendationsAnalyseJob.payload> {
  return {
    ...recommendationsAnalyseJob,
    policy: 'stately',
    concurrency: 1,
    expireInSeconds,
    retryLimit: 0,
    handle: async ({ tenantId }) => {
      await container.recommendations.analyseTenant(tenantId, {
        signal: AbortSignal.timeout((expireInSeconds - 30) * 1000),
      });
      // Resources set to Automate get their new recommendations planned at their window.
      await container.automation.service.planAutomatedResources(tenantId);
    },
  };
}
