import { tokenClaimsSchema, type TokenClaims } from '@cloudtrim/contracts/auth';
import { markSessionStored, sessionStorageKeys, type StoredSession } from './session';
import { setStatus401 } from './status-401';

export function decodeTokenClaims(token: string): TokenClaims {
  const payload = token.split('.')[1];
  if (!payload) throw new Error('The token has no payload.');
  const base64 = payload.replace(/-/g, '+').replace(/_/g, '/');
  const bytes = Uint8Array.from(atob(base64), (character) => character.charCodeAt(0));
  return tokenClaimsSchema.parse(JSON.parse(new TextDecoder().decode(bytes)));
}

export function storeSession(token: string): StoredSession {
  const claims = decodeTokenClaims(token);
  // A new session ends the previous one's expiry handling.
  setStatus401(false);
  markSessionStored();
  const session: StoredSession = { token, email: claims.email, name: claims.given_name, exp: claims.exp };
  localStorage.setItem(sessionStorageKeys.token, session.token);
  localStorage.setItem(sessionStorageKeys.email, session.email);
  localStorage.setItem(sessionStorageKeys.name, session.name);
  localStorage.setItem(sessionStorageKeys.exp, String(session.exp));
  return session;
}
