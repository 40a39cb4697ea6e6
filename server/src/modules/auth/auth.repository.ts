import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { Db } from '../../db/database';
import * as schema from '../../db/schema';
import { sessions, users } from '../../db/schema';
import {
  type ActiveSession,
  droppedChannel,
  listenerApplicationName,
  revokedChannel,
  type Revocation,
  SessionCache,
} from './session.cache';

export type { ActiveSession } from './session.cache';

export class AuthRepository {
  private readonly findActiveStatement;

  private readonly cache: SessionCache;

  constructor(
    private readonly db: Db,
    private readonly databaseUrl: string,
    private readonly answerWaitMilliseconds = 2_000,
  ) {
    this.findActiveStatement = prepareFindActive(db);
    // A heartbeat vouches for the cache for three quarters of the wait for a listener's answer, so
    // a listener gone silent has stopped answering from memory by the time a revocation it did not
    // answer returns (SessionCache).
    this.cache = new SessionCache(databaseUrl, {
      heartbeatMilliseconds: answerWaitMilliseconds / 2,
      leaseMilliseconds: (answerWaitMilliseconds * 3) / 4,
    });
  }

  // Until started, and whenever its listener is away, every lookup reads the database.
  startSessionCache(): void {
    this.cache.start();
  }

  stopSessionCache(): Promise<void> {
    return this.cache.stop();
  }

  // Whether lookups are answered from memory now: the listener has proved it hears revocations.
  isSessionCacheListening(): boolean {
    return this.cache.isListening();
  }

  async create(userId: string, expiresAt: Date): Promise<string> {
    const [row] = await this.db.insert(sessions).values({ userId, expiresAt }).returning({ id: sessions.id });
    return row!.id;
  }

  // The caller checks the token's expiry, which is the session's, so a cached session needs no clock.
  async findActive(sessionId: string, userId: string, now: Date): Promise<ActiveSession | undefined> {
    const cached = this.cache.find(sessionId, userId);
    if (cached) return cached;
    const ticket = this.cache.beginLookup();
    const [row] = await this.findActiveStatement.execute({ sessionId, userId, now });
    if (row) this.cache.remember(row, ticket);
    return row;
  }

  async revoke(sessionId: string): Promise<void> {
    await this.revokeEverywhere({ sessionId }, async (db) => {
      await db
        .update(sessions)
        .set({ revokedAt: sql`now()` })
        .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
      return true;
    });
  }

  // Ends every session of the user, or every one but `keepSessionId`.
  async revokeAllForUser(userId: string, keepSessionId?: string): Promise<void> {
    await this.revokeAllForUserWith(userId, async () => true, keepSessionId);
  }

  // Runs `work` and ends the user's sessions in one transaction, so what work changes about the
  // user (their team) and the end of their sessions commit together: no moment, and no failure in
  // between, leaves a session alive on a change it predates. Nothing is ended, and work's writes
  // are rolled back, when it answers false. Work runs on the transaction's client; it must not open
  // a transaction of its own.
  revokeAllForUserWith(
    userId: string,
    work: (db: Db) => Promise<boolean>,
    keepSessionId?: string,
  ): Promise<boolean> {
    return this.revokeEverywhere({ userId, keepSessionId }, async (db) => {
      if (!(await work(db))) return false;
      await db
        .update(sessions)
        .set({ revokedAt: sql`now()` })
        .where(
          and(
            eq(sessions.userId, userId),
            isNull(sessions.revokedAt),
            keepSessionId ? sql`${sessions.id} <> ${keepSessionId}` : undefined,
          ),
        );
      return true;
    });
  }

  async deleteExpired(cutoff: Date): Promise<void> {
    await this.db.delete(sessions).where(sql`${sessions.expiresAt} < ${cutoff}`);
  }

  // The revocation commits with its NOTIFY, then waits until every process's session cache has
  // answered that it dropped the sessions (each listener is a row of pg_stat_activity). A listener
  // that does not answer in time belongs to a process that is not serving either (stopped or
  // blocked); it is not waited for longer, so a logout never hangs on it. Runs on a connection of
  // its own, which hears the answers.
  // `revokeRows` answers false to end nothing: the transaction is rolled back and nobody is told.
  private async revokeEverywhere(
    target: Omit<Revocation, 'nonce'>,
    revokeRows: (db: Db) => Promise<boolean>,
  ): Promise<boolean> {
    const revocation: Revocation = { nonce: randomUUID(), ...target };
    this.cache.drop(revocation);
    const client = new pg.Client({ connectionString: this.databaseUrl });
    client.on('error', () => {});
    const answered = new Set<number>();
    let onAnswer = () => {};
    client.on('notification', (message) => {
      const [nonce, pid] = message.payload?.split(' ') ?? [];
      if (message.channel !== droppedChannel || nonce !== revocation.nonce) return;
      answered.add(Number(pid));
      onAnswer();
    });
    try {
      await client.connect();
      await client.query(`listen ${droppedChannel}`);
      if (!(await this.runTransaction(client, revocation, revokeRows))) return false;
      const { rows } = await client.query<{ pid: number }>(
        'select pid from pg_stat_activity where application_name = $1 and datname = current_database()',
        [listenerApplicationName],
      );
      const listeners = rows.map((row) => row.pid);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, this.answerWaitMilliseconds);
        onAnswer = () => {
          if (listeners.every((pid) => answered.has(pid))) {
            clearTimeout(timer);
            resolve();
          }
        };
        onAnswer();
      });
      return true;
    } finally {
      await client.end().catch(() => {});
    }
  }

  // On the revoking connection, so the answers it hears are to a revocation it committed.
  private async runTransaction(
    client: pg.Client,
    revocation: Revocation,
    revokeRows: (db: Db) => Promise<boolean>,
  ): Promise<boolean> {
    const db = drizzle(client, { schema });
    await client.query('begin');
    try {
      if (!(await revokeRows(db))) {
        await client.query('rollback');
        return false;
      }
      await db.execute(sql`select pg_notify(${revokedChannel}, ${JSON.stringify(revocation)})`);
      await client.query('commit');
      return true;
    } catch (error) {
      await client.query('rollback').catch(() => {});
      throw error;
    }
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
