import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { pipelineRunListResponseSchema, type PipelineRunListResponse } from '@cloudtrim/contracts/pipelines';
import { requestJson } from '../../../lib/api-client';
import { pipelineQueryKeys } from './get-pipelines';

// GET /api/v1/pipeline/{id}/runs?offset=: the pipeline's runs, newest first, a page of pageSize.
export function getPipelineRuns({
  id,
  offset,
  signal,
}: {
  id: string;
  offset: number;
  signal?: AbortSignal;
}): Promise<PipelineRunListResponse> {
  return requestJson(
    `/api/v1/pipeline/${encodeURIComponent(id)}/runs?offset=${offset}`,
    pipelineRunListResponseSchema,
    { signal },
  );
}

export function getPipelineRunsQueryOptions(id: string, offset: number) {
  return queryOptions({
    queryKey: pipelineQueryKeys.runs(id, offset),
    queryFn: ({ signal }) => getPipelineRuns({ id, offset, signal }),
    placeholderData: keepPreviousData,
    // A run started here or by the schedule shows up, and a running one moves on, without a reload.
    refetchInterval: (query) =>
      query.state.data?.runs.some((run) => run.state === 'running') ? runningRefreshMs : false,
  });
}

/** How often a list or a run still running is read again. */
export const runningRefreshMs = 3_000;

export function usePipelineRuns(id: string, offset: number) {
  return useQuery(getPipelineRunsQueryOptions(id, offset));
}
