// Sessions this process has found active, kept in memory so an authenticated call costs no query.
// Correct on every process of a scaled-out API because a revocation is told to all of them:
// AuthRepository sends it with PostgreSQL's NOTIFY in the revoking transaction, each process's
// listener drops the sessions and answers on a second channel, and the revoking call waits for
// every listener's answer before it returns (see AuthRepository.revokeEverywhere). A token logged
// out is therefore refused on its very next call, whichever process takes it.
import pg from 'pg';

// A session found active: what an authenticated call knows of its caller. Defined here, where it
// is cached, so the repository that reads it imports this file and not the other way round.
export interface ActiveSession {
  sessionId: string;
  userId: string;
  teamId: string;
  email: string;
  firstName: string;
}

export const revokedChannel = 'cloudtrim_session_revoked';
export const droppedChannel = 'cloudtrim_session_dropped';
// How the revoking side finds the listeners in pg_stat_activity; set only once both LISTENs hold.
export const listenerApplicationName = 'cloudtrim-session-cache';

// What a revocation ends: one session, or every session of a user but `keepSessionId`.
export interface Revocation {
  nonce: string;
  sessionId?: string;
  userId?: string;
  keepSessionId?: string;
}

const sessionLimit = 20_000;
const reconnectMilliseconds = 1_000;

// A lookup's ticket: the cache state it started in, so a revocation heard meanwhile wins.
export type LookupTicket = number | undefined;

export class SessionCache {
  private readonly sessions = new Map<string, ActiveSession>();
  private client: pg.Client | undefined;
  private isListening = false;
  private isStopped = true;
  private reconnectTimer: NodeJS.Timeout | undefined;
  // Bumped by every revocation heard and every change of the listener: an entry read from the
  // database under an older epoch may predate a revocation and is not kept.
  private epoch = 0;

  constructor(private readonly databaseUrl: string) {}

  // Listens in the background; until it holds, every call is checked against the database.
  start(): void {
    if (!this.isStopped) return;
    this.isStopped = false;
    this.connect();
  }

  async stop(): Promise<void> {
    this.isStopped = true;
    clearTimeout(this.reconnectTimer);
    this.forget();
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => {});
  }

  find(sessionId: string, userId: string): ActiveSession | undefined {
    const session = this.isListening ? this.sessions.get(sessionId) : undefined;
    return session?.userId === userId ? session : undefined;
  }

  beginLookup(): LookupTicket {
    return this.isListening ? this.epoch : undefined;
  }

  remember(session: ActiveSession, ticket: LookupTicket): void {
    if (ticket === undefined || ticket !== this.epoch || !this.isListening) return;
    if (this.sessions.size >= sessionLimit) {
      const oldest = this.sessions.keys().next().value;
      if (oldest !== undefined) this.sessions.delete(oldest);
    }
    this.sessions.set(session.sessionId, session);
  }

  // Drops what a revocation ends; the revoking process calls it at once, the others when told.
  drop(revocation: Revocation): void {
    this.epoch += 1;
    if (revocation.sessionId) this.sessions.delete(revocation.sessionId);
    if (revocation.userId) {
      for (const [sessionId, session] of this.sessions) {
        if (session.userId === revocation.userId && sessionId !== revocation.keepSessionId) {
          this.sessions.delete(sessionId);
        }
      }
    }
  }

  private connect(): void {
    const client = new pg.Client({ connectionString: this.databaseUrl });
    this.client = client;
    client.on('notification', (message) => {
      if (message.channel !== revokedChannel || !message.payload) return;
      const revocation = parseRevocation(message.payload);
      if (!revocation) return;
      this.drop(revocation);
      // Answered after the drop: the revoking call returns once every listener has answered.
      client
        .query(`select pg_notify($1, $2::text || ' ' || pg_backend_pid())`, [
          droppedChannel,
          revocation.nonce,
        ])
        .catch(() => {});
    });
    client.on('error', () => this.onLost(client));
    client.on('end', () => this.onLost(client));
    client
      .connect()
      .then(() =>
        client.query(
          `listen ${revokedChannel}; listen ${droppedChannel}; set application_name = '${listenerApplicationName}'`,
        ),
      )
      .then(() => {
        if (this.client !== client) return;
        this.epoch += 1;
        this.isListening = true;
      })
      .catch(() => this.onLost(client));
  }

  // Without the listener no revocation would be heard: forget everything and check the database
  // on every call until listening again.
  private onLost(client: pg.Client): void {
    if (this.client !== client) return;
    this.client = undefined;
    this.forget();
    client.end().catch(() => {});
    if (this.isStopped) return;
    this.reconnectTimer = setTimeout(() => this.connect(), reconnectMilliseconds);
    this.reconnectTimer.unref();
  }

  private forget(): void {
    this.isListening = false;
    this.epoch += 1;
    this.sessions.clear();
  }
}

export function parseRevocation(payload: string): Revocation | undefined {
  try {
    const value = JSON.parse(payload) as Partial<Revocation>;
    return typeof value.nonce === 'string' ? (value as Revocation) : undefined;
  } catch {
    return undefined;
  }
}
