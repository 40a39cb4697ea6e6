import { resetTooManyAttemptsText } from '@cloudtrim/contracts/messages';
import { ApiError } from '../../../lib/api-client';

export type ResetState =
  | { kind: 'loading' }
  | { kind: 'noQuery' }
  | { kind: 'passwordForm' }
  /** `reason` says why when the check itself failed rather than answering 'not valid'. */
  | { kind: 'invalid'; reason?: string };

interface CodeCheck {
  status: 'pending' | 'error' | 'success';
  data: { Validated: boolean } | undefined;
  error: unknown;
}

/** /ResetPassword?email=..&code=..: SPEC §4 'Password reset'. */
export function getResetState(email: string, code: string, check: CodeCheck): ResetState {
  if (!email || !code) return { kind: 'noQuery' };
  if (check.status === 'pending') return { kind: 'loading' };
  if (check.status === 'success')
    return check.data?.Validated ? { kind: 'passwordForm' } : { kind: 'invalid' };
  if (check.error instanceof ApiError && check.error.status === 429) {
    return { kind: 'invalid', reason: resetTooManyAttemptsText };
  }
  return { kind: 'invalid' };
}
