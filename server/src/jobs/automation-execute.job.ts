import type { Container } from '../container';
import { automationExecuteJob } from './automation-work';
import type { JobDefinition } from './queue';

// One scheduled change carried out in Azure. Each step has its own deadline inside the executor;
// the job's expiry only has to outlast all of them.
export function createAutomationExecuteJob({
  automation,
}: Pick<Container, 'automation'>): JobDefinition<typeof automationExecuteJob.payload> {
  return {
    ...automationExecuteJob,
    concurrency: 32,
    pollingIntervalSeconds: 2,
    retryLimit: 5,
    retryDelaySeconds: 5,
    expireInSeconds: 3 * 60 * 60,
    // A worker killed mid-change gives its job back within seconds; the next run resumes the change.
    heartbeatSeconds: 10,
    handle: async ({ changeId }) => {
      await automation.executor.execute(changeId);
    },
  };
}
