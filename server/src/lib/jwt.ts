// Session tokens: HS256 JWTs carrying email, given_name, exp and the session id. A token is only as
// good as its session row, which the auth service checks on every call.
// fast-jwt signs and verifies with node:crypto synchronously, about 10 µs a token; WebCrypto-based
// libraries take 150-250 µs and a thread-pool hop, on every authenticated call.
import { createSigner, createVerifier, TokenError } from 'fast-jwt';
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
  private readonly signer: (payload: Record<string, unknown>) => string;
  private readonly verifier: (token: string) => Record<string, unknown>;

  constructor(secret: string) {
    const key = Buffer.from(secret, 'utf8');
    this.signer = createSigner({ key, algorithm: 'HS256', iss: issuer });
    // Expiry is checked below against the caller's clock, so tests can move time.
    this.verifier = createVerifier({
      key,
      algorithms: ['HS256'],
      allowedIss: issuer,
      requiredClaims: ['exp', 'sub'],
      ignoreExpiration: true,
    });
  }

  sign(input: SessionTokenInput): string {
    return this.signer({
      email: input.email,
      given_name: input.givenName,
      sid: input.sessionId,
      sub: input.userId,
      exp: Math.floor(input.expiresAt.getTime() / 1000),
    });
  }

  // Returns undefined for anything that is not a valid, unexpired token signed by us with HS256.
  verify(token: string, now = new Date()): VerifiedToken | undefined {
    let payload: Record<string, unknown>;
    try {
      payload = this.verifier(token);
    } catch (error) {
      if (error instanceof TokenError) return undefined;
      throw error;
    }
    const claims = tokenClaimsSchema.safeParse(payload);
    if (!claims.success || typeof payload.sub !== 'string') return undefined;
    if (claims.data.exp * 1000 <= now.getTime()) return undefined;
    return { ...claims.data, sub: payload.sub };
  }
}
