import { createHmac } from 'node:crypto';
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
  it('round-trips email, given_name, exp in seconds and the session id', () => {
    const token = codec.sign(input);
    const payload = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString());
    expect(payload).toMatchObject({ email: 'ada@example.com', given_name: 'Ada', sid: input.sessionId });
    expect(payload.exp).toBe(Math.floor(input.expiresAt.getTime() / 1000));
    expect(codec.verify(token)).toMatchObject({ sub: input.userId, sid: input.sessionId });
  });

  it('refuses an expired token', () => {
    const token = codec.sign({ ...input, expiresAt: new Date(Date.now() - 1000) });
    expect(codec.verify(token)).toBeUndefined();
  });

  it('refuses a token signed with another secret', () => {
    const token = new JwtCodec('o'.repeat(48)).sign(input);
    expect(codec.verify(token)).toBeUndefined();
  });

  it('refuses a tampered payload', () => {
    const [header, , signature] = codec.sign(input).split('.');
    const forged = encodePart({
      email: 'eve@example.com',
      given_name: 'Eve',
      sid: input.sessionId,
      exp: 9e9,
    });
    expect(codec.verify(`${header}.${forged}.${signature}`)).toBeUndefined();
  });

  it('refuses alg:none', () => {
    const header = encodePart({ alg: 'none', typ: 'JWT' });
    const payload = encodePart({
      email: 'a',
      given_name: 'A',
      sid: 'x',
      sub: 'y',
      iss: 'cloudtrim',
      exp: 9e9,
    });
    expect(codec.verify(`${header}.${payload}.`)).toBeUndefined();
  });

  it('refuses a token from another issuer, or signed with another algorithm', () => {
    const [, payload] = codec.sign(input).split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    const sign = (header: object, body: object, algorithm: string) => {
      const unsigned = `${encodePart(header)}.${encodePart(body)}`;
      const signature = createHmac(algorithm, 's'.repeat(48)).update(unsigned).digest('base64url');
      return `${unsigned}.${signature}`;
    };
    expect(codec.verify(sign({ alg: 'HS256', typ: 'JWT' }, claims, 'sha256'))).toMatchObject({
      sub: input.userId,
    });
    expect(
      codec.verify(sign({ alg: 'HS256', typ: 'JWT' }, { ...claims, iss: 'elsewhere' }, 'sha256')),
    ).toBeUndefined();
    expect(codec.verify(sign({ alg: 'HS512', typ: 'JWT' }, claims, 'sha512'))).toBeUndefined();
  });

  it('refuses garbage', () => {
    expect(codec.verify('not-a-token')).toBeUndefined();
    expect(codec.verify('')).toBeUndefined();
  });
});
