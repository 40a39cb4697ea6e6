import { describe, expect, it } from 'vitest';
import { JwtCodec } from './jwt';

const codec = new JwtCodec('s'.repeat(48));
const input = {
  userId: '6f1c3f9e-3a5e-4d5f-9a84-7d2c1f0b9e11',
  sessionId: 'a1f0c2d3-1111-4222-8333-944455556666',
  email: 'ada@example.com',
  givenName: 'Ada',
  expiresAt: new Date(Date.now() + 3_600_000),
};

function encodePart(value: object): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

describe('JwtCodec', () => {
  it('round-trips email, given_name, exp in seconds and the session id', async () => {
    const token = await codec.sign(input);
    const payload = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString());
    expect(payload).toMatchObject({ email: 'ada@example.com', given_name: 'Ada', sid: input.sessionId });
    expect(payload.exp).toBe(Math.floor(input.expiresAt.getTime() / 1000));
    expect(await codec.verify(token)).toMatchObject({ sub: input.userId, sid: input.sessionId });
  });

  it('refuses an expired token', async () => {
    const token = await codec.sign({ ...input, expiresAt: new Date(Date.now() - 1000) });
    expect(await codec.verify(token)).toBeUndefined();
  });

  it('refuses a token signed with another secret', async () => {
    const token = await new JwtCodec('o'.repeat(48)).sign(input);
    expect(await codec.verify(token)).toBeUndefined();
  });

  it('refuses a tampered payload', async () => {
    const [header, , signature] = (await codec.sign(input)).split('.');
    const forged = encodePart({
      email: 'eve@example.com',
      given_name: 'Eve',
      sid: input.sessionId,
      exp: 9e9,
    });
    expect(await codec.verify(`${header}.${forged}.${signature}`)).toBeUndefined();
  });

  it('refuses alg:none', async () => {
    const header = encodePart({ alg: 'none', typ: 'JWT' });
    const payload = encodePart({
      email: 'a',
      given_name: 'A',
      sid: 'x',
      sub: 'y',
      iss: 'cloudtrim',
      exp: 9e9,
    });
    expect(await codec.verify(`${header}.${payload}.`)).toBeUndefined();
  });

  it('refuses garbage', async () => {
    expect(await codec.verify('not-a-token')).toBeUndefined();
    expect(await codec.verify('')).toBeUndefined();
  });
});
