import type { Container } from '../container';
import type { JobDefinition } from '../queue/queue';
import { pipelinePurgeJob } from '../queue/pipeline-work';

// Daily: the items of pipeline runs older than 90 days (the runs and their counts stay).
export function createPipelinePurgeJob({
  pipelines,
}: Pick<Container, 'pipelines'>): JobDefinition<typeof pipelinePurgeJob.payload> {
  return {
    ...pipelinePurgeJob,
    expireInSeconds: 1800,
    retryLimit: 1,
    handle: async () => {
      await pipelines.purgeRunItems();
    },
  };
}
