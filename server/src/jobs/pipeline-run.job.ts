import type { Container } from '../container';
import type { JobDefinition } from '../queue/queue';
import { pipelineRunJob } from '../queue/pipeline-work';

// A due pipeline's run for its tick; its failure is recorded as that run's, never thrown (so a retry
// never runs it twice: the tick's claim decides anyway).
export function createPipelineRunJob({
  pipelines,
}: Pick<Container, 'pipelines'>): JobDefinition<typeof pipelineRunJob.payload> {
  return {
    ...pipelineRunJob,
    policy: 'stately',
    retryLimit: 1,
    expireInSeconds: 300,
    concurrency: 4,
    handle: async (payload) => {
      await pipelines.runScheduledPipeline(payload.teamId, payload.pipelineId, new Date(payload.tick));
    },
  };
}
