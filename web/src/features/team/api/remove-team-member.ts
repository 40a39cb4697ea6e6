import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  removeTeamMemberRequestSchema,
  removeTeamMemberResponseSchema,
  type RemoveTeamMemberRequest,
  type RemoveTeamMemberResponse,
} from '@cloudtrim/contracts/team';
import { requestJson } from '../../../lib/api-client';
import { teamQueryKeys } from './get-team';

// DELETE /api/v1/team: removes a member, or withdraws an invitation, by email.
export function removeTeamMember(request: RemoveTeamMemberRequest): Promise<RemoveTeamMemberResponse> {
  return requestJson('/api/v1/team', removeTeamMemberResponseSchema, {
    method: 'DELETE',
    body: removeTeamMemberRequestSchema.parse(request),
  });
}

export function useRemoveTeamMember() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeTeamMember,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: teamQueryKeys.all }),
  });
}
