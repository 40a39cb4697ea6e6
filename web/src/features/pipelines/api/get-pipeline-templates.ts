import { queryOptions, useQuery } from '@tanstack/react-query';
import {
  pipelineTemplatesResponseSchema,
  type PipelineTemplatesResponse,
} from '@cloudtrim/contracts/pipelines';
import { requestJson } from '../../../lib/api-client';
import { pipelineQueryKeys } from './get-pipelines';

// GET /api/v1/pipeline/templates: the pipelines a new one can start from.
export function getPipelineTemplates({
  signal,
}: { signal?: AbortSignal } = {}): Promise<PipelineTemplatesResponse> {
  return requestJson('/api/v1/pipeline/templates', pipelineTemplatesResponseSchema, { signal });
}

export function getPipelineTemplatesQueryOptions() {
  return queryOptions({
    queryKey: pipelineQueryKeys.templates(),
    queryFn: ({ signal }) => getPipelineTemplates({ signal }),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

export function usePipelineTemplates() {
  return useQuery(getPipelineTemplatesQueryOptions());
}
