import { queryOptions, useQuery } from '@tanstack/react-query';
import { teamResponseSchema, type TeamResponse } from '@cloudtrim/contracts/team';
import { requestJson } from '../../../lib/api-client';

export const teamQueryKeys = {
  all: ['team'] as const,
  members: () => [...teamQueryKeys.all, 'members'] as const,
};

// GET /api/v1/team: members and pending invitations of the user's team.
export function getTeam({ signal }: { signal?: AbortSignal } = {}): Promise<TeamResponse> {
  return requestJson('/api/v1/team', teamResponseSchema, { signal });
}

export function getTeamQueryOptions() {
  return queryOptions({
    queryKey: teamQueryKeys.members(),
    queryFn: ({ signal }) => getTeam({ signal }),
  });
}

export function useTeam() {
  return useQuery(getTeamQueryOptions());
}
