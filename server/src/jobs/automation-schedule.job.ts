import type { Container } from '../container';
import { automationDispatchJob, automationGuardJob } from './automation-jobs.job';
import type { JobDefinition } from './queue';

// Every minute: the planned changes now due are claimed and their executions sent.
export function createAutomationDispatchJob(
  container: Container,
): JobDefinition<typeof automationDispatchJob.payload> {
  return {
    ...automationDispatchJob,
    policy: 'stately',
    retryLimit: 1,
    expireInSeconds: 300,
    handle: async () => {
      await container.automation.service.dispatchDueChanges();
    },
  };
}

// Every five minutes, after each collection: VMs made smaller whose load rose get their size back.
export function createAutomationGuardJob(
  container: Container,
): JobDefinition<typeof automationGuardJob.payload> {
  return {
    ...automationGuardJob,
    policy: 'stately',
    retryLimit: 1,
    expireInSeconds: 600,
    handle: async () => {
      await container.automation.guard.checkGuardedChanges();
    },
  };
}
