import type { Container } from '../container';
import { automationExecuteJob } from '../queue/automation-work';
import type { JobDefinition } from '../queue/queue';

// One scheduled change carried out in Azure. Each step has its own deadline inside the executor;
// the job's expiry only has to outlast all of them. A worker killed mid-change needs no job
// heartbeat: the change's own lease lapses within 30 s and the dispatcher sends it again, and the
// next run resumes it. 64 side by side: the runs wait on Azure, not on this process (bench/apply).
export function createAutomationExecuteJob({
  automation,
}: Pick<Container, 'automation'>): JobDefinition<typeof automationExecuteJob.payload> {
  return {
    ...automationExecuteJob,
    concurrency: 64,
    pollingIntervalSeconds: 2,
    retryLimit: 5,
    retryDelaySeconds: 5,
    expireInSeconds: 3 * 60 * 60,
    // The job's signal (its expiry, the workers' stop) reaches the calls to Azure in flight.
    handle: async ({ changeId }, context) => {
      await automation.executor.execute(changeId, context?.signal);
    },
  };
}
