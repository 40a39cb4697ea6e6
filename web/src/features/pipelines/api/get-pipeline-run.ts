import { queryOptions, useQuery } from '@tanstack/react-query';
import { pipelineRunDetailSchema, type PipelineRunDetail } from '@cloudtrim/contracts/pipelines';
import { requestJson } from '../../../lib/api-client';
import { runningRefreshMs } from './get-pipeline-runs';
import { pipelineQueryKeys } from './get-pipelines';

// GET /api/v1/pipeline/run/{runId}: a run with each resource it matched and what became of it.
export function getPipelineRun({
  runId,
  signal,
}: {
  runId: string;
  signal?: AbortSignal;
}): Promise<PipelineRunDetail> {
  return requestJson(`/api/v1/pipeline/run/${encodeURIComponent(runId)}`, pipelineRunDetailSchema, {
    signal,
  });
}

export function getPipelineRunQueryOptions(runId: string) {
  return queryOptions({
    queryKey: pipelineQueryKeys.run(runId),
    queryFn: ({ signal }) => getPipelineRun({ runId, signal }),
    refetchInterval: (query) => (query.state.data?.state === 'running' ? runningRefreshMs : false),
  });
}

export function usePipelineRun(runId: string) {
  return useQuery(getPipelineRunQueryOptions(runId));
}
