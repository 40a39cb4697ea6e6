// The session check decides by the route a request matched, not by how its URL is spelt: a
// percent-encoded path (/%61pi/…) reaches the same route and must meet the same check.
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { bearer, createTestContext, createUser, logIn, type TestContext } from '../../test/helper';

let context: TestContext;
let app: FastifyInstance;

beforeAll(async () => {
  context = await createTestContext();
  app = await buildApp(context.container, { webRoot: path.join(context.config.dataDir, 'no-web') });
  // A signed-in route whose handler does not itself ask for the session.
  app.get('/api/v1/probe', () => ({ isReached: true }));
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await context.close();
});

describe('the session check', () => {
  it.each(['/api/v1/probe', '/%61pi/v1/probe', '/%61%70%69/v1/probe', '/api/v1/%70robe'])(
    'refuses %s without a session',
    async (url) => {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode, response.body).toBe(401);
    },
  );

  it('lets a signed-in request through, however the path is spelt', async () => {
    const token = await logIn(context, await createUser(context));
    const response = await app.inject({ method: 'GET', url: '/%61pi/v1/probe', headers: bearer(token) });
    expect(response.statusCode).toBe(200);
  });

  it('leaves public routes and the API documentation open', async () => {
    expect((await app.inject({ method: 'GET', url: '/api/v1/captcha/config' })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/api/docs/json' })).statusCode).toBe(200);
  });
});
