import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { PrincipalRecord } from '../fleet/fleet.model';

export interface AccessTokenClaims {
  readonly aud: string;
  readonly iss: string;
  readonly iat: number;
  readonly nbf: number;
  readonly exp: number;
  readonly appid: string;
  readonly appidacr: string;
  readonly idp: string;
  readonly idtyp: 'app';
  readonly oid: string;
  readonly sub: string;
  readonly tid: string;
  readonly uti: string;
  readonly ver: '1.0';
}

export type TokenCheck =
  | { readonly isValid: true; readonly claims: AccessTokenClaims }
  | { readonly isValid: false; readonly reason: 'malformed' | 'signature' | 'expired' | 'notYetValid' };

const signingKeyFileName = 'token-signing.key';
const verifiedCacheLimit = 20000;

function encodeSegment(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

/**
 * Issues and checks access tokens: JWTs signed with a key kept in the data directory, so tokens
 * stay valid across a restart just as Entra tokens outlive a Resource Manager restart.
 */
export class TokenService {
  private readonly verified = new Map<string, AccessTokenClaims>();

  constructor(
    private readonly signingKey: Buffer,
    private readonly lifetimeSeconds: number,
  ) {}

  issue(
    principal: PrincipalRecord,
    audience: string,
    issuerOrigin: string,
  ): { accessToken: string; expiresIn: number } {
    const issuedAt = Math.floor(Date.now() / 1000);
    const claims: AccessTokenClaims = {
      aud: audience,
      iss: `${issuerOrigin}/${principal.tenantId}/`,
      iat: issuedAt,
      nbf: issuedAt - 300,
      exp: issuedAt + this.lifetimeSeconds,
      appid: principal.applicationId,
      appidacr: '1',
      idp: `${issuerOrigin}/${principal.tenantId}/`,
      idtyp: 'app',
      oid: principal.objectId,
      sub: principal.objectId,
      tid: principal.tenantId,
      uti: randomUUID().replace(/-/g, ''),
      ver: '1.0',
    };
    const unsigned = `${encodeSegment({ typ: 'JWT', alg: 'HS256', kid: 'cloudtrim-emulator' })}.${encodeSegment(claims)}`;
    return { accessToken: `${unsigned}.${this.sign(unsigned)}`, expiresIn: this.lifetimeSeconds };
  }

  check(token: string): TokenCheck {
    let claims = this.verified.get(token);
    if (!claims) {
      const parts = token.split('.');
      if (parts.length !== 3 || !parts[0] || !parts[1] || !parts[2])
        return { isValid: false, reason: 'malformed' };
      const expected = Buffer.from(this.sign(`${parts[0]}.${parts[1]}`));
      const actual = Buffer.from(parts[2]);
      if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) {
        return { isValid: false, reason: 'signature' };
      }
      try {
        claims = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8')) as AccessTokenClaims;
      } catch {
        return { isValid: false, reason: 'malformed' };
      }
      if (this.verified.size >= verifiedCacheLimit) this.verified.clear();
      this.verified.set(token, claims);
    }
    const nowSeconds = Date.now() / 1000;
    if (claims.exp <= nowSeconds) return { isValid: false, reason: 'expired' };
    if (claims.nbf > nowSeconds) return { isValid: false, reason: 'notYetValid' };
    return { isValid: true, claims };
  }

  private sign(unsigned: string): string {
    return createHmac('sha256', this.signingKey).update(unsigned).digest('base64url');
  }
}

export async function loadOrCreateSigningKey(dataDirectory: string): Promise<Buffer> {
  const keyPath = path.join(dataDirectory, signingKeyFileName);
  await mkdir(dataDirectory, { recursive: true });
  try {
    await writeFile(keyPath, randomBytes(32).toString('base64'), { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  // Another emulator may have created the file an instant ago and not written it yet.
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const text = (await readFile(keyPath, 'utf8')).trim();
    if (text.length > 0) return Buffer.from(text, 'base64');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`The token signing key at ${keyPath} is empty`);
}
