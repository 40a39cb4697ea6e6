import { ApiError } from '../../../lib/api-client';

export type VerifyState =
  | 'loading'
  | 'noQuery'
  | 'passwordForm'
  | 'resendEmail'
  | 'wrongAddress'
  | 'generalError';

/** /verify?{guid}: the whole query string is the link's token (SPEC §2). */
export function readVerifyToken(search: string): string {
  const query = search.startsWith('?') ? search.slice(1) : search;
  try {
    return decodeURIComponent(query).trim();
  } catch {
    return query.trim();
  }
}

interface LinkCheck {
  status: 'pending' | 'error' | 'success';
  error: unknown;
}

/** SPEC §4 'Verify link': 409 mails a new link, 401 is an unknown or used one, anything else a general error. */
export function getVerifyState(token: string, check: LinkCheck): VerifyState {
  if (!token) return 'noQuery';
  if (check.status === 'pending') return 'loading';
  if (check.status === 'success') return 'passwordForm';
  if (check.error instanceof ApiError && check.error.status === 409) return 'resendEmail';
  if (check.error instanceof ApiError && check.error.status === 401) return 'wrongAddress';
  return 'generalError';
}
