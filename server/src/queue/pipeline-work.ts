// The pipeline jobs by name and payload; pipeline-tick.job.ts attaches the handler.
import { z } from 'zod';

// Every minute: the pipelines whose tick is due run once each, then the approved actions whose grace
// period is over are carried out.
export const pipelineTickJob = { name: 'pipeline-tick', payload: z.object({}) };
