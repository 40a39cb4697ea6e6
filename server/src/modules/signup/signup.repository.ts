import { and, count, eq, gt, max } from 'drizzle-orm';
import { isUniqueViolation, type Db } from '../../db/database';
import { invitations, oneTimeTokens, users } from '../../db/schema';
import { insertTeam, insertUser } from '../account/account.repository';
import {
  deleteExpiredOneTimeTokens,
  insertOneTimeToken,
  spendVerifyToken,
} from '../account/one-time-token.repository';
import {
  acceptInvitation,
  deleteExpiredInvitations,
  deletePendingInvitationsTo,
} from '../team/team.repository';
import { nameTeamFor } from '../account/team-name';
import type { NewUser, User } from '../account/account.repository';

export interface VerifyToken {
  email: string;
  expiresAt: Date;
  usedAt: Date | null;
}

export interface Invitation {
  teamId: string;
  email: string;
  expiresAt: Date;
  acceptedAt: Date | null;
}

export interface SendHistory {
  count: number;
  lastSentAt: Date | undefined;
}

export type CompletionResult =
  | { status: 'created'; user: User }
  | { status: 'link-unavailable' | 'account-exists' };

type Transaction = Parameters<Parameters<Db['transaction']>[0]>[0];

// The sign-up links: verify tokens (one_time_token, purpose 'verify') and invitations, and the account
// a link completes, created in the transaction that consumes the link.
export class SignupRepository {
  constructor(private readonly db: Db) {}

  async insertVerifyToken(email: string, tokenHash: string, createdAt: Date, expiresAt: Date): Promise<void> {
    await insertOneTimeToken(this.db, { purpose: 'verify', email, tokenHash, createdAt, expiresAt });
  }

  async getVerifySendHistory(email: string, since: Date): Promise<SendHistory> {
    const [row] = await this.db
      .select({ count: count(), lastSentAt: max(oneTimeTokens.createdAt) })
      .from(oneTimeTokens)
      .where(
        and(
          eq(oneTimeTokens.purpose, 'verify'),
          eq(oneTimeTokens.email, email),
          gt(oneTimeTokens.createdAt, since),
        ),
      );
    return { count: row?.count ?? 0, lastSentAt: row?.lastSentAt ?? undefined };
  }

  async findVerifyToken(tokenHash: string): Promise<VerifyToken | undefined> {
    const [row] = await this.db
      .select({
        email: oneTimeTokens.email,
        expiresAt: oneTimeTokens.expiresAt,
        usedAt: oneTimeTokens.usedAt,
      })
      .from(oneTimeTokens)
      .where(and(eq(oneTimeTokens.tokenHash, tokenHash), eq(oneTimeTokens.purpose, 'verify')));
    return row;
  }

  async findInvitation(tokenHash: string): Promise<Invitation | undefined> {
    const [row] = await this.db
      .select({
        teamId: invitations.teamId,
        email: invitations.email,
        expiresAt: invitations.expiresAt,
        acceptedAt: invitations.acceptedAt,
      })
      .from(invitations)
      .where(eq(invitations.tokenHash, tokenHash));
    return row;
  }

  // Consumes the verify token and creates the user in a team of their own, both or neither.
  completeFromVerifyToken(tokenHash: string, user: NewUser, now: Date): Promise<CompletionResult> {
    return this.completeInTransaction(async (transaction) => {
      if (!(await spendVerifyToken(transaction, tokenHash, user.email, now))) return undefined;
      return insertTeam(transaction, nameTeamFor(user));
    }, user);
  }

  // Accepts the invitation and creates the user in the inviting team, both or neither.
  completeFromInvitation(tokenHash: string, user: NewUser, now: Date): Promise<CompletionResult> {
    return this.completeInTransaction(async (transaction) => {
      return acceptInvitation(transaction, tokenHash, user.email, now);
    }, user);
  }

  async deleteExpiredLinks(cutoff: Date): Promise<void> {
    await deleteExpiredOneTimeTokens(this.db, 'verify', cutoff);
    await deleteExpiredInvitations(this.db, cutoff);
  }

  // `consumeLink` answers the team the user joins, or undefined when the link cannot be used.
  private async completeInTransaction(
    consumeLink: (transaction: Transaction) => Promise<string | undefined>,
    user: NewUser,
  ): Promise<CompletionResult> {
    try {
      return await this.db.transaction(async (transaction) => {
        const teamId = await consumeLink(transaction);
        if (!teamId) return { status: 'link-unavailable' } as const;
        // The first member of a team (one made for this sign-up) is its Owner; an invited one joins
        // as a Member.
        const [others] = await transaction
          .select({ count: count() })
          .from(users)
          .where(eq(users.teamId, teamId));
        const created = await insertUser(transaction, {
          ...user,
          teamId,
          role: (others?.count ?? 0) === 0 ? 'Owner' : 'Member',
        });
        // A pending invitation to someone who now has an account can never be accepted.
        await deletePendingInvitationsTo(transaction, user.email);
        return { status: 'created', user: created } as const;
      });
    } catch (error) {
      if (isUniqueViolation(error)) return { status: 'account-exists' };
      throw error;
    }
  }
}
