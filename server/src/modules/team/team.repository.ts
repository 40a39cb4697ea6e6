import { and, asc, count, eq, gt, inArray, isNull, lt, lte, sql } from 'drizzle-orm';
import { isUniqueViolation, type Db, type Executor } from '../../db/database';
import type { TeamRole } from '@cloudtrim/contracts/team';
import { invitations, teams, users } from '../../db/schema';
import { insertTeam, moveUserToTeam, setUserRole, updateTeamSettings } from '../account/account.repository';
import { markTeamResourcesDue } from '../resources/resource-writes.repository';

export interface Member {
  userId: string;
  email: string;
  firstName: string;
  lastName: string;
  role: TeamRole;
}

// A user's place in their team: what they may do, and since when (an approval counts only from a
// member who joined before the proposal).
export interface Membership {
  teamId: string;
  role: TeamRole;
  joinedTeamAt: Date;
}

export type SetRoleResult = 'set' | 'notMember' | 'lastOwner';

export interface Inviter {
  firstName: string;
  lastName: string;
  email: string;
  teamName: string;
}

export interface NewInvitation {
  teamId: string;
  email: string;
  invitedBy: string;
  tokenHash: string;
  createdAt: Date;
  expiresAt: Date;
}

// How far back the engine looks and the default maintenance hour (UTC).
export interface TeamSettingsRow {
  lookbackDays: number;
  defaultMaintenanceWindow: number;
}

const memberColumns = {
  userId: users.id,
  email: users.email,
  firstName: users.firstName,
  lastName: users.lastName,
  role: users.role,
};

export class TeamRepository {
  constructor(private readonly db: Db) {}

  async findMembership(userId: string): Promise<Membership | undefined> {
    const [row] = await this.db
      .select({ teamId: users.teamId, role: users.role, joinedTeamAt: users.joinedTeamAt })
      .from(users)
      .where(eq(users.id, userId));
    return row;
  }

  // The team row is locked until the change commits, so two Owners demoting each other at once cannot
  // leave the team without one.
  async setRole(teamId: string, email: string, role: TeamRole): Promise<SetRoleResult> {
    return this.db.transaction(async (transaction) => {
      await transaction.select({ id: teams.id }).from(teams).where(eq(teams.id, teamId)).for('update');
      const [member] = await transaction
        .select({ userId: users.id, role: users.role })
        .from(users)
        .where(and(eq(users.teamId, teamId), eq(users.email, email)));
      if (!member) return 'notMember';
      if (member.role === 'Owner' && role !== 'Owner') {
        const [owners] = await transaction
          .select({ count: count() })
          .from(users)
          .where(and(eq(users.teamId, teamId), eq(users.role, 'Owner')));
        if ((owners?.count ?? 0) <= 1) return 'lastOwner';
      }
      await setUserRole(transaction, member.userId, role);
      return 'set';
    });
  }

  async findInviter(userId: string): Promise<Inviter | undefined> {
    const [row] = await this.db
      .select({
        firstName: users.firstName,
        lastName: users.lastName,
        email: users.email,
        teamName: teams.name,
      })
      .from(users)
      .innerJoin(teams, eq(teams.id, users.teamId))
      .where(eq(users.id, userId));
    return row;
  }

  listMembers(teamId: string): Promise<Member[]> {
    return this.db
      .select(memberColumns)
      .from(users)
      .where(eq(users.teamId, teamId))
      .orderBy(asc(users.email));
  }

  async findMember(teamId: string, email: string): Promise<Member | undefined> {
    const [row] = await this.db
      .select(memberColumns)
      .from(users)
      .where(and(eq(users.teamId, teamId), eq(users.email, email)));
    return row;
  }

  async listPendingInvitationEmails(teamId: string, now: Date): Promise<string[]> {
    const rows = await this.db
      .select({ email: invitations.email })
      .from(invitations)
      .where(
        and(eq(invitations.teamId, teamId), isNull(invitations.acceptedAt), gt(invitations.expiresAt, now)),
      )
      .orderBy(asc(invitations.email));
    return rows.map((row) => row.email);
  }

  async hasPendingInvitation(email: string, now: Date): Promise<boolean> {
    const [row] = await this.db
      .select({ count: count() })
      .from(invitations)
      .where(
        and(eq(invitations.email, email), isNull(invitations.acceptedAt), gt(invitations.expiresAt, now)),
      );
    return (row?.count ?? 0) > 0;
  }

