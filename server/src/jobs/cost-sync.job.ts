import type { Container } from '../container';
import { costSyncJob } from '../queue/cloud-work';
import { defineTenantJob } from './tenant-job';

const longestHeldWaitMs = 10_000;

// Reads a tenant's bill for up to five minutes; where it stopped is kept, and the schedule's next
// fan-out goes on from there. No retry: the plan in the database is the retry. Many tenants' runs
// side by side, since a run mostly waits on its tenant's Cost Management budget (about a query a
// second, per tenant): a wait of up to 10 s (the window Azure counts 12 queries over) is spent in
// the run's place, a longer one (the minute's or hour's budget spent) ends the run and queues the
// next for the wait's end, so the place goes to another tenant meanwhile. A run that read all that
// was due then evaluates the budgets the tenant's bill counts in (a run stopped half-way leaves
// them to the run that finishes, so no threshold is judged on a bill half read), and looks for cost
// anomalies on the same terms.
export function createCostSyncJob({
  costs,
  budgets,
  costAnomalies,
}: Pick<Container, 'costs' | 'budgets' | 'costAnomalies'>) {
  return defineTenantJob(
    costSyncJob,
    { concurrency: 8, expireInSeconds: 330, deadlineMarginSeconds: 30, retryLimit: 0 },
    async (tenantId, options) => {
      const summary = await costs.syncTenant(tenantId, { ...options, longestHeldWaitMs });
      if (!summary || summary.resumeAt || options.signal?.aborted) return;
      await budgets.evaluateTenant(tenantId);
      await costAnomalies.evaluateTenant(tenantId);
    },
  );
}
