// The in-memory session cache: calls answered without a query, and a revocation refused on the
// very next call on every process, checked on two real API processes and under load.
import { randomUUID } from 'node:crypto';
import net from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createCloudTestContext, waitFor, type CloudTestContext } from '../../../test/azure-emulator';
import { createUser, logIn, type TestUser } from '../../../test/helper';
import { startServerProcess, type ServerProcess } from '../../../test/server-process';
import { openDatabase, type Database } from '../../db/database';
import { AuthRepository } from './auth.repository';
import { listenerApplicationName, SessionCache } from './session.cache';

let context: CloudTestContext;
let user: TestUser;
let secondDatabase: Database;

beforeAll(async () => {
  context = await createCloudTestContext({ emulator: { fleetSize: 1 } });
  user = await createUser(context);
  secondDatabase = await openDatabase(context.databaseUrl, { maxConnections: 2 });
}, 120_000);

afterAll(async () => {
  await secondDatabase?.close();
  await context?.close();
});

const sessionOf = (token: string) =>
  JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).sid as string;

// Another process's view of the sessions: its own pool and its own listener.
async function startSecondRepository(answerWaitMilliseconds?: number): Promise<AuthRepository> {
  const repository = new AuthRepository(secondDatabase.db, context.databaseUrl, answerWaitMilliseconds);
  repository.startSessionCache();
  await waitForListeners(2);
  return repository;
}

async function countListeners(): Promise<number> {
  const { rows } = await context.container.database.pool.query<{ count: number }>(
    'select count(*)::int as count from pg_stat_activity where application_name = $1 and datname = current_database()',
    [listenerApplicationName],
  );
  return rows[0]!.count;
}

function waitForListeners(count: number): Promise<true> {
  return waitFor(async () => (await countListeners()) === count, 10_000);
}

