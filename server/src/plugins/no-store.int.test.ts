// No API answer is kept by a browser or a proxy, errors included, but the one deliberately
// cacheable list (Cloud Resources: its own Cache-Control, a weak ETag and 304s).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestContext, createUser, logIn, type TestContext } from '../../test/helper';

let context: TestContext;
let token: string;

beforeAll(async () => {
  context = await createTestContext();
  token = await logIn(context, await createUser(context));
});
afterAll(() => context.close());

describe('Cache-Control on API answers', () => {
  it('is no-store on answers, client errors and the API document', async () => {
    const answers = await Promise.all([
      context.app.inject({ method: 'GET', url: '/api/v1/account/details', headers: bearer(token) }),
      context.app.inject({ method: 'GET', url: '/api/v1/team', headers: bearer(token) }),
      context.app.inject({ method: 'GET', url: '/api/v1/account/details' }),
      context.app.inject({ method: 'GET', url: '/api/v1/no-such-call', headers: bearer(token) }),
      context.app.inject({
        method: 'DELETE',
        url: '/api/v1/team',
        headers: bearer(token),
        payload: { email: 'nobody@example.com' },
      }),
      context.app.inject({
        method: 'POST',
        url: '/api/v1/token',
        payload: { emailAddress: 'nobody@example.com', password: 'Not-The-Password-1' },
      }),
      context.app.inject({ method: 'GET', url: '/api/docs/json' }),
    ]);
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 401, 404, 400, 401, 200]);
    for (const answer of answers) expect(answer.headers['cache-control']).toBe('no-store');
  });

  it('keeps the Cloud Resources list revalidated by its ETag, 304 included', async () => {
    const first = await context.app.inject({
      method: 'GET',
      url: '/api/v1/resource',
      headers: bearer(token),
    });
    expect(first.statusCode).toBe(200);
    expect(first.headers['cache-control']).toBe('private, no-cache');
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^W\//);
    const again = await context.app.inject({
      method: 'GET',
      url: '/api/v1/resource',
      headers: { ...bearer(token), 'if-none-match': etag },
    });
    expect(again.statusCode).toBe(304);
    expect(again.headers['cache-control']).toBe('private, no-cache');
  });
});
