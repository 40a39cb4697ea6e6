import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createOneTimeToken, hashToken, SecretBox } from './secret-box';

describe('SecretBox', () => {
  const box = new SecretBox(randomBytes(32));

  it('round-trips and never shows the plaintext', () => {
    const sealed = box.encrypt('my-client-secret');
    expect(sealed).not.toContain('my-client-secret');
    expect(box.decrypt(sealed)).toBe('my-client-secret');
  });

  it('uses a fresh nonce each time', () => {
    expect(box.encrypt('same')).not.toBe(box.encrypt('same'));
  });

  it('refuses a tampered ciphertext and another key', () => {
    const sealed = Buffer.from(box.encrypt('secret'), 'base64');
    sealed[sealed.length - 1]! ^= 1;
    expect(() => box.decrypt(sealed.toString('base64'))).toThrow();
    expect(() => new SecretBox(randomBytes(32)).decrypt(box.encrypt('secret'))).toThrow();
  });
});

describe('one-time tokens', () => {
  it('carry at least 128 random bits and hash to a stable digest', () => {
    const token = createOneTimeToken();
    expect(Buffer.from(token, 'base64url').length).toBeGreaterThanOrEqual(16);
    expect(createOneTimeToken()).not.toBe(token);
    expect(hashToken(token)).toBe(hashToken(token));
    expect(hashToken(token)).toMatch(/^[0-9a-f]{64}$/);
  });
});
