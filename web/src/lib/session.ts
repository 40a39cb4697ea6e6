import { tokenClaimsSchema, type TokenClaims } from '@cloudtrim/contracts/auth';
import { setStatus401 } from './status-401';

// The browser session of SPEC §3, one localStorage entry per field so other tabs and the top bar's
// poll see a log-out at once.
export const sessionStorageKeys = {
  token: 'token',
  email: 'email',
  name: 'name',
  exp: 'exp',
} as const;

export interface StoredSession {
  token: string;
  email: string;
  name: string;
  /** Expiry in seconds since the epoch, as in the token's `exp` claim. */
  exp: number;
}

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
  const session: StoredSession = { token, email: claims.email, name: claims.given_name, exp: claims.exp };
  localStorage.setItem(sessionStorageKeys.token, session.token);
  localStorage.setItem(sessionStorageKeys.email, session.email);
  localStorage.setItem(sessionStorageKeys.name, session.name);
  localStorage.setItem(sessionStorageKeys.exp, String(session.exp));
  return session;
}

export function storeName(name: string): void {
  localStorage.setItem(sessionStorageKeys.name, name);
}

export function readToken(): string | null {
  return localStorage.getItem(sessionStorageKeys.token);
}

export function readName(): string | null {
  return localStorage.getItem(sessionStorageKeys.name);
}

export function readSession(): StoredSession | null {
  const token = localStorage.getItem(sessionStorageKeys.token);
  if (!token) return null;
  return {
    token,
    email: localStorage.getItem(sessionStorageKeys.email) ?? '',
    name: localStorage.getItem(sessionStorageKeys.name) ?? '',
    exp: Number(localStorage.getItem(sessionStorageKeys.exp)),
  };
}

export function isSessionActive(session: StoredSession | null, now = Date.now()): session is StoredSession {
  return session !== null && Number.isFinite(session.exp) && session.exp * 1000 > now;
}

export function clearSession(): void {
  for (const key of Object.values(sessionStorageKeys)) localStorage.removeItem(key);
}
