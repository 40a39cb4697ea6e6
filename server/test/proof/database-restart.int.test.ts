// The database goes away in the middle of work and comes back: the embedded PostgreSQL is stopped
// and started again for real, on the same address. Meanwhile calls answer 503 (retry), not 500
// and not a hang; afterwards sessions, requests and queued jobs carry on, and nothing is lost.
import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, databaseUnavailableText } from '../../src/app';
import { loadConfig } from '../../src/config';
import { createContainer, type Container } from '../../src/container';
import {
  applyMigrations,
  openDatabase,
  startEmbeddedPostgres,
  type Database,
  type EmbeddedServer,
} from '../../src/db/database';
import { createJobDefinitions } from '../../src/jobs/definitions';
import { JobQueue } from '../../src/queue/queue';
import { bearer, createUser, logIn, type TestUser } from '../helper';
import { Mailbox } from '../mailbox';

const quiet = { info: () => {}, warn: () => {}, error: () => {} };

let dataDir: string;
let postgres: EmbeddedServer;
let port: number;
let database: Database;
let queue: JobQueue;
let container: Container;
let app: FastifyInstance;
let mailbox: Mailbox;
let user: TestUser;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'cloudtrim-restart-'));
  await chmod(dataDir, 0o755);
  postgres = await startEmbeddedPostgres(dataDir, quiet);
  port = Number(new URL(postgres.url).port);
  mailbox = await Mailbox.start();
  const config = loadConfig({
    DATA_DIR: dataDir,
    DATABASE_URL: postgres.url,
    DEMO: '0',
    LOG_LEVEL: 'silent',
    PUBLIC_URL: 'http://cloudtrim.test',
    SMTP_URL: mailbox.url,
    MAIL_RETRY_DELAY_SECONDS: '1',
  });
  database = await openDatabase(postgres.url, { maxConnections: 4 });
  await applyMigrations(database);
  queue = new JobQueue(postgres.url, quiet);
  const secrets = { jwtSecret: randomBytes(32).toString('hex'), encryptionKey: randomBytes(32) };
  container = createContainer({ config, secrets, database, queue });
  await queue.start(createJobDefinitions(container));
  await queue.work();
  app = await buildApp(container, { webRoot: path.join(dataDir, 'no-web') });
  await app.ready();
  user = await createUser({ app, container } as Parameters<typeof createUser>[0]);
}, 120_000);

afterAll(async () => {
  await app.close();
  await queue.stop().catch(() => {});
  await database.close().catch(() => {});
  await postgres.stop().catch(() => {});
  await mailbox.close();
  await rm(dataDir, { recursive: true, force: true });
});

const getDetails = (token: string) =>
  app.inject({ method: 'GET', url: '/api/v1/account/details', headers: bearer(token) });

const requestReset = () =>
  app.inject({
    method: 'POST',
    url: '/api/v1/customerprofile/password/reset',
    payload: { EmailAddress: user.email },
    remoteAddress: '10.88.0.1',
  });

describe('the database restarted under the app', () => {
  it('answers 503 while it is away, then carries on with the same sessions and delivers queued mail', async () => {
    const token = await logIn({ app, container } as Parameters<typeof logIn>[0], user);
    expect((await getDetails(token)).statusCode).toBe(200);

    await postgres.stop();
    const startedAt = Date.now();
    const away = await getDetails(token);
    expect(away.statusCode).toBe(503);
    expect(away.headers['retry-after']).toBe('5');
    expect(away.json()).toMatchObject({ message: databaseUnavailableText });
    expect((await requestReset()).statusCode).toBe(503);
    expect(Date.now() - startedAt).toBeLessThan(10_000);
    expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(503);

    postgres = await startEmbeddedPostgres(dataDir, quiet, { port });
    // The pool drops its broken connections and opens new ones: the same session is still valid.
    let details = await getDetails(token);
    for (let attempt = 0; attempt < 20 && details.statusCode !== 200; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      details = await getDetails(token);
    }
    expect(details.statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    // The job workers reconnect by themselves: a reset requested now is mailed.
    expect((await requestReset()).statusCode).toBe(200);
    const mail = await mailbox.nextMailTo(user.email);
    expect(mail.link).toContain('/ResetPassword?');
  });
});
