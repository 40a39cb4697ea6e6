// PostgreSQL refuses text holding a NUL character, so such input must be refused as bad input (400)
// before it reaches a query, on every route: the three below answered 500 (issue 9).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestContext, createUser, logIn, type TestContext } from '../../test/helper';

let context: TestContext;
let token: string;

beforeAll(async () => {
  context = await createTestContext();
  token = await logIn(context, await createUser(context));
});
afterAll(async () => {
  await context.close();
});

describe('text holding a NUL character', () => {
  it.each([
    ['/api/v1/resource/find?partialResource=%00', 'partialResource'],
    ['/api/v1/metric?azureResource=%00', 'azureResource'],
    ['/api/v1/log?resourceId=%00', 'resourceId'],
    ['/api/v1/resource/find?partialResource=vm%00x', 'partialResource'],
  ])('is refused with 400 naming the field: GET %s', async (url, field) => {
    const response = await context.app.inject({ method: 'GET', url, headers: bearer(token) });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json()).toMatchObject({ field });
  });

  it('is refused in a JSON body, before any check that would read the database', async () => {
    const response = await context.app.inject({
      method: 'POST',
      url: '/api/v1/token',
      payload: { emailAddress: 'ada@example.com', password: 'pass\u0000word' },
    });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json()).toMatchObject({ field: 'password' });
  });
});
