import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createOneTimeToken, hashToken, isBound, SecretBox } from './secret-box';

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

describe('SecretBox bound to an owner', () => {
  const box = new SecretBox(randomBytes(32));

  it('opens only for the owner it was sealed for', () => {
    const sealed = box.encrypt('tenant-secret', 'tenant-a');
    expect(isBound(sealed)).toBe(true);
    expect(box.decrypt(sealed, 'tenant-a')).toBe('tenant-secret');
    expect(() => box.decrypt(sealed, 'tenant-b')).toThrow();
    expect(() => box.decrypt(sealed)).toThrow();
  });

  it('refuses an unbound value where a bound one is asked for, so an old copy cannot stand in', () => {
    const unbound = box.encrypt('tenant-secret');
    expect(isBound(unbound)).toBe(false);
    expect(() => box.decrypt(unbound, 'tenant-a')).toThrow();
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
