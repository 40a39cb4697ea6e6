import type { Container } from '../container';
import { automationDispatchJob, automationGuardJob } from '../queue/automation-work';
import type { JobDefinition } from '../queue/queue';

// Every minute: the planned changes now due are claimed and their executions sent.
export function createAutomationDispatchJob({
  automation,
}: Pick<Container, 'automation'>): JobDefinition<typeof automationDispatchJob.payload> {
  return {
    ...automationDispatchJob,
    policy: 'stately',
    retryLimit: 1,
    expireInSeconds: 300,
    handle: async () => {
      await automation.service.dispatchDueChanges();
    },
  };
}

// Every five minutes, after each collection: VMs made smaller whose load rose get their size back.
export function createAutomationGuardJob({
  automation,
}: Pick<Container, 'automation'>): JobDefinition<typeof automationGuardJob.payload> {
  return {
    ...automationGuardJob,
    policy: 'stately',
    retryLimit: 1,
    expireInSeconds: 600,
    handle: async () => {
      await automation.guard.checkGuardedChanges();
    },
  };
}
