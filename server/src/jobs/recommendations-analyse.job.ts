import type { Container } from '../container';
import { recommendationsAnalyseJob } from '../queue/cloud-work';
import { defineTenantJob } from './tenant-job';

// One tenant's analysis after its collection cycle: the VMs whose data changed, and its disks,
// public IPs, stopped VMs, plans and databases judged for waste (once an hour). One at a time per
// tenant; no retry, the next cycle picks up whatever is still due.
export function createRecommendationsAnalyseJob({
  recommendations,
  automation,
}: Pick<Container, 'recommendations' | 'automation'>) {
  return defineTenantJob(
    recommendationsAnalyseJob,
    { concurrency: 1, expireInSeconds: 600, deadlineMarginSeconds: 30, retryLimit: 0 },
    async (tenantId, options) => {
      await recommendations.analyseTenant(tenantId, options);
      // Resources set to Automate get their new recommendations planned at their window.
      await automation.service.planAutomatedResources(tenantId);
    },
  );
}
