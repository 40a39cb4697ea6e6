import { useQuery } from '@tanstack/react-query';
import { teamResponseSchema, type TeamRole } from '@cloudtrim/contracts/team';
import { requestJson } from './api-client';
import { readSession } from './session';

// The team screen's own query (same key, same answer), so the two share one cache entry, and a role
// changed on /team (which refreshes ['team']) holds here at once.
const teamMembersQueryKey = ['team', 'members'] as const;

/**
 * The signed-in user's role in their team (issue 23 §2), undefined until known. The server refuses
 * what a role may not do; screens use this only to hide or disable what would be refused.
 */
export function useMyRole(): TeamRole | undefined {
  const team = useQuery({
    queryKey: teamMembersQueryKey,
    queryFn: ({ signal }) => requestJson('/api/v1/team', teamResponseSchema, { signal }),
  });
  const email = readSession()?.email.toLowerCase() ?? '';
  return team.data?.find(
    (member) => member.Status === 'Active' && member.EmailAddress.toLowerCase() === email,
  )?.role;
}

/** A Viewer reads only: the screens hide or disable every change for them. */
export function useIsReadOnly(): boolean {
  return useMyRole() === 'Viewer';
}
