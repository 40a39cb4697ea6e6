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

export class AuthRepository {
  private readonly findActiveStatement;

  constructor(private readonly db: Db) {
    this.findActiveStatement = prepareFindActive(db);
  }

  async create(userId: string, expiresAt: Date): Promise<string> {
    const [row] = await this.db.insert(sessions).values({ userId, expiresAt }).returning({ id: sessions.id });
    return row!.id;
  }

  async findActive(sessionId: string, userId: string, now: Date): Promise<ActiveSession | undefined> {
    const [row] = await this.findActiveStatement.execute({ sessionId, userId, now });
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

// Every authenticated call runs this, so it is a prepared statement: planned once per connection.
function prepareFindActive(db: Db) {
  return db
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
        eq(sessions.id, sql.placeholder('sessionId')),
        eq(sessions.userId, sql.placeholder('userId')),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, sql.placeholder('now')),
      ),
    )
    .prepare('find_active_session');
}
