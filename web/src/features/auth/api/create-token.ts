import {
  loginFailedText,
  tokenRequestSchema,
  tokenResponseSchema,
  type TokenRequest,
} from '@cloudtrim/contracts/auth';
import { requestJson } from '../../../lib/api-client';
import type { StoredSession } from '../../../lib/session';
import { storeSession } from '../../../lib/store-session';

// POST /api/v1/token. This module carries the contract's zod schemas, so the login screen loads it
// on demand (use-log-in.ts) instead of in the public area's first load.

export type TokenRequestField = keyof TokenRequest;
export type TokenRequestIssues = Partial<Record<TokenRequestField, { code: string; message: string }>>;

/** The first issue of each field by the contract's rules; empty when the request may be sent. */
export function findTokenRequestIssues(request: TokenRequest): TokenRequestIssues {
  const result = tokenRequestSchema.safeParse(request);
  const issues: TokenRequestIssues = {};
  if (result.success) return issues;
  for (const issue of result.error.issues) {
    const field = issue.path[0];
    if ((field === 'emailAddress' || field === 'password') && !issues[field]) {
      issues[field] = { code: issue.code, message: issue.message };
    }
  }
  return issues;
}

// The answer is the JWT as a JSON string. A 401 here means wrong credentials, not an expired
// session, so it must not trigger the session-expiry handling.
export async function createToken(request: TokenRequest): Promise<string> {
  const token = await requestJson('/api/v1/token', tokenResponseSchema, {
    method: 'POST',
    body: tokenRequestSchema.parse(request),
    isAuthenticated: false,
  });
  return token.replace(/^"|"$/g, '');
}

/** Signs in and stores the session; any failure reads as SPEC's one login failure text. */
export async function logIn(request: TokenRequest): Promise<StoredSession> {
  try {
    return storeSession(await createToken(request));
  } catch (error) {
    throw new Error(loginFailedText, { cause: error });
  }
}
