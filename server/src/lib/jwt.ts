// Session tokens: HS256 JWTs (jose) carrying email, given_name, exp and the session id. A token is
// only as good as its session row, which the auth service checks on every call.
import { errors, jwtVerify, SignJWT } from 'jose';
import { createSecretKey, type KeyObject } from 'node:crypto';
import { tokenClaimsSchema, type TokenClaims } from '@cloudtrim/contracts/auth';

export interface SessionTokenInput {
  userId: string;
  sessionId: string;
  email: string;
  givenName: string;
  expiresAt: Date;
}

export interface VerifiedToken extends TokenClaims {
  sub: string;
}

const issuer = 'cloudtrim';

export class JwtCodec {
  // A KeyObject made once: given raw bytes, jose imports the key again on every verification.
  private readonly key: KeyObject;

  constructor(secret: string) {
    this.key = createSecretKey(Buffer.from(secret, 'utf8'));
  }

  async sign(input: SessionTokenInput): Promise<string> {
    return new SignJWT({ email: input.email, given_name: input.givenName, sid: input.sessionId })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(input.userId)
      .setIssuer(issuer)
      .setIssuedAt()
      .setExpirationTime(Math.floor(input.expiresAt.getTime() / 1000))
      .sign(this.key);
  }

  // Returns undefined for anything that is not a valid, unexpired token signed by us with HS256.
  async verify(token: string, now = new Date()): Promise<VerifiedToken | undefined> {
    try {
      const { payload } = await jwtVerify(token, this.key, {
        algorithms: ['HS256'],
        issuer,
        currentDate: now,
        requiredClaims: ['exp', 'sub'],
      });
      const claims = tokenClaimsSchema.safeParse(payload);
      if (!claims.success || typeof payload.sub !== 'string') return undefined;
      return { ...claims.data, sub: payload.sub };
    } catch (error) {
      if (error instanceof errors.JOSEError || error instanceof TypeError) return undefined;
      throw error;
    }
  }
}
