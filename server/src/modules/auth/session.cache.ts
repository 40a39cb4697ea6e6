// Sessions this process has found active, kept in memory so an authenticated call costs no query.
// Correct on every process of a scaled-out API because a revocation is told to all of them:
// AuthRepository sends it with PostgreSQL's NOTIFY in the revoking transaction, each process's
// listener drops the sessions and answers on a second channel, and the revoking call waits for
// every listener's answer before it returns (see AuthRepository.revokeEverywhere). A token logged
// out is therefore refused on its very next call, whichever process takes it.
//
// A connection can also go silent without an error (a network path dropped, a backend paused or
// ended whose end never arrives): its listener hears nothing, revocations included. So the memory
// is trusted only while the listener proves it hears: every second it sends itself a NOTIFY on a
// channel of its own, and each one heard vouches for the memory until its sending time plus the
// lease. PostgreSQL delivers notifications in commit order, so a heartbeat heard means every
// revocation committed before it was heard too. The lease is shorter than a revocation's wait for
// a listener that does not answer (AuthRepository), so by the time a revocation returns, a silent
// listener's process has stopped trusting its memory and reads the database on every call, until
// a heartbeat is heard again. A connection silent for 10 s is replaced; TCP keepalive finds a
// dead peer below that.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { BoundedMap } from '../../lib/bounded-map';

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
const keepAliveMilliseconds = 5_000;
const connectMilliseconds = 10_000;

export interface SessionCacheOptions {
  // How often the listener sends itself a heartbeat.
  heartbeatMilliseconds?: number;
  // How long a heartbeat heard vouches for the memory, from when it was sent.
  leaseMilliseconds?: number;
  // A connection that has heard no heartbeat for this long is replaced.
  replaceAfterMilliseconds?: number;
}

// A lookup's ticket: the cache state it started in, so a revocation heard meanwhile wins.
export type LookupTicket = number | undefined;

export class SessionCache {
  private readonly sessions = new BoundedMap<string, ActiveSession>(sessionLimit);
  private client: pg.Client | undefined;
  private isStopped = true;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private heartbeatTimer: NodeJS.Timeout | undefined;
  // Bumped by every revocation heard and every change of the listener: an entry read from the
  // database under an older epoch may predate a revocation and is not kept.
  private epoch = 0;
  // The memory is trusted until then (performance.now()); 0 while no heartbeat vouches for it.
  private trustedUntil = 0;
  // The listener's connection holds its LISTENs.
  private isConnected = false;
  // When the heartbeat in flight was sent; undefined when none is.
  private heartbeatSentAt: number | undefined;
  private lastHeardAt = 0;
  private readonly heartbeatChannel = `cloudtrim_session_heartbeat_${randomBytes(8).toString('hex')}`;
  private readonly heartbeatMilliseconds: number;
  private readonly leaseMilliseconds: number;
  private readonly replaceAfterMilliseconds: number;

  constructor(
    private readonly databaseUrl: string,
    options: SessionCacheOptions = {},
  ) {
    this.heartbeatMilliseconds = options.heartbeatMilliseconds ?? 1_000;
    this.leaseMilliseconds = options.leaseMilliseconds ?? 1_500;
    this.replaceAfterMilliseconds = options.replaceAfterMilliseconds ?? 10_000;
  }

  // Listens in the background; until a heartbeat is heard, every call is checked against the database.
  start(): void {
    if (!this.isStopped) return;
    this.isStopped = false;
    this.heartbeatTimer = setInterval(() => this.beat(), this.heartbeatMilliseconds);
    this.heartbeatTimer.unref();
    this.connect();
  }

  async stop(): Promise<void> {
    this.isStopped = true;
    clearTimeout(this.reconnectTimer);
    clearInterval(this.heartbeatTimer);
    this.forget();
    this.isConnected = false;
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => {});
  }

  // Whether this process can prove it hears revocations: a heartbeat heard within the lease.
  isListening(): boolean {
    if (this.trustedUntil === 0) return false;
    if (performance.now() < this.trustedUntil) return true;
    this.forget();
    return false;
  }

  find(sessionId: string, userId: string): ActiveSession | undefined {
    const session = this.isListening() ? this.sessions.get(sessionId) : undefined;
    return session?.userId === userId ? session : undefined;
  }

  beginLookup(): LookupTicket {
    return this.isListening() ? this.epoch : undefined;
  }

  remember(session: ActiveSession, ticket: LookupTicket): void {
    if (ticket === undefined || ticket !== this.epoch || !this.isListening()) return;
    this.sessions.remember(session.sessionId, session);
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
    const client = new pg.Client({
      connectionString: this.databaseUrl,
      keepAlive: true,
      keepAliveInitialDelayMillis: keepAliveMilliseconds,
      connectionTimeoutMillis: connectMilliseconds,
    });
    this.client = client;
    this.lastHeardAt = performance.now();
    client.on('notification', (message) => {
      if (this.client !== client) return;
      if (message.channel === this.heartbeatChannel) {
        this.onHeartbeat(Number(message.payload));
        return;
      }
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
          `listen ${revokedChannel}; listen ${droppedChannel}; listen ${this.heartbeatChannel}; set application_name = '${listenerApplicationName}'`,
        ),
      )
      .then(() => {
        if (this.client !== client) return;
        this.isConnected = true;
        this.sendHeartbeat(client);
      })
      .catch(() => this.onLost(client));
  }

  // Each tick sends a heartbeat, unless one is still unheard: a silent connection gets no queue
  // of them, and is replaced once silent too long. The memory is let go as soon as its lease ends.
  private beat(): void {
    this.isListening();
    const client = this.client;
    if (!client || !this.isConnected) return;
    if (this.heartbeatSentAt === undefined) {
      this.sendHeartbeat(client);
    } else if (performance.now() - this.lastHeardAt >= this.replaceAfterMilliseconds) {
      this.onLost(client);
    }
  }

  private sendHeartbeat(client: pg.Client): void {
    const sentAt = performance.now();
    this.heartbeatSentAt = sentAt;
    client
      .query('select pg_notify($1, $2)', [this.heartbeatChannel, String(sentAt)])
      .catch(() => this.onLost(client));
  }

  private onHeartbeat(sentAt: number): void {
    if (sentAt === this.heartbeatSentAt) this.heartbeatSentAt = undefined;
    const now = performance.now();
    this.lastHeardAt = now;
    const until = sentAt + this.leaseMilliseconds;
    // A heartbeat heard after its lease vouches for nothing; the next one may.
    if (!Number.isFinite(until) || until <= now) return;
    if (this.trustedUntil === 0) this.epoch += 1;
    this.trustedUntil = Math.max(this.trustedUntil, until);
  }

  // Without the listener no revocation would be heard: forget everything and check the database
  // on every call until a heartbeat is heard on a new connection.
  private onLost(client: pg.Client): void {
    if (this.client !== client) return;
    this.client = undefined;
    this.isConnected = false;
    this.heartbeatSentAt = undefined;
    this.forget();
    client.end().catch(() => {});
    if (this.isStopped) return;
    this.reconnectTimer = setTimeout(() => this.connect(), reconnectMilliseconds);
    this.reconnectTimer.unref();
  }

  private forget(): void {
    this.trustedUntil = 0;
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
