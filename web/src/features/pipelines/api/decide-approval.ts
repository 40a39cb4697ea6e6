import { useMutation, useQueryClient } from '@tanstack/react-query';
import { approvalDecisionRequestSchema, type ApprovalDecision } from '@cloudtrim/contracts/pipelines';
import { requestVoid } from '../../../lib/api-client';
import { approvalQueryKeys } from './get-approvals';
import { pipelineQueryKeys } from './get-pipelines';

export interface DecideApprovalInput {
  id: string;
  decision: ApprovalDecision;
}

// POST /api/v1/approval/{id}: the proposer's own is refused (403, approvalOwnProposalText).
export function decideApproval({ id, decision }: DecideApprovalInput): Promise<void> {
  return requestVoid(`/api/v1/approval/${encodeURIComponent(id)}`, {
    method: 'POST',
    body: approvalDecisionRequestSchema.parse({ decision }),
  });
}

export function useDecideApproval() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: decideApproval,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: approvalQueryKeys.all }),
        queryClient.invalidateQueries({ queryKey: pipelineQueryKeys.all }),
      ]),
  });
}
