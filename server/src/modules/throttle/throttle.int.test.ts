// Throttles count each attempt first, in one statement, and refuse over the limit: checking first
// and counting later let a parallel burst through (40 wrong logins for one address got 18 tries).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestContext, createUser, logIn, type TestContext } from '../../../test/helper';
import { loginThrottleRules } from '../auth/auth.service';
import { passwordRules } from '../password/password.service';

let context: TestContext;

beforeAll(async () => {
  context = await createTestContext();
});
afterAll(async () => {
  await context.close();
});

let addressCounter = 0;
const nextClientAddress = () => `198.51.100.${(addressCounter += 1)}`;

function countStatuses(statuses: number[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const status of statuses) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

describe('throttles under a parallel burst', () => {
  it('let exactly the limit of wrong logins for one address through', async () => {
    const user = await createUser(context);
    const responses = await Promise.all(
      Array.from({ length: 40 }, () =>
        context.app.inject({
          method: 'POST',
          url: '/api/v1/token',
          payload: { emailAddress: user.email, password: 'Wrong-Horse-42' },
          remoteAddress: nextClientAddress(),
        }),
      ),
    );
    const limit = loginThrottleRules.perAccount.limit;
    expect(countStatuses(responses.map((response) => response.statusCode))).toEqual({
      401: limit,
      429: 40 - limit,
    });
  });

  it('let exactly the limit of wrong current passwords through', async () => {
    const user = await createUser(context);
    const token = await logIn(context, user);
    const responses = await Promise.all(
      Array.from({ length: 30 }, () =>
        context.app.inject({
          method: 'PUT',
          url: '/api/v1/customerprofile/password',
          headers: bearer(token),
          payload: { OldPassword: 'Wrong-Horse-42', NewPassword: 'Another-Horse-43' },
        }),
      ),
    );
    const limit = passwordRules.changeAttemptsPerAccount.limit;
    expect(countStatuses(responses.map((response) => response.statusCode))).toEqual({
      400: limit,
      429: 30 - limit,
    });
  });

  it('let exactly the limit of wrong reset codes through', async () => {
    const user = await createUser(context);
    const responses = await Promise.all(
      Array.from({ length: 30 }, (_unused, index) =>
        context.app.inject({
          method: 'GET',
          url: `/api/v1/Account/ValidateCode?${new URLSearchParams({ email: user.email, code: `wrong-${index}` })}`,
        }),
      ),
    );
    const limit = passwordRules.resetAttemptsPerAddress.limit;
    const answers = responses.map((response) =>
      response.statusCode === 200 ? 'checked' : response.statusCode,
    );
    expect(answers.filter((answer) => answer === 'checked')).toHaveLength(limit);
    expect(answers.filter((answer) => answer === 429)).toHaveLength(30 - limit);
  });
});

describe('a successful login', () => {
  it('clears its address count and does not use up its client allowance', async () => {
    const user = await createUser(context);
    const remoteAddress = nextClientAddress();
    const logInWith = (password: string) =>
      context.app.inject({
        method: 'POST',
        url: '/api/v1/token',
        payload: { emailAddress: user.email, password },
        remoteAddress,
      });
    for (let attempt = 1; attempt < loginThrottleRules.perAccount.limit; attempt += 1) {
      expect((await logInWith('Wrong-Horse-42')).statusCode).toBe(401);
    }
    expect((await logInWith(user.password)).statusCode).toBe(200);
    expect((await logInWith('Wrong-Horse-42')).statusCode).toBe(401);
    expect((await logInWith(user.password)).statusCode).toBe(200);
  });
});

describe('IPv6 clients', () => {
  it('are counted by their /64 network, so rotating addresses inside it does not reset the count', async () => {
    const limit = loginThrottleRules.perClient.limit;
    const network = '2001:db8:4:7';
    const responses = [];
    for (let index = 0; index <= limit; index += 1) {
      responses.push(
        await context.app.inject({
          method: 'POST',
          url: '/api/v1/token',
          payload: { emailAddress: `nobody-${index}@example.com`, password: 'Wrong-Horse-42' },
          remoteAddress: `${network}:${index.toString(16)}::1`,
        }),
      );
    }
    expect(responses.slice(0, limit).every((response) => response.statusCode === 401)).toBe(true);
    expect(responses.at(-1)!.statusCode).toBe(429);
    const otherNetwork = await context.app.inject({
      method: 'POST',
      url: '/api/v1/token',
      payload: { emailAddress: 'nobody@example.com', password: 'Wrong-Horse-42' },
      remoteAddress: '2001:db8:4:8::1',
    });
    expect(otherNetwork.statusCode).toBe(401);
  }, 120_000);
});
