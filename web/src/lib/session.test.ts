// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { clearSession, isSessionActive, readSession } from './session';
import { decodeTokenClaims, storeSession } from './store-session';

function encodeSegment(value: object): string {
  return btoa(JSON.stringify(value)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function createToken(claims: object): string {
  return `${encodeSegment({ alg: 'HS256', typ: 'JWT' })}.${encodeSegment(claims)}.signature`;
}

const claims = { email: 'zoë@cloudtrim.dev', given_name: 'Zoë', exp: 2_000_000_000, sid: 'session-1' };

afterEach(() => localStorage.clear());

describe('session storage', () => {
  it('decodes the claims of a token, non-ASCII names included', () => {
    const bytes = new TextEncoder().encode(JSON.stringify(claims));
    const payload = btoa(String.fromCharCode(...bytes)).replace(/=+$/, '');
    expect(decodeTokenClaims(`x.${payload}.y`)).toEqual(claims);
  });

  it('stores token, email, name and exp under their own keys', () => {
    const token = createToken({ ...claims, given_name: 'Demo', email: 'demo@cloudtrim.dev' });
    storeSession(token);
    expect({ ...localStorage }).toEqual({
      token,
      email: 'demo@cloudtrim.dev',
      name: 'Demo',
      exp: '2000000000',
    });
    expect(readSession()).toEqual({ token, email: 'demo@cloudtrim.dev', name: 'Demo', exp: 2_000_000_000 });
  });

  it('refuses a token without the expected claims', () => {
    expect(() => storeSession(createToken({ email: 'a@b.c' }))).toThrow();
    expect(localStorage.length).toBe(0);
  });

  it('treats a missing, expired or expiry-less session as inactive', () => {
    const now = 1_000_000 * 1000;
    expect(isSessionActive(null, now)).toBe(false);
    expect(isSessionActive({ token: 't', email: '', name: '', exp: 1_000_000 }, now)).toBe(false);
    expect(isSessionActive({ token: 't', email: '', name: '', exp: Number.NaN }, now)).toBe(false);
    expect(isSessionActive({ token: 't', email: '', name: '', exp: 1_000_001 }, now)).toBe(true);
  });

  it('clears every key', () => {
    storeSession(createToken(claims));
    clearSession();
    expect(localStorage.length).toBe(0);
    expect(readSession()).toBeNull();
  });
});
