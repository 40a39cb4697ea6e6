import { redirect } from 'react-router';
import { clearSession, isSessionActive, readSession } from '../lib/session';
import { paths } from '../config/paths';

// Both loaders rerun on every navigation (shouldRevalidate), so the check sees the storage as it is
// when the user arrives, and stays stable while a log-out is clearing it.

/** The public sign-in area: a valid token goes to /home, an expired one is cleared. */
export function loadSignInArea() {
  const session = readSession();
  if (isSessionActive(session)) throw redirect(paths.home);
  if (session) clearSession();
  return null;
}

/** The signed-in shell: a missing or expired token clears the session; the shell then sends the user to /login. */
export function loadSignedInShell() {
  const session = readSession();
  if (isSessionActive(session)) return { isSignedIn: true };
  clearSession();
  return { isSignedIn: false };
}

export function shouldAlwaysRevalidate() {
  return true;
}
