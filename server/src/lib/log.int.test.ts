// The request log must not carry live one-time codes or sign-up and invitation tokens, which
// travel in query strings.
import pino from 'pino';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app';
import { createTestContext, type TestContext } from '../../test/helper';
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