describe('the session cache of one process', () => {
  it('answers a session it has seen from memory, without a query', async () => {
    const token = await logIn(context, user);
    const repository = context.container.repositories.auth;
    await waitForListeners(1);
    await waitFor(async () => repository.isSessionCacheListening());
    const now = new Date();
    const query = vi.spyOn(context.container.database.pool, 'query');
    try {
      const first = await repository.findActive(sessionOf(token), user.userId, now);
      expect(query).toHaveBeenCalledTimes(1);
      query.mockClear();
      const again = await repository.findActive(sessionOf(token), user.userId, now);
      expect(again).toEqual(first);
      expect(query).not.toHaveBeenCalled();
      // Another user's id with this session id is no hit.
      expect(await repository.findActive(sessionOf(token), randomUUID(), now)).toBeUndefined();
    } finally {
      query.mockRestore();
    }
  });

  it('refuses a session revoked by another process as soon as the revocation returns', async () => {
    const second = await startSecondRepository();
    try {
      const token = await logIn(context, user);
      const repository = context.container.repositories.auth;
      const now = new Date();
      expect(await repository.findActive(sessionOf(token), user.userId, now)).toBeDefined();
      expect(await second.findActive(sessionOf(token), user.userId, now)).toBeDefined();
      await second.revoke(sessionOf(token));
      expect(await repository.findActive(sessionOf(token), user.userId, now)).toBeUndefined();
      expect(await second.findActive(sessionOf(token), user.userId, now)).toBeUndefined();

      const [kept, ended] = [await logIn(context, user), await logIn(context, user)];
      for (const token of [kept, ended]) {
        expect(await repository.findActive(sessionOf(token), user.userId, now)).toBeDefined();
      }
      await second.revokeAllForUser(user.userId, sessionOf(kept));
      expect(await repository.findActive(sessionOf(kept), user.userId, now)).toBeDefined();
      expect(await repository.findActive(sessionOf(ended), user.userId, now)).toBeUndefined();
    } finally {
      await second.stopSessionCache();
      await waitForListeners(1);
    }
  });

  it('reads the database on every call while its listener is away, and caches again once back', async () => {
    const token = await logIn(context, user);
    const repository = context.container.repositories.auth;
    const now = new Date();
    expect(await repository.findActive(sessionOf(token), user.userId, now)).toBeDefined();
    const { pool } = context.container.database;
    await pool.query(
      `select pg_terminate_backend(pid) from pg_stat_activity
        where application_name = $1 and datname = current_database()`,
      [listenerApplicationName],
    );
    // A revocation nobody hears: only the database knows.
    await pool.query('update session set revoked_at = now() where id = $1', [sessionOf(token)]);
    await waitFor(
      async () => (await repository.findActive(sessionOf(token), user.userId, now)) === undefined,
    );
    await waitForListeners(1);
    const fresh = await logIn(context, user);
    await repository.findActive(sessionOf(fresh), user.userId, now);
    const query = vi.spyOn(pool, 'query');
    try {
      await waitFor(async () => {
        query.mockClear();
        return (
          (await repository.findActive(sessionOf(fresh), user.userId, now)) !== undefined &&
          query.mock.calls.length === 0
        );
      });
    } finally {
      query.mockRestore();
    }
  });

  it('keeps no session read while a revocation was heard', async () => {
    const cache = new SessionCache(context.databaseUrl);
    cache.start();
    try {
      await waitForListeners(2);
      await waitFor(async () => cache.isListening());
      const session = {
        sessionId: randomUUID(),
        userId: user.userId,
        teamId: user.teamId,
        email: user.email,
        firstName: 'Ada',
      };
      const ticket = cache.beginLookup();
      cache.drop({ nonce: 'test', userId: randomUUID() });
      cache.remember(session, ticket);
      expect(cache.find(session.sessionId, session.userId)).toBeUndefined();
      cache.remember(session, cache.beginLookup());
      expect(cache.find(session.sessionId, session.userId)).toEqual(session);
    } finally {
      await cache.stop();
      await waitForListeners(1);
    }
  });

  it('waits a bounded time for a listener that never answers', async () => {
    const silent = new pg.Client({ connectionString: context.databaseUrl });
    await silent.connect();
    await silent.query(`set application_name = '${listenerApplicationName}'`);
    const second = new AuthRepository(secondDatabase.db, context.databaseUrl, 300);
    try {
      const token = await logIn(context, user);
      const started = Date.now();
      await second.revoke(sessionOf(token));
      expect(Date.now() - started).toBeGreaterThanOrEqual(300);
      expect(
        await context.container.repositories.auth.findActive(sessionOf(token), user.userId, new Date()),
      ).toBeUndefined();
    } finally {
      await silent.end();
    }
  });
});

// A TCP relay to PostgreSQL that can go silent: frozen, it passes nothing either way and tells
// neither side that a connection ended, as a dropped network path does.
interface SilenceableRelay {
  url: string;
  // The relay's own ports towards PostgreSQL: pg_stat_activity's client_port of its connections.
  upstreamPorts: Set<number>;
  freeze(): void;
  thaw(): void;
  close(): Promise<void>;
}

