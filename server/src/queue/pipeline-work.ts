// The pipeline jobs by name and payload; pipeline-tick.job.ts attaches the handler.
import { z } from 'zod';

// Every minute: the pipelines whose tick is due run once each, then the approved actions whose grace
// period is over are carried out.
export const pipelineTickJob = { name: 'pipeline-tick', payload: z.object({}) };

// Daily: run items past their 90 days are deleted.
export const pipelinePurgeJob = { name: 'pipeline-purge', payload: z.object({}) };

// One due pipeline's scheduled run for its tick, as its own job (the tick job sends one a pipeline,
// keyed by pipeline and tick), so the workers share a minute's runs and one team's many or slow
// pipelines delay only themselves.
export const pipelineRunJob = {
  name: 'pipeline-run',
  payload: z.object({ pipelineId: z.string(), teamId: z.string(), tick: z.string() }),
};
