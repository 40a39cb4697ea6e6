import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { pipelineListResponseSchema, type PipelineListResponse } from '@cloudtrim/contracts/pipelines';
import { requestJson } from '../../../lib/api-client';

export const pipelineQueryKeys = {
  all: ['pipelines'] as const,
  list: (offset: number) => [...pipelineQueryKeys.all, 'list', offset] as const,
  detail: (id: string) => [...pipelineQueryKeys.all, 'detail', id] as const,
  runs: (id: string, offset: number) => [...pipelineQueryKeys.all, 'runs', id, offset] as const,
  run: (runId: string) => [...pipelineQueryKeys.all, 'run', runId] as const,
  templates: () => [...pipelineQueryKeys.all, 'templates'] as const,
  preview: (definition: unknown) => [...pipelineQueryKeys.all, 'preview', definition] as const,
};

// GET /api/v1/pipeline?offset=: the team's pipelines, newest edit first, a page of pageSize.
export function getPipelines({
  offset,
  signal,
}: {
  offset: number;
  signal?: AbortSignal;
}): Promise<PipelineListResponse> {
  return requestJson(`/api/v1/pipeline?offset=${offset}`, pipelineListResponseSchema, { signal });
}

export function getPipelinesQueryOptions(offset: number) {
  return queryOptions({
    queryKey: pipelineQueryKeys.list(offset),
    queryFn: ({ signal }) => getPipelines({ offset, signal }),
    // The page shown stays while the next one loads, so the pager does not jump.
    placeholderData: keepPreviousData,
  });
}

export function usePipelines(offset: number) {
  return useQuery(getPipelinesQueryOptions(offset));
}
