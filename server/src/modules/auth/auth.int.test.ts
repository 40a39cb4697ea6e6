import { createSigner } from 'fast-jwt';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  bearer,
  createTestContext,
  createUser,
  logIn,
  type TestContext,
  type TestUser,
} from '../../../test/helper';
import type * as PasswordHasher from '../../lib/password-hasher';
import { verifyPassword } from '../../lib/password-hasher';
import { toClientNetwork } from '../throttle/client-network';
import { ThrottleRepository } from '../throttle/throttle.repository';
import { ThrottleService } from '../throttle/throttle.service';
import { loginThrottleRules } from './auth.service';

// The real argon2id verification, watched: how many checks a login pays for, and against what hash.
vi.mock('../../lib/password-hasher', async (importOriginal) => {
  const actual = await importOriginal<typeof PasswordHasher>();
  return { ...actual, verifyPassword: vi.fn(actual.verifyPassword) };
});

let context: TestContext;
let user: TestUser;
// The server's clock, moved forward by tests that need time to pass, or held still by tests that
// must not cross a throttle window's boundary by chance.
let clockOffsetMs = 0;
let frozenAt: Date | undefined;

beforeAll(async () => {
  context = await createTestContext({ now: () => frozenAt ?? new Date(Date.now() + clockOffsetMs) });
  user = await createUser(context, { firstName: 'Grace' });
});
afterAll(() => context.close());

const getDetails = (token: string) =>
  context.app.inject({ method: 'GET', url: '/api/v1/account/details', headers: bearer(token) });

const postToken = (emailAddress: string, password: string, remoteAddress = '127.0.0.1') =>
  context.app.inject({
    method: 'POST',
    url: '/api/v1/token',
    payload: { emailAddress, password },
    remoteAddress,
  });

function decodePayload(token: string) {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString());
}

