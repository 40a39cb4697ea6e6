import { useMutation, useQueryClient } from '@tanstack/react-query';
import { pipelineSchema, type Pipeline } from '@cloudtrim/contracts/pipelines';
import { requestJson } from '../../../lib/api-client';
import { pipelineQueryKeys } from './get-pipelines';

export interface ChangePipelineStateInput {
  id: string;
  /** Pause stops its schedule; resume starts it again from the next tick. */
  change: 'pause' | 'resume';
}

// POST /api/v1/pipeline/{id}/pause or /resume
export function changePipelineState({ id, change }: ChangePipelineStateInput): Promise<Pipeline> {
  return requestJson(`/api/v1/pipeline/${encodeURIComponent(id)}/${change}`, pipelineSchema, {
    method: 'POST',
  });
}

export function useChangePipelineState() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changePipelineState,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: pipelineQueryKeys.all }),
  });
}
