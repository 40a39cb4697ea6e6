import type { Container } from '../container';
import type { JobDefinition } from '../queue/queue';
import { pipelineTickJob } from '../queue/pipeline-work';

// Every minute. A tick stays due for a quarter of an hour, so a run that failed is claimed again at
// the next minute; the claim's unique key keeps it to one run however many workers try.
export function createPipelineTickJob({
  pipelines,
}: Pick<Container, 'pipelines'>): JobDefinition<typeof pipelineTickJob.payload> {
  return {
    ...pipelineTickJob,
    policy: 'stately',
    retryLimit: 1,
    expireInSeconds: 300,
    handle: async () => {
      await pipelines.runDuePipelines();
    },
  };
}
