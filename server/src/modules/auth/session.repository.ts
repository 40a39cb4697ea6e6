import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { sessions, users } from '../../db/schema';

export interface ActiveSession {
  sessionId: string;
  userId: string;
  teamId: string;
  email: string;
  firstName: string;
}

export class SessionRepository {
  constructor(private readonly db: Db) {}

  async create(userId: string, expiresAt: Date): Promise<string> {
    const [row] = await this.db.insert(sessions).values({ userId, expiresAt }).returning({ id: sessions.id });
    return row!.id;
  }

  async findActive(sessionId: string, userId: string, now: Date): Promise<ActiveSession | undefined> {
    const [row] = await this.db
      .select({
        sessionId: sessions.id,
        userId: users.id,
        teamId: users.teamId,
        email: users.email,
        firstName: users.firstName,
      })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(
        and(
          eq(sessions.id, sessionId),
          eq(sessions.userId, userId),
          isNull(sessions.revokedAt),
          gt(sessions.expiresAt, now),
        ),
      );
    return row;
  }

  async revoke(sessionId: string): Promise<void> {
    await this.db
      .update(sessions)
      .set({ revokedAt: sql`now()` })
      .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
  }

  // Ends every session of the user, or every one but `keepSessionId`.
  async revokeAllForUser(userId: string, keepSessionId?: string): Promise<void> {
    await this.db
      .update(sessions)
      .set({ revokedAt: sql`now()` })
      .where(
        and(
          eq(sessions.userId, userId),
          isNull(sessions.revokedAt),
          keepSessionId ? sql`${sessions.id} <> ${keepSessionId}` : undefined,
        ),
      );
  }

  async deleteExpired(cutoff: Date): Promise<void> {
    await this.db.delete(sessions).where(sql`${sessions.expiresAt} < ${cutoff}`);
  }
}
