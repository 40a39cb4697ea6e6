import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  pipelineRunDetailSchema,
  pipelineRunRequestSchema,
  type PipelineRunDetail,
} from '@cloudtrim/contracts/pipelines';
import { requestJson } from '../../../lib/api-client';
import { approvalQueryKeys } from './get-approvals';
import { pipelineQueryKeys } from './get-pipelines';

export interface RunPipelineInput {
  id: string;
  /** A dry run records what the pipeline matches and writes nothing to Azure. */
  dryRun: boolean;
}

// POST /api/v1/pipeline/{id}/run: the run at once, its items as far as it has gone.
export function runPipeline({ id, dryRun }: RunPipelineInput): Promise<PipelineRunDetail> {
  return requestJson(`/api/v1/pipeline/${encodeURIComponent(id)}/run`, pipelineRunDetailSchema, {
    method: 'POST',
    body: pipelineRunRequestSchema.parse({ dryRun }),
  });
}

export function useRunPipeline() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: runPipeline,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: pipelineQueryKeys.all }),
        queryClient.invalidateQueries({ queryKey: approvalQueryKeys.all }),
      ]),
  });
}
