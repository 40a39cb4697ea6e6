// AES-256-GCM for secrets at rest (tenant service principal secrets) and hashing of one-time tokens.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

const ivLength = 12;
const tagLength = 16;

export class SecretBox {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('The encryption key must be 32 bytes');
  }

  encrypt(plaintext: string): string {
    const iv = randomBytes(ivLength);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64');
  }

  decrypt(sealed: string): string {
    const bytes = Buffer.from(sealed, 'base64');
    const decipher = createDecipheriv('aes-256-gcm', this.key, bytes.subarray(0, ivLength));
    decipher.setAuthTag(bytes.subarray(ivLength, ivLength + tagLength));
    return Buffer.concat([decipher.update(bytes.subarray(ivLength + tagLength)), decipher.final()]).toString(
      'utf8',
    );
  }
}

// 256 random bits, URL-safe: the token a one-time link carries.
export function createOneTimeToken(): string {
  return randomBytes(32).toString('base64url');
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
