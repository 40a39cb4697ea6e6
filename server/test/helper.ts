// Builds the real app against a fresh database of its own in the run's PostgreSQL.
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TeamRole } from '@cloudtrim/contracts/team';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { inject } from 'vitest';
import { buildApp } from '../src/app';
import { loadConfig, type Config, type Secrets } from '../src/config';
import { createContainer, type Container } from '../src/container';
import { applyMigrations, openDatabase } from '../src/db/database';
import { createJobDefinitions } from '../src/jobs/definitions';
import { JobQueue } from '../src/queue/queue';
import { hashPassword } from '../src/lib/password-hasher';

export interface TestContext {
  app: FastifyInstance;
  container: Container;
  config: Config;
  secrets: Secrets;
  databaseUrl: string;
  close(): Promise<void>;
}

export interface TestContextOptions {
  environment?: Record<string, string>;
  // Start pg-boss and its workers; off by default because most tests call services directly.
  hasWorkers?: boolean;
  now?: () => Date;
}

const silentLog = { info: () => {}, warn: () => {}, error: () => {} };

// A database of the test's own, migrated already: a copy of the run's template (global-setup.ts).
export async function createTestDatabase(): Promise<string> {
  const adminUrl = inject('databaseAdminUrl');
  const name = `test_${randomUUID().replaceAll('-', '')}`;
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`create database ${name} template ${inject('databaseTemplate')}`);
  } finally {
    await client.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function createTestContext(options: TestContextOptions = {}): Promise<TestContext> {
  const databaseUrl = await createTestDatabase();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'cloudtrim-data-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    DEMO: '0',
    LOG_LEVEL: 'silent',
    PUBLIC_URL: 'http://cloudtrim.test',
    ...options.environment,
  });
  const database = await openDatabase(databaseUrl, { maxConnections: 8 });
  await applyMigrations(database);
  const queue = new JobQueue(databaseUrl, silentLog);
  const secrets = { jwtSecret: randomBytes(32).toString('hex'), encryptionKey: randomBytes(32) };
  const container = createContainer({ config, secrets, database, queue, now: options.now });
  if (options.hasWorkers) {
    await queue.start(createJobDefinitions(container));
    await queue.work();
  }
  const app = await buildApp(container, { webRoot: path.join(dataDir, 'no-web') });
  await app.ready();
  return {
    app,
    container,
    config,
    secrets,
    databaseUrl,
    close: async () => {
      await app.close();
      await queue.stop();
      await database.close();
    },
  };
}

export interface TestUser {
  email: string;
  password: string;
  userId: string;
  teamId: string;
}

let userCounter = 0;

export async function createUser(
  context: TestContext,
  overrides: {
    email?: string;
    password?: string;
    firstName?: string;
    teamId?: string;
    role?: TeamRole;
    joinedTeamAt?: Date;
  } = {},
): Promise<TestUser> {
  userCounter += 1;
  const email = overrides.email ?? `user${userCounter}-${randomUUID().slice(0, 8)}@example.com`;
  const password = overrides.password ?? 'Correct-Horse-42';
  const { account } = context.container.repositories;
  const user = await account.createWithTeam(
    {
      email,
      passwordHash: await hashPassword(password),
      firstName: overrides.firstName ?? 'Ada',
      lastName: 'Lovelace',
      role: overrides.role,
      // Members have been in their team since 2020 unless a test says when they joined: the tests'
      // movable clocks start before their users are made.
      joinedTeamAt: overrides.joinedTeamAt ?? new Date(Date.UTC(2020, 0, 1)),
    },
    overrides.teamId,
  );
  return { email, password, userId: user.id, teamId: user.teamId };
}

export async function logIn(
  context: TestContext,
  user: Pick<TestUser, 'email' | 'password'>,
): Promise<string> {
  const response = await context.app.inject({
    method: 'POST',
    url: '/api/v1/token',
    payload: { emailAddress: user.email, password: user.password },
  });
  if (response.statusCode !== 200) throw new Error(`login failed: ${response.statusCode} ${response.body}`);
  return response.json<string>();
}

export function bearer(token: string) {
  return { authorization: `Bearer ${token}` };
}
