import { useMutation } from '@tanstack/react-query';
import { tokenRequestSchema, tokenResponseSchema, type TokenRequest } from '@cloudtrim/contracts/auth';
import { requestJson } from '../../../lib/api-client';
import { storeSession, type StoredSession } from '../../../lib/session';

// POST /api/v1/token: the answer is the JWT as a JSON string. A 401 here means wrong credentials,
// not an expired session, so it must not trigger the session-expiry handling.
export async function createToken(request: TokenRequest): Promise<string> {
  const token = await requestJson('/api/v1/token', tokenResponseSchema, {
    method: 'POST',
    body: tokenRequestSchema.parse(request),
    isAuthenticated: false,
  });
  return token.replace(/^"|"$/g, '');
}

export async function logIn(request: TokenRequest): Promise<StoredSession> {
  return storeSession(await createToken(request));
}

interface UseLogInOptions {
  onSuccess?: (session: StoredSession) => void;
}

export function useLogIn({ onSuccess }: UseLogInOptions = {}) {
  return useMutation({ mutationFn: logIn, onSuccess });
}
