import { z } from 'zod';
import { emailAddressSchema, messageResponseSchema } from './common';

// SPEC leaves the Status values open; a member has either joined or still holds an invitation.
export const teamMemberStatuses = ['Active', 'Invited'] as const;
export const teamMemberStatusSchema = z.enum(teamMemberStatuses);
export type TeamMemberStatus = z.infer<typeof teamMemberStatusSchema>;

// A member's role in the team (issue 23 §2). Owner: the team's creator, grants roles; Approver: may
// approve a colleague's destructive action; Member: reads and changes; Viewer: reads only. New members
// join as Member.
export const teamRoles = ['Owner', 'Approver', 'Member', 'Viewer'] as const;
export const teamRoleSchema = z.enum(teamRoles, { error: 'Role must be Owner, Approver, Member or Viewer.' });
export type TeamRole = z.infer<typeof teamRoleSchema>;

// GET /api/v1/team. An invited colleague has no name yet: FirstName and LastName are then ''; their
// role is the one they will join with (Member). `role` is spelt as issue 23 names it.
export const teamMemberSchema = z.object({
  EmailAddress: z.string(),
  FirstName: z.string(),
  LastName: z.string(),
  Status: teamMemberStatusSchema,
  role: teamRoleSchema,
});
export type TeamMember = z.infer<typeof teamMemberSchema>;

export const teamResponseSchema = z.array(teamMemberSchema);
export type TeamResponse = z.infer<typeof teamResponseSchema>;

// DELETE /api/v1/team: removes a member, or withdraws an invitation, by email.
export const removeTeamMemberRequestSchema = z.object({ emailAddress: emailAddressSchema });
export type RemoveTeamMemberRequest = z.infer<typeof removeTeamMemberRequestSchema>;

export const removeTeamMemberResponseSchema = messageResponseSchema;
export type RemoveTeamMemberResponse = z.infer<typeof removeTeamMemberResponseSchema>;

// POST /api/v1/colleague?emailAddress=: invites a colleague; no body.
export const inviteColleagueQuerySchema = z.object({ emailAddress: emailAddressSchema });
export type InviteColleagueQuery = z.infer<typeof inviteColleagueQuerySchema>;

export const inviteColleagueResponseSchema = messageResponseSchema;
export type InviteColleagueResponse = z.infer<typeof inviteColleagueResponseSchema>;

// PUT /api/v1/team/role: an Owner sets a member's role; a team always keeps one Owner.
export const setTeamRoleRequestSchema = z.object({ emailAddress: emailAddressSchema, role: teamRoleSchema });
export type SetTeamRoleRequest = z.infer<typeof setTeamRoleRequestSchema>;

export const setTeamRoleResponseSchema = messageResponseSchema;
export type SetTeamRoleResponse = z.infer<typeof setTeamRoleResponseSchema>;

export const ownerOnlyText = 'Only an Owner of your team can change roles.';
export const lastOwnerText = 'A team always keeps one Owner: make another member Owner first.';
export const viewerReadOnlyText =
  'A Viewer can only read: ask an Owner of your team for the Member role to make changes.';
