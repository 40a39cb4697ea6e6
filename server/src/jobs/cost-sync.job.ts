import type { Container } from '../container';
import { costSyncJob } from '../queue/cloud-work';
import { defineTenantJob } from './tenant-job';

// Reads a tenant's bill for up to five minutes; where it stopped is kept, and the schedule's next
// fan-out goes on from there. No retry: the plan in the database is the retry. A run that read all
// that was due then evaluates the budgets the tenant's bill counts in (a run stopped half-way leaves
// them to the run that finishes, so no threshold is judged on a bill half read), and looks for cost
// anomalies on the same terms.
export function createCostSyncJob({
  costs,
  budgets,
  costAnomalies,
}: Pick<Container, 'costs' | 'budgets' | 'costAnomalies'>) {
  return defineTenantJob(
    costSyncJob,
    { concurrency: 2, expireInSeconds: 330, deadlineMarginSeconds: 30, retryLimit: 0 },
    async (tenantId, options) => {
      const summary = await costs.syncTenant(tenantId, options);
      if (!summary || options.signal?.aborted) return;
      await budgets.evaluateTenant(tenantId);
      await costAnomalies.evaluateTenant(tenantId);
    },
  );
}
