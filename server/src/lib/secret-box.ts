// AES-256-GCM for secrets at rest (tenant service principal secrets) and hashing of one-time tokens.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

const ivLength = 12;
const tagLength = 16;

// A sealed value bound to what it belongs to (a tenant's secret to the tenant's id) carries this
// prefix; its associated data must match to open it, so a ciphertext copied onto another row fails.
const boundPrefix = 'v2:';

export class SecretBox {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('The encryption key must be 32 bytes');
  }

  // Without `boundTo` the value opens anywhere (mail bodies in the job queue); with it, only
  // where the same `boundTo` is given.
  encrypt(plaintext: string, boundTo?: string): string {
    const iv = randomBytes(ivLength);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    if (boundTo !== undefined) cipher.setAAD(Buffer.from(boundTo, 'utf8'));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    const sealed = Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64');
    return boundTo === undefined ? sealed : `${boundPrefix}${sealed}`;
  }

  // A value sealed with `boundTo` opens only with the same `boundTo`; asked for a bound value, an
  // unbound one is refused (isBound tells them apart, for moving old values over).
  decrypt(sealed: string, boundTo?: string): string {
    const isSealedBound = isBound(sealed);
    if (isSealedBound !== (boundTo !== undefined)) {
      throw new Error(isSealedBound ? 'This value is bound and needs its owner' : 'This value is not bound');
    }
    const bytes = Buffer.from(isSealedBound ? sealed.slice(boundPrefix.length) : sealed, 'base64');
    const decipher = createDecipheriv('aes-256-gcm', this.key, bytes.subarray(0, ivLength));
    if (boundTo !== undefined) decipher.setAAD(Buffer.from(boundTo, 'utf8'));
    decipher.setAuthTag(bytes.subarray(ivLength, ivLength + tagLength));
    return Buffer.concat([decipher.update(bytes.subarray(ivLength + tagLength)), decipher.final()]).toString(
      'utf8',
    );
  }
}

export function isBound(sealed: string): boolean {
  return sealed.startsWith(boundPrefix);
}

// 256 random bits, URL-safe: the token a one-time link carries.
export function createOneTimeToken(): string {
  return randomBytes(32).toString('base64url');
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
