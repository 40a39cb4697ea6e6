import { solveChallenge } from 'altcha-lib';
import { describe, expect, it } from 'vitest';
import { AltchaProvider, altchaChallengeLifetimeSeconds, deriveAltchaKey } from './altcha.provider';

const now = new Date('2026-03-01T12:00:00Z');
const provider = new AltchaProvider(deriveAltchaKey('j'.repeat(48)), 500);

async function solve(target = provider, issuedAt = now) {
  const challenge = (await target.createChallenge(issuedAt))!;
  const solution = await solveChallenge(
    challenge.challenge,
    challenge.salt,
    challenge.algorithm,
    challenge.maxnumber,
  ).promise;
  const payload = { ...challenge, number: solution!.number };
  return { challenge, answer: Buffer.from(JSON.stringify(payload)).toString('base64') };
}

describe('AltchaProvider', () => {
  it('derives a stable key from the JWT secret that differs per secret and from the secret', () => {
    expect(deriveAltchaKey('a'.repeat(48))).toBe(deriveAltchaKey('a'.repeat(48)));
    expect(deriveAltchaKey('a'.repeat(48))).not.toBe(deriveAltchaKey('b'.repeat(48)));
    expect(deriveAltchaKey('a'.repeat(48))).not.toContain('a'.repeat(48));
  });

  it('issues SHA-256 challenges of the configured difficulty that expire after 20 minutes', async () => {
    const challenge = (await provider.createChallenge(now))!;
    expect(challenge).toMatchObject({ algorithm: 'SHA-256', maxnumber: 500 });
    const expires = Number(new URLSearchParams(challenge.salt.split('?')[1]).get('expires'));
    expect(expires * 1000).toBe(now.getTime() + altchaChallengeLifetimeSeconds * 1000);
  });

  it('accepts a solution, naming its challenge as the replay key until it expires', async () => {
    const { challenge, answer } = await solve();
    expect(await provider.verify(answer, '127.0.0.1', now)).toEqual({
      isSolved: true,
      replayKey: challenge.challenge,
      expiresAt: new Date(now.getTime() + altchaChallengeLifetimeSeconds * 1000),
    });
  });

  it('refuses an expired solution by its own clock', async () => {
    const { answer } = await solve();
    const later = new Date(now.getTime() + altchaChallengeLifetimeSeconds * 1000);
    expect((await provider.verify(answer, '127.0.0.1', later)).isSolved).toBe(false);
  });

  it('refuses a solution to another server’s challenge', async () => {
    const { answer } = await solve(new AltchaProvider(deriveAltchaKey('o'.repeat(48)), 500));
    expect((await provider.verify(answer, '127.0.0.1', now)).isSolved).toBe(false);
  });

  it('refuses tampering and garbage', async () => {
    const { answer } = await solve();
    const payload = JSON.parse(Buffer.from(answer, 'base64').toString());
    const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64');
    for (const forged of [
      encode({ ...payload, number: payload.number + 1 }),
      encode({ ...payload, salt: payload.salt.replace(/expires=\d+/, 'expires=9999999999') }),
      encode({ ...payload, algorithm: 'SHA-1' }),
      encode({ ...payload, number: undefined }),
      'not base64 at all',
      Buffer.from('[1,2,3]').toString('base64'),
    ]) {
      expect((await provider.verify(forged, '127.0.0.1', now)).isSolved).toBe(false);
    }
  });
});