async function startRelay(databaseUrl: string): Promise<SilenceableRelay> {
  const target = new URL(databaseUrl);
  const held: (() => void)[] = [];
  const sockets = new Set<net.Socket>();
  const upstreamPorts = new Set<number>();
  let isFrozen = false;
  const pass = (step: () => void) => (isFrozen ? held.push(step) : step());
  const server = net.createServer((downstream) => {
    const upstream = net.connect(Number(target.port), target.hostname);
    upstream.on('connect', () => upstreamPorts.add(upstream.localPort!));
    for (const [from, to] of [
      [downstream, upstream],
      [upstream, downstream],
    ] as const) {
      sockets.add(from);
      from.on('data', (chunk) => pass(() => to.write(chunk)));
      from.on('close', () => pass(() => to.destroy()));
      from.on('error', () => {});
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = new URL(databaseUrl);
  url.hostname = '127.0.0.1';
  url.port = String((server.address() as net.AddressInfo).port);
  return {
    url: url.toString(),
    upstreamPorts,
    freeze: () => {
      isFrozen = true;
    },
    thaw: () => {
      isFrozen = false;
      for (const step of held.splice(0)) step();
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe('a listener gone silent', () => {
  // The listening process: its pool reaches PostgreSQL directly, its listener through the relay.
  // A revocation waits 400 ms for a listener's answer, so its heartbeat's lease is 300 ms.
  async function startSilenceable() {
    const relay = await startRelay(context.databaseUrl);
    const repository = new AuthRepository(secondDatabase.db, relay.url, 400);
    repository.startSessionCache();
    await waitFor(async () => repository.isSessionCacheListening());
    return { relay, repository };
  }

  it('stops answering from memory: a session revoked meanwhile is refused on the next call, and a heartbeat heard again restores the memory', async () => {
    const { relay, repository } = await startSilenceable();
    const revoker = new AuthRepository(context.container.database.db, context.databaseUrl, 400);
    const query = vi.spyOn(secondDatabase.pool, 'query');
    try {
      const [revoked, kept] = [await logIn(context, user), await logIn(context, user)];
      const now = new Date();
      for (const token of [revoked, kept, revoked, kept]) {
        expect(await repository.findActive(sessionOf(token), user.userId, now)).toBeDefined();
      }
      query.mockClear();
      expect(await repository.findActive(sessionOf(revoked), user.userId, now)).toBeDefined();
      expect(query).not.toHaveBeenCalled();

      relay.freeze();
      await revoker.revoke(sessionOf(revoked));
      expect(await repository.findActive(sessionOf(revoked), user.userId, now)).toBeUndefined();
      expect(repository.isSessionCacheListening()).toBe(false);
      // Every call reads the database while the listener cannot prove it hears.
      query.mockClear();
      expect(await repository.findActive(sessionOf(kept), user.userId, now)).toBeDefined();
      expect(await repository.findActive(sessionOf(kept), user.userId, now)).toBeDefined();
      expect(query).toHaveBeenCalledTimes(2);

      relay.thaw();
      await waitFor(async () => repository.isSessionCacheListening());
      await repository.findActive(sessionOf(kept), user.userId, now);
      query.mockClear();
      expect(await repository.findActive(sessionOf(kept), user.userId, now)).toBeDefined();
      expect(query).not.toHaveBeenCalled();
      expect(await repository.findActive(sessionOf(revoked), user.userId, now)).toBeUndefined();
    } finally {
      query.mockRestore();
      await repository.stopSessionCache();
      await relay.close();
      await waitForListeners(1);
    }
  });

  it('whose backend ended without a word reaching it stops answering from memory within its lease, and listens again once the end arrives', async () => {
    const { relay, repository } = await startSilenceable();
    const query = vi.spyOn(secondDatabase.pool, 'query');
    try {
      const token = await logIn(context, user);
      const now = new Date();
      await repository.findActive(sessionOf(token), user.userId, now);
      relay.freeze();
      await context.container.database.pool.query(
        `select pg_terminate_backend(pid) from pg_stat_activity
          where application_name = $1 and datname = current_database() and client_port = any($2::int[])`,
        [listenerApplicationName, [...relay.upstreamPorts]],
      );
      // Nobody waits for a listener that is gone: only the lease ends the memory.
      await context.container.repositories.auth.revoke(sessionOf(token));
      // Its lease is 300 ms; the connection would only be replaced after 10 s of silence.
      await waitFor(async () => !repository.isSessionCacheListening(), 3_000);
      expect(await repository.findActive(sessionOf(token), user.userId, now)).toBeUndefined();

      relay.thaw();
      await waitFor(async () => repository.isSessionCacheListening(), 10_000);
      const fresh = await logIn(context, user);
      await repository.findActive(sessionOf(fresh), user.userId, now);
      query.mockClear();
      expect(await repository.findActive(sessionOf(fresh), user.userId, now)).toBeDefined();
      expect(query).not.toHaveBeenCalled();
    } finally {
      query.mockRestore();
      await repository.stopSessionCache();
      await relay.close();
      await waitForListeners(1);
    }
  });
});

describe('two API processes', () => {
  let processes: ServerProcess[];

  beforeAll(async () => {
    processes = await Promise.all([startServerProcess(context, 'api'), startServerProcess(context, 'api')]);
    await waitForListeners(3);
  }, 180_000);

  afterAll(async () => {
    await Promise.all((processes ?? []).map((server) => server.stop()));
  });

  async function call(server: ServerProcess, method: string, path: string, token: string): Promise<number> {
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}` },
    });
    await response.arrayBuffer();
    return response.status;
  }

  async function logInTo(server: ServerProcess): Promise<string> {
    const response = await fetch(`${server.url}/api/v1/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ emailAddress: user.email, password: user.password }),
    });
    expect(response.status).toBe(200);
    return (await response.json()) as string;
  }

  it('refuse a logged-out token on the very next call, on either process, round after round', async () => {
    for (let round = 0; round < 6; round += 1) {
      const [here, there] = round % 2 === 0 ? processes : [...processes].reverse();
      const token = await logInTo(here!);
      // Both processes have the session in memory before the logout.
      for (const server of [here!, there!, here!, there!]) {
        expect(await call(server, 'GET', '/api/v1/account/details', token)).toBe(200);
      }
      expect(await call(here!, 'DELETE', '/api/v1/token', token)).toBe(204);
      expect(await call(there!, 'GET', '/api/v1/account/details', token)).toBe(401);
      expect(await call(here!, 'GET', '/api/v1/account/details', token)).toBe(401);
    }
  });

  it('refuse every token of a user logged out everywhere on the very next call, on either process', async () => {
    const [first, second] = processes;
    const tokens = [await logInTo(first!), await logInTo(second!), await logInTo(first!)];
    for (const token of tokens) {
      for (const server of processes)
        expect(await call(server, 'GET', '/api/v1/account/details', token)).toBe(200);
    }
    expect(await call(second!, 'DELETE', '/api/v1/token/all', tokens[0]!)).toBe(204);
    for (const token of tokens) {
      for (const server of processes)
        expect(await call(server, 'GET', '/api/v1/account/details', token)).toBe(401);
    }
  });

  it('refuse every call that starts after the logout returned, while the other process is under load', async () => {
    const [here, there] = processes;
    const token = await logInTo(here!);
    expect(await call(there!, 'GET', '/api/v1/resource', token)).toBe(200);
    const calls: { startedAt: number; status: number }[] = [];
    let isLoading = true;
    const load = Array.from({ length: 8 }, async () => {
      while (isLoading) {
        const startedAt = performance.now();
        calls.push({ startedAt, status: await call(there!, 'GET', '/api/v1/resource', token) });
      }
    });
    // Logged out once the load has been answered at least once, and the load stopped once calls that
    // started after the logout have been answered: counted, not timed, so a slow machine only waits.
    await waitFor(async () => calls.some((entry) => entry.status === 200));
    expect(await call(here!, 'DELETE', '/api/v1/token', token)).toBe(204);
    const loggedOutAt = performance.now();
    await waitFor(async () => calls.filter((entry) => entry.startedAt > loggedOutAt).length >= 16);
    isLoading = false;
    await Promise.all(load);
    const before = calls.filter((entry) => entry.startedAt < loggedOutAt);
    const after = calls.filter((entry) => entry.startedAt > loggedOutAt);
    expect(before.some((entry) => entry.status === 200)).toBe(true);
    expect(after.length).toBeGreaterThan(0);
    expect(after.filter((entry) => entry.status !== 401)).toEqual([]);
  });
});
