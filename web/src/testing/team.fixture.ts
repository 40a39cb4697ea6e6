import type { TeamResponse, TeamRole } from '@cloudtrim/contracts/team';

// The signed-in user as the web tests store them (localStorage's 'email').
export const testUserEmail = 'demo@cloudtrim.dev';

/** GET /api/v1/team's answer with the signed-in user alone, in `role` (what useMyRole reads). */
export function createTeamOfMe(role: TeamRole): TeamResponse {
  return [{ EmailAddress: testUserEmail, FirstName: 'Demo', LastName: 'User', Status: 'Active', role }];
}