  // False when the address already holds a pending invitation. An expired one is replaced: the
  // database allows one unaccepted invitation per address.
  async createInvitation(invitation: NewInvitation): Promise<boolean> {
    try {
      await this.db.transaction(async (transaction) => {
        await transaction
          .delete(invitations)
          .where(
            and(
              eq(invitations.email, invitation.email),
              isNull(invitations.acceptedAt),
              lte(invitations.expiresAt, invitation.createdAt),
            ),
          );
        await transaction.insert(invitations).values(invitation);
      });
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  async deletePendingInvitation(teamId: string, email: string): Promise<boolean> {
    const deleted = await this.db
      .delete(invitations)
      .where(
        and(eq(invitations.teamId, teamId), eq(invitations.email, email), isNull(invitations.acceptedAt)),
      )
      .returning({ id: invitations.id });
    return deleted.length > 0;
  }

  // Moves a member out into a new team of their own, in the caller's transaction (the one that ends
  // the member's sessions: TeamService.removeFromTeam). The team row is locked until it commits, so
  // two removals at once cannot empty it, nor leave it without an Owner. The member is the Owner of
  // their new team.
  async moveToOwnTeam(
    member: Member,
    teamId: string,
    newTeamName: string,
  ): Promise<'moved' | 'lastMember' | 'lastOwner'> {
    await this.db.select({ id: teams.id }).from(teams).where(eq(teams.id, teamId)).for('update');
    const [members] = await this.db.select({ count: count() }).from(users).where(eq(users.teamId, teamId));
    if ((members?.count ?? 0) <= 1) return 'lastMember';
    const [owners] = await this.db
      .select({ count: count() })
      .from(users)
      .where(and(eq(users.teamId, teamId), eq(users.role, 'Owner'), sql`${users.id} <> ${member.userId}`));
    if ((owners?.count ?? 0) === 0) return 'lastOwner';
    const newTeamId = await insertTeam(this.db, newTeamName);
    await moveUserToTeam(this.db, member.userId, teamId, newTeamId);
    return 'moved';
  }

  async readSettings(teamId: string): Promise<TeamSettingsRow> {
    const [row] = await this.db
      .select({ lookbackDays: teams.lookbackDays, defaultMaintenanceWindow: teams.defaultMaintenanceWindow })
      .from(teams)
      .where(eq(teams.id, teamId));
    return row ?? { lookbackDays: 14, defaultMaintenanceWindow: 2 };
  }

  // A new lookback changes what every VM's analysis reads: all of the team's VMs become due again.
  async saveSettings(teamId: string, settings: TeamSettingsRow): Promise<TeamSettingsRow> {
    return this.db.transaction(async (transaction) => {
      const [previous] = await transaction
        .select({ lookbackDays: teams.lookbackDays })
        .from(teams)
        .where(eq(teams.id, teamId))
        .for('update');
      const saved = await updateTeamSettings(transaction, teamId, settings);
      if (previous && previous.lookbackDays !== settings.lookbackDays) {
        await markTeamResourcesDue(transaction, teamId);
      }
      return saved;
    });
  }

  // The user as a member of the team, with their role and since when (who may decide a pipeline's
  // approval); undefined when they are in another team.
  async findDecider(
    teamId: string,
    userId: string,
  ): Promise<{ userId: string; role: TeamRole; joinedTeamAt: Date } | undefined> {
    const [row] = await this.db
      .select({ userId: users.id, role: users.role, joinedTeamAt: users.joinedTeamAt })
      .from(users)
      .where(and(eq(users.id, userId), eq(users.teamId, teamId)));
    return row;
  }

  // The team's members' ids and emails, by email.
  listMemberEmails(teamId: string): Promise<{ id: string; email: string }[]> {
    return this.db
      .select({ id: users.id, email: users.email })
      .from(users)
      .where(eq(users.teamId, teamId))
      .orderBy(asc(users.email));
  }

  // The email of each user still there (none asked for: none read).
  async readEmails(userIds: readonly (string | null)[]): Promise<Map<string, string>> {
    const ids = [...new Set(userIds.filter((id): id is string => id !== null))];
    if (ids.length === 0) return new Map();
    const rows = await this.db
      .select({ id: users.id, email: users.email })
      .from(users)
      .where(inArray(users.id, ids));
    return new Map(rows.map((row) => [row.id, row.email]));
  }
}

// Invitation rows are written in modules/team only; sign-up spends one through these, in the
// transaction that creates the account.

// Accepts the invitation of `email`, if still pending and unexpired: answers the inviting team.
export async function acceptInvitation(
  db: Executor,
  tokenHash: string,
  email: string,
  now: Date,
): Promise<string | undefined> {
  const [accepted] = await db
    .update(invitations)
    .set({ acceptedAt: now })
    .where(
      and(
        eq(invitations.tokenHash, tokenHash),
        eq(invitations.email, email),
        isNull(invitations.acceptedAt),
        gt(invitations.expiresAt, now),
      ),
    )
    .returning({ teamId: invitations.teamId });
  return accepted?.teamId;
}

// A pending invitation to someone who now has an account can never be accepted.
export async function deletePendingInvitationsTo(db: Executor, email: string): Promise<void> {
  await db.delete(invitations).where(and(eq(invitations.email, email), isNull(invitations.acceptedAt)));
}

export async function deleteExpiredInvitations(db: Executor, cutoff: Date): Promise<void> {
  await db.delete(invitations).where(and(isNull(invitations.acceptedAt), lt(invitations.expiresAt, cutoff)));
}
