import type { MessageResponse } from '@cloudtrim/contracts/common';
import { inviteConflictText, inviteSuccessText } from '@cloudtrim/contracts/messages';
import type { TeamSettings } from '@cloudtrim/contracts/recommendations';
import { lastOwnerText, ownerOnlyText, type TeamResponse, type TeamRole } from '@cloudtrim/contracts/team';
import { conflict, forbidden, notFound, tooManyRequests, unauthorized } from '../../lib/http-errors';
import { createOneTimeToken, hashToken } from '../../lib/secret-box';
import type { AccountRepository } from '../account/account.repository';
import type { AuthContext, AuthService } from '../auth/auth.service';
import type { MailService } from '../mail/mail.service';
import { buildVerifyLink, describeDuration, renderInvitationEmail } from '../mail/mail.templates';
import type { ThrottleRule, ThrottleService } from '../throttle/throttle.service';
import { nameTeamFor } from '../account/team-name';
import { TeamRepository } from './team.repository';

// An invitation lives 7 days. A user may send 20 invitations an hour: each answer also tells whether
// an address has an account, so the bound limits probing too.
export const teamRules = {
  invitationLifetimeSeconds: 7 * 86_400,
  invitationsPerUser: { limit: 20, windowSeconds: 3600 },
} satisfies Record<string, number | ThrottleRule>;

export const lastMemberText = 'The last member of a team cannot be removed: a team always keeps one member.';
export const notMemberText = 'There is no member with that email address in your team.';
export const notInTeamText = 'There is no member or invitation with that email address in your team.';
const tooManyInvitationsText = 'Too many invitations. Please wait a while before inviting more colleagues.';

// Everything here is scoped to the caller's team: another team's member answers 404.
export class TeamService {
  constructor(
    private readonly teams: TeamRepository,
    private readonly users: AccountRepository,
    private readonly auth: AuthService,
    private readonly throttle: ThrottleService,
    private readonly mail: MailService,
    private readonly publicUrl: string,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async listTeam(auth: AuthContext): Promise<TeamResponse> {
    const members = await this.teams.listMembers(auth.teamId);
    const invitedEmails = await this.teams.listPendingInvitationEmails(auth.teamId, this.now());
    return [
      ...members.map((member) => ({
        EmailAddress: member.email,
        FirstName: member.firstName,
        LastName: member.lastName,
        Status: 'Active' as const,
        role: member.role,
      })),
      ...invitedEmails.map((email) => ({
        EmailAddress: email,
        FirstName: '',
        LastName: '',
        Status: 'Invited' as const,
        role: 'Member' as const,
      })),
    ];
  }

  // The link leads to the sign-up completion screen; the account it creates joins the inviter's team.
  async invite(auth: AuthContext, email: string): Promise<MessageResponse> {
    if (await this.throttle.hit(`invite:${auth.userId}`, teamRules.invitationsPerUser)) {
      throw tooManyRequests(tooManyInvitationsText);
    }
    const now = this.now();
    if ((await this.users.findByEmail(email)) || (await this.teams.hasPendingInvitation(email, now))) {
      throw conflict(inviteConflictText(email));
    }
    const inviter = await this.teams.findInviter(auth.userId);
    if (!inviter) throw unauthorized();
    const token = createOneTimeToken();
    const isCreated = await this.teams.createInvitation({
      teamId: auth.teamId,
      email,
      invitedBy: auth.userId,
      tokenHash: hashToken(token),
      createdAt: now,
      expiresAt: new Date(now.getTime() + teamRules.invitationLifetimeSeconds * 1000),
    });
    if (!isCreated) throw conflict(inviteConflictText(email));
    await this.mail.enqueue(
      email,
      renderInvitationEmail({
        link: buildVerifyLink(this.publicUrl, token),
        validFor: describeDuration(teamRules.invitationLifetimeSeconds),
        inviterName: `${inviter.firstName} ${inviter.lastName}`,
        inviterEmail: inviter.email,
        teamName: inviter.teamName,
      }),
    );
    return { message: inviteSuccessText };
  }

  // A removed member keeps their account, moved into a new team of their own, and is logged out in
  // the same transaction: a session of theirs still open, cached on any process with the old team,
  // would otherwise go on reading that team, for good if the logout failed after the move.
  async removeFromTeam(auth: AuthContext, email: string): Promise<MessageResponse> {
    const member = await this.teams.findMember(auth.teamId, email);
    if (member) {
      const newTeamName = nameTeamFor({ firstName: member.firstName, lastName: member.lastName });
      let refusal = lastMemberText;
      const isMoved = await this.auth.logOutEverywhereWith(member.userId, async (db) => {
        const outcome = await new TeamRepository(db).moveToOwnTeam(member, auth.teamId, newTeamName);
        if (outcome === 'lastOwner') refusal = lastOwnerText;
        return outcome === 'moved';
      });
      if (!isMoved) throw conflict(refusal);
      return { message: `${email} has been removed from your team.` };
    }
    if (await this.teams.deletePendingInvitation(auth.teamId, email)) {
      return { message: `The invitation to ${email} has been withdrawn.` };
    }
    throw notFound(notInTeamText);
  }

  async findRole(userId: string): Promise<TeamRole | undefined> {
    return (await this.teams.findMembership(userId))?.role;
  }

  // An Owner's call: sets a member's role. The team keeps at least one Owner.
  async setRole(auth: AuthContext, email: string, role: TeamRole): Promise<MessageResponse> {
    const caller = await this.teams.findMembership(auth.userId);
    if (caller?.teamId !== auth.teamId || caller.role !== 'Owner') throw forbidden(ownerOnlyText);
    const outcome = await this.teams.setRole(auth.teamId, email, role);
    if (outcome === 'notMember') throw notFound(notMemberText);
    if (outcome === 'lastOwner') throw conflict(lastOwnerText);
    return { message: `${email} is now ${role === 'Owner' || role === 'Approver' ? 'an' : 'a'} ${role}.` };
  }

  async getSettings(teamId: string): Promise<TeamSettings> {
    const settings = await this.teams.readSettings(teamId);
    return {
      LookbackDays: settings.lookbackDays,
      DefaultMaintenanceWindow: settings.defaultMaintenanceWindow,
    };
  }

  async saveSettings(teamId: string, settings: TeamSettings): Promise<TeamSettings> {
    const saved = await this.teams.saveSettings(teamId, {
      lookbackDays: settings.LookbackDays,
      defaultMaintenanceWindow: settings.DefaultMaintenanceWindow,
    });
    return { LookbackDays: saved.lookbackDays, DefaultMaintenanceWindow: saved.defaultMaintenanceWindow };
  }
}
