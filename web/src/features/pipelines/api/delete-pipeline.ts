import { useMutation, useQueryClient } from '@tanstack/react-query';
import { requestVoid } from '../../../lib/api-client';
import { pipelineQueryKeys } from './get-pipelines';

// DELETE /api/v1/pipeline/{id}
export function deletePipeline(id: string): Promise<void> {
  return requestVoid(`/api/v1/pipeline/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

export function useDeletePipeline() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deletePipeline,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: pipelineQueryKeys.all }),
  });
}
