import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  inviteColleagueQuerySchema,
  inviteColleagueResponseSchema,
  type InviteColleagueQuery,
  type InviteColleagueResponse,
} from '@cloudtrim/contracts/team';
import { requestJson } from '../../../lib/api-client';
import { teamQueryKeys } from './get-team';

// POST /api/v1/colleague?emailAddress=: mails the colleague a link to sign up into this team. No body.
export function inviteColleague(query: InviteColleagueQuery): Promise<InviteColleagueResponse> {
  const search = new URLSearchParams(inviteColleagueQuerySchema.parse(query));
  return requestJson(`/api/v1/colleague?${search.toString()}`, inviteColleagueResponseSchema, {
    method: 'POST',
  });
}

export function useInviteColleague() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: inviteColleague,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: teamQueryKeys.all }),
  });
}
