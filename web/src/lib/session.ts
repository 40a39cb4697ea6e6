// The browser session of SPEC §3, one localStorage entry per field so other tabs and the top bar's
// poll see a log-out at once. Reading it is in every page's first load; storing one (which checks the
// token's claims with the contract's schema, so needs zod) is in store-session.ts, loaded by the
// calls that sign in.
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

// True once this tab ended its own session (a log-out), until it stores a new one: the name poll
// then knows the name is gone because of this tab, which is already on its way to where the log-out
// sends, and must not send to plain /login. Reset only by a new session, never by the navigation's
// end: on a slow machine the signed-in shell (and its poll) outlives navigate()'s promise.
let isEndedHere = false;

export function wasSessionEndedHere(): boolean {
  return isEndedHere;
}

export function markSessionStored(): void {
  isEndedHere = false;
}

export function clearSession(): void {
  for (const key of Object.values(sessionStorageKeys)) localStorage.removeItem(key);
}

/** Clears the session because this tab ends it (a log-out), as opposed to noticing another tab did. */
export function endSessionHere(): void {
  isEndedHere = true;
  clearSession();
}
