import { z } from 'zod';
import type { Container } from '../container';
import type { JobDefinition } from '../queue/queue';

// Every minute: VMs whose active hours just began are started, those whose hours just ended are
// deallocated (the automation-execute jobs it sends carry the Azure calls).
export const activeHoursJob = { name: 'active-hours', payload: z.object({}) };

export function createActiveHoursJob({
  activeHours,
}: Pick<Container, 'activeHours'>): JobDefinition<typeof activeHoursJob.payload> {
  return {
    ...activeHoursJob,
    // One run at a time; a second worker's run would find the boundaries claimed anyway.
    policy: 'stately',
    retryLimit: 1,
    expireInSeconds: 120,
    handle: async () => {
      await activeHours.enforceBoundaries();
    },
  };
}
