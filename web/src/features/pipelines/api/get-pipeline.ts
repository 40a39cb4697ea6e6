import { queryOptions, useQuery } from '@tanstack/react-query';
import { pipelineSchema, type Pipeline } from '@cloudtrim/contracts/pipelines';
import { requestJson } from '../../../lib/api-client';
import { pipelineQueryKeys } from './get-pipelines';

// GET /api/v1/pipeline/{id}: the pipeline with its whole current definition (the builder edits it).
export function getPipeline({ id, signal }: { id: string; signal?: AbortSignal }): Promise<Pipeline> {
  return requestJson(`/api/v1/pipeline/${encodeURIComponent(id)}`, pipelineSchema, { signal });
}

export function getPipelineQueryOptions(id: string) {
  return queryOptions({
    queryKey: pipelineQueryKeys.detail(id),
    queryFn: ({ signal }) => getPipeline({ id, signal }),
    // Opened for an edit, it must be the version saved last, not one read a while ago.
    staleTime: 0,
  });
}

export function usePipeline(id: string | null) {
  return useQuery({ ...getPipelineQueryOptions(id ?? ''), enabled: id !== null });
}
