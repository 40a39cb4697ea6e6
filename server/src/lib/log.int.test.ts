// The request log must not carry live one-time codes or sign-up and invitation tokens, which
// travel in query strings.
import pino from 'pino';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app';
import { DrizzleQueryError } from 'drizzle-orm';
import pg from 'pg';
import { bearer, createTestContext, createUser, logIn, type TestContext } from '../../test/helper';
import { logRedactions, logSerializers } from './log';

let context: TestContext;
let app: FastifyInstance;
let written = '';

beforeAll(async () => {
  context = await createTestContext();
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      written += chunk.toString('utf8');
      done();
    },
  });
  const log = pino({ level: 'info', redact: logRedactions, serializers: logSerializers }, destination);
  app = await buildApp(context.container, { log, webRoot: path.join(context.config.dataDir, 'no-web') });
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await context.close();
});

describe('the request log', () => {
  it('writes the path of each request without its query string', async () => {
    await app.inject({
      method: 'GET',
      url: '/api/v1/Account/ValidateCode?email=ada%40example.com&code=R3s3tC0de',
    });
    await app.inject({
      method: 'GET',
      url: '/api/v1/emailaddress?guid=5b0c1a4e-6a53-4f43-9d3e-2b1f0f3a7c11',
    });
    expect(written).toContain('/api/v1/Account/ValidateCode');
    expect(written).toContain('/api/v1/emailaddress');
    expect(written).not.toContain('R3s3tC0de');
    expect(written).not.toContain('5b0c1a4e-6a53-4f43-9d3e-2b1f0f3a7c11');
    expect(written).not.toContain('ada%40example.com');
  });
});

describe('the error log', () => {
  it('keeps an error’s message and code, not the database client a driver hangs on it', () => {
    let line = '';
    const destination = new Writable({
      write(chunk: Buffer, _encoding, done) {
        line += chunk.toString('utf8');
        done();
      },
    });
    const log = pino({ level: 'info', redact: logRedactions, serializers: logSerializers }, destination);
    const error = Object.assign(new Error('terminating connection due to administrator command'), {
      code: '57P01',
      client: { connectionParameters: { user: 'postgres' }, secretKey: 1777784242 },
    });
    log.error({ err: error }, 'job queue error');
    const logged = JSON.parse(line) as { err: Record<string, unknown> };
    expect(logged.err).toMatchObject({
      message: 'terminating connection due to administrator command',
      code: '57P01',
    });
    expect(logged.err.stack).toContain('terminating connection');
    expect(line).not.toContain('secretKey');
    expect(logged.err).not.toHaveProperty('client');
  });
});

describe('an unexpected failure of a call', () => {
  const email = 'grace.hopper@example.com';

  function createQueryError(): DrizzleQueryError {
    const cause = Object.assign(
      new pg.DatabaseError(
        'duplicate key value violates unique constraint "app_user_email_key"',
        100,
        'error',
      ),
      { severity: 'ERROR', code: '23505', detail: `Key (email)=(${email}) already exists.` },
    );
    return new DrizzleQueryError('update "app_user" set "email" = $1', [email], cause);
  }

  it('answers 500 with the request id and logs the SQL and code, never the values', async () => {
    const token = await logIn(context, await createUser(context));
    const getDetails = vi
      .spyOn(context.container.account, 'getDetails')
      .mockRejectedValue(createQueryError());
    try {
      written = '';
      const response = await app.inject({
        method: 'GET',
        url: '/api/v1/account/details',
        headers: bearer(token),
      });
      expect(response.statusCode).toBe(500);
      expect(response.json().requestId).toBeDefined();
      expect(response.body).not.toContain(email);
      expect(response.body).not.toContain('app_user');
      expect(written).toContain('update \\"app_user\\" set \\"email\\" = $1');
      expect(written).toContain('23505');
      expect(written).toContain(response.json().requestId);
      expect(written).not.toContain(email);
    } finally {
      getDetails.mockRestore();
    }
  });

  it('keeps the client status of another library’s error but not its text', async () => {
    const token = await logIn(context, await createUser(context));
    const getDetails = vi
      .spyOn(context.container.account, 'getDetails')
      .mockRejectedValue(
        Object.assign(new Error(`Key (email)=(${email}) already exists.`), { statusCode: 409 }),
      );
    try {
      const response = await app.inject({
        method: 'GET',
        url: '/api/v1/account/details',
        headers: bearer(token),
      });
      expect(response.statusCode).toBe(409);
      expect(response.json().message).toBe('Conflict');
      expect(response.body).not.toContain(email);
    } finally {
      getDetails.mockRestore();
    }
  });
});
