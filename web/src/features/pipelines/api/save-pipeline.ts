import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  pipelineDefinitionSchema,
  pipelineSchema,
  type Pipeline,
  type PipelineDefinitionRequest,
} from '@cloudtrim/contracts/pipelines';
import { requestJson } from '../../../lib/api-client';
import { pipelineQueryKeys } from './get-pipelines';

export interface SavePipelineInput {
  /** The pipeline changed, or null for a new one. */
  id: string | null;
  definition: PipelineDefinitionRequest;
}

// POST /api/v1/pipeline or PUT /api/v1/pipeline/{id}: an edit saves a new version, its state kept.
export function savePipeline({ id, definition }: SavePipelineInput): Promise<Pipeline> {
  const body = pipelineDefinitionSchema.parse(definition);
  return id === null
    ? requestJson('/api/v1/pipeline', pipelineSchema, { method: 'POST', body })
    : requestJson(`/api/v1/pipeline/${encodeURIComponent(id)}`, pipelineSchema, { method: 'PUT', body });
}

export function useSavePipeline() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: savePipeline,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: pipelineQueryKeys.all }),
  });
}
