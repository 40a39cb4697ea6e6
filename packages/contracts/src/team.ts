import { z } from 'zod';
import { emailAddressSchema, messageResponseSchema } from './common';

// SPEC leaves the Status values open; a member has either joined or still holds an invitation.
export const teamMemberStatuses = ['Active', 'Invited'] as const;
export const teamMemberStatusSchema = z.enum(teamMemberStatuses);
export type TeamMemberStatus = z.infer<typeof teamMemberStatusSchema>;

// GET /api/v1/team. An invited colleague has no name yet: FirstName and LastName are then ''.
export const teamMemberSchema = z.object({
  EmailAddress: z.string(),
  FirstName: z.string(),
  LastName: z.string(),
  Status: teamMemberStatusSchema,
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