describe('POST /api/v1/token', () => {
  it('answers the JWT as a JSON string carrying email, given_name, exp and a session id', async () => {
    const response = await postToken(user.email, user.password);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('application/json');
    const token = response.json<string>();
    expect(response.body).toBe(JSON.stringify(token));
    const payload = decodePayload(token);
    expect(payload).toMatchObject({ email: user.email, given_name: 'Grace' });
    expect(payload.sid).toEqual(expect.any(String));
    expect(payload.exp).toBeGreaterThan(Date.now() / 1000);
    expect((await getDetails(token)).json()).toMatchObject({ FirstName: 'Grace', Email: user.email });
  });

  it('accepts the email in any letter case', async () => {
    expect((await postToken(user.email.toUpperCase(), user.password)).statusCode).toBe(200);
  });

  it('answers a wrong password and an unknown email the same way, each paying for one argon2id check', async () => {
    // Timing is what an attacker measures, but a timed assertion fails on a loaded machine: the proof
    // is that both answers cost the same work, one verification against a hash of the same cost.
    const verifications = vi.mocked(verifyPassword);
    const countChecks = async (email: string) => {
      verifications.mockClear();
      const response = await postToken(email, 'Wrong-Password-1', '10.9.9.9');
      return { response, hashes: verifications.mock.calls.map(([passwordHash]) => passwordHash) };
    };
    const wrongPassword = await countChecks(user.email);
    const unknownEmail = await countChecks('nobody-here@example.com');
    expect(wrongPassword.response.statusCode).toBe(401);
    expect(unknownEmail.response.statusCode).toBe(401);
    expect(unknownEmail.response.json().message).toBe(wrongPassword.response.json().message);
    expect(wrongPassword.hashes).toHaveLength(1);
    expect(unknownEmail.hashes).toHaveLength(1);
    const costOf = (passwordHash: string) => passwordHash.split('$').slice(1, 4).join('$');
    expect(costOf(unknownEmail.hashes[0]!)).toBe(costOf(wrongPassword.hashes[0]!));
    expect(costOf(unknownEmail.hashes[0]!)).toBe('argon2id$v=19$m=19456,t=2,p=1');
  });

  it('refuses a malformed body with 400 naming the field', async () => {
    const response = await context.app.inject({
      method: 'POST',
      url: '/api/v1/token',
      payload: { emailAddress: 'a@b.c' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().field).toBe('password');
  });
});

describe('sessions', () => {
  it('DELETE /api/v1/token ends this session only', async () => {
    const first = await logIn(context, user);
    const second = await logIn(context, user);
    const response = await context.app.inject({
      method: 'DELETE',
      url: '/api/v1/token',
      headers: bearer(first),
    });
    expect(response.statusCode).toBe(204);
    expect((await getDetails(first)).statusCode).toBe(401);
    expect((await getDetails(second)).statusCode).toBe(200);
  });

  it('DELETE /api/v1/token/all ends every session of the user at once, not of others', async () => {
    const other = await createUser(context);
    const otherToken = await logIn(context, other);
    const tokens = [await logIn(context, user), await logIn(context, user)];
    const response = await context.app.inject({
      method: 'DELETE',
      url: '/api/v1/token/all',
      headers: bearer(tokens[0]!),
    });
    expect(response.statusCode).toBe(204);
    for (const token of tokens) expect((await getDetails(token)).statusCode).toBe(401);
    expect((await getDetails(otherToken)).statusCode).toBe(200);
    expect((await getDetails(await logIn(context, user))).statusCode).toBe(200);
  });
});

describe('tokens that must not work', () => {
  it('refuses a missing, malformed or non-bearer header', async () => {
    const url = '/api/v1/account/details';
    expect((await context.app.inject({ method: 'GET', url })).statusCode).toBe(401);
    expect(
      (await context.app.inject({ method: 'GET', url, headers: { authorization: 'Bearer' } })).statusCode,
    ).toBe(401);
    expect(
      (await context.app.inject({ method: 'GET', url, headers: { authorization: 'Basic abc' } })).statusCode,
    ).toBe(401);
  });

  it('refuses a tampered token', async () => {
    const [header, payload, signature] = (await logIn(context, user)).split('.');
    const claims = { ...JSON.parse(Buffer.from(payload!, 'base64url').toString()), given_name: 'Mallory' };
    const forged = `${header}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${signature}`;
    expect((await getDetails(forged)).statusCode).toBe(401);
  });

  it('refuses alg:none', async () => {
    const claims = decodePayload(await logIn(context, user));
    const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    const unsigned = `${header}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.`;
    expect((await getDetails(unsigned)).statusCode).toBe(401);
  });

  it('refuses a token signed with another key', async () => {
    const claims = decodePayload(await logIn(context, user));
    const foreign = createSigner({ key: 'another-secret-that-is-long-enough-123', algorithm: 'HS256' })(
      claims,
    );
    expect((await getDetails(foreign)).statusCode).toBe(401);
  });

  it('refuses a token once its session has expired (12 hours by default)', async () => {
    const token = await logIn(context, user);
    expect((await getDetails(token)).statusCode).toBe(200);
    clockOffsetMs = 12 * 3_600_000 + 1000;
    try {
      expect((await getDetails(token)).statusCode).toBe(401);
    } finally {
      clockOffsetMs = 0;
    }
  });
});

describe('failed login throttling', () => {
  const windowMs = loginThrottleRules.perClient.windowSeconds * 1000;
  // Halfway through a fifteen-minute window, an hour ahead of the other tests' hits.
  const midWindow = () =>
    new Date(Math.floor(Date.now() / windowMs) * windowMs + 4 * windowMs + windowMs / 2);
  beforeEach(() => {
    frozenAt = midWindow();
  });
  afterEach(() => {
    frozenAt = undefined;
  });

  it('answers 429 past the per-account bound, even for the right password, and a success clears it', async () => {
    const target = await createUser(context);
    for (let attempt = 0; attempt < loginThrottleRules.perAccount.limit; attempt += 1) {
      expect((await postToken(target.email, 'Wrong-Password-1', `10.1.0.${attempt}`)).statusCode).toBe(401);
    }
    const blocked = await postToken(target.email, target.password, '10.1.1.1');
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().message).toMatch(/Too many/);
    // Other accounts are not affected.
    expect((await postToken(user.email, user.password, '10.1.1.1')).statusCode).toBe(200);
  });

  it('answers 429 past the per-client bound across accounts', async () => {
    const address = '10.2.0.1';
    const { perClient } = loginThrottleRules;
    // All but the last of the bound's failures are counted as the service counts each one: a hundred
    // argon2 checks through the call took a minute on a loaded machine and proved nothing more.
    const throttle = new ThrottleService(
      new ThrottleRepository(context.container.database.db),
      () => frozenAt!,
    );
    for (let attempt = 0; attempt < perClient.limit - 1; attempt += 1) {
      await throttle.hit(`login:client:${toClientNetwork(address)}`, perClient);
    }
    // The last failure through the call, for another account: it counts, so the bound is reached.
    expect((await postToken('spray@example.com', 'Wrong-Password-1', address)).statusCode).toBe(401);
    expect((await postToken(user.email, user.password, address)).statusCode).toBe(429);
    expect((await postToken(user.email, user.password, '10.2.0.2')).statusCode).toBe(200);
  });

  it('still refuses a burst that straddles a window boundary, and lets the account in once the failures age out', async () => {
    const target = await createUser(context);
    const boundary = Math.ceil(frozenAt!.getTime() / windowMs) * windowMs;
    frozenAt = new Date(boundary - 1000);
    for (let attempt = 0; attempt < loginThrottleRules.perAccount.limit / 2; attempt += 1) {
      await postToken(target.email, 'Wrong-Password-1', `10.3.0.${attempt}`);
    }
    frozenAt = new Date(boundary + 1000);
    for (let attempt = 0; attempt < loginThrottleRules.perAccount.limit / 2; attempt += 1) {
      await postToken(target.email, 'Wrong-Password-1', `10.3.1.${attempt}`);
    }
    expect((await postToken(target.email, target.password, '10.3.2.1')).statusCode).toBe(429);
    frozenAt = new Date(boundary + windowMs + 1000);
    expect((await postToken(target.email, target.password, '10.3.2.1')).statusCode).toBe(200);
  });
});
