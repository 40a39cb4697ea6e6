// The automation jobs by name and payload; the services send them, automation-execute.job.ts and
// automation-schedule.job.ts attach the handlers.
import { z } from 'zod';

export const automationExecuteJob = {
  name: 'automation-execute',
  payload: z.object({ changeId: z.number().int().positive() }),
};
// Every minute: claims the planned changes that are due and sends their executions.
export const automationDispatchJob = { name: 'automation-dispatch', payload: z.object({}) };
// Every five minutes (as often as metrics are collected): the rollback guard.
export const automationGuardJob = { name: 'automation-guard', payload: z.object({}) };
