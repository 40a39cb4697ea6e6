import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  setTeamRoleRequestSchema,
  setTeamRoleResponseSchema,
  type SetTeamRoleRequest,
  type SetTeamRoleResponse,
} from '@cloudtrim/contracts/team';
import { requestJson } from '../../../lib/api-client';
import { teamQueryKeys } from './get-team';

// PUT /api/v1/team/role: an Owner sets a member's role.
export function setTeamRole(request: SetTeamRoleRequest): Promise<SetTeamRoleResponse> {
  return requestJson('/api/v1/team/role', setTeamRoleResponseSchema, {
    method: 'PUT',
    body: setTeamRoleRequestSchema.parse(request),
  });
}

export function useSetTeamRole() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setTeamRole,
    onSettled: () => queryClient.invalidateQueries({ queryKey: teamQueryKeys.all }),
  });
}
