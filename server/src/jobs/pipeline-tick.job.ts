import type { Container } from '../container';
import type { JobDefinition } from '../queue/queue';
import { pipelineRunJob, pipelineTickJob } from '../queue/pipeline-work';

// Every minute. A tick stays due for a quarter of an hour, so a run that failed is claimed again at
// the next minute; the claim's unique key keeps it to one run however many workers try. Each due
// pipeline is sent as its own job (pipeline-run), keyed by pipeline and tick, its priority its place
// in its team's turn (so one team's many or slow pipelines never queue ahead of another team's).
export function createPipelineTickJob({
  pipelines,
  queue,
}: Pick<Container, 'pipelines' | 'queue'>): JobDefinition<typeof pipelineTickJob.payload> {
  return {
    ...pipelineTickJob,
    policy: 'stately',
    retryLimit: 1,
    expireInSeconds: 300,
    handle: async () => {
      await pipelines.dispatchDuePipelines(async (due) => {
        for (const { priority, ...run } of due) {
          await queue.send(pipelineRunJob, run, {
            singletonKey: `${run.pipelineId}:${run.tick}`,
            priority,
          });
        }
      });
    },
  };
}
