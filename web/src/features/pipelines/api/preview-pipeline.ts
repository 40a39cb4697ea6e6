import { keepPreviousData, queryOptions, skipToken, useQuery } from '@tanstack/react-query';
import {
  pipelineDefinitionSchema,
  pipelinePreviewResponseSchema,
  type PipelineDefinitionRequest,
  type PipelinePreviewResponse,
} from '@cloudtrim/contracts/pipelines';
import { requestJson } from '../../../lib/api-client';
import { pipelineQueryKeys } from './get-pipelines';

// POST /api/v1/pipeline/preview: a definition not yet saved against the team's resources now. It writes
// nothing (to Azure or to the runs), so it is read as a query: one answer per definition, kept a while.
export function previewPipeline({
  definition,
  signal,
}: {
  definition: PipelineDefinitionRequest;
  signal?: AbortSignal;
}): Promise<PipelinePreviewResponse> {
  return requestJson('/api/v1/pipeline/preview', pipelinePreviewResponseSchema, {
    method: 'POST',
    body: pipelineDefinitionSchema.parse(definition),
    signal,
  });
}

/** The preview of `definition`; none is asked for while it is null (the form does not pass the contract). */
export function getPipelinePreviewQueryOptions(definition: PipelineDefinitionRequest | null) {
  return queryOptions({
    queryKey: pipelineQueryKeys.preview(definition),
    queryFn: definition ? ({ signal }) => previewPipeline({ definition, signal }) : skipToken,
    // The last preview stays in view while the next one loads, so the panel does not flicker as one types.
    placeholderData: keepPreviousData,
  });
}

export function usePipelinePreview(definition: PipelineDefinitionRequest | null) {
  return useQuery(getPipelinePreviewQueryOptions(definition));
}
