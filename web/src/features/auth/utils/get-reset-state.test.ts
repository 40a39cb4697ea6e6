import { describe, expect, it } from 'vitest';
import { resetTooManyAttemptsText } from '@cloudtrim/contracts/messages';
import { ApiError } from '../../../lib/api-client';
import { getResetState } from './get-reset-state';

const pending = { status: 'pending', data: undefined, error: null } as const;

function validated(isValid: boolean) {
  return { status: 'success', data: { Validated: isValid }, error: null } as const;
}

function failedWith(status: number | null) {
  return { status: 'error', data: undefined, error: new ApiError(status, '', 'failed') } as const;
}

describe('getResetState', () => {
  it('has nothing to show when the email or the code is missing', () => {
    expect(getResetState('', 'code', pending)).toEqual({ kind: 'noQuery' });
    expect(getResetState('a@example.com', '', pending)).toEqual({ kind: 'noQuery' });
  });

  it('loads while the code is checked', () => {
    expect(getResetState('a@example.com', 'code', pending)).toEqual({ kind: 'loading' });
  });

  it('shows the form for a validated code and the invalid screen otherwise', () => {
    expect(getResetState('a@example.com', 'code', validated(true))).toEqual({ kind: 'passwordForm' });
    expect(getResetState('a@example.com', 'code', validated(false))).toEqual({ kind: 'invalid' });
  });

  it('says why when too many attempts were made', () => {
    expect(getResetState('a@example.com', 'code', failedWith(429))).toEqual({
      kind: 'invalid',
      reason: resetTooManyAttemptsText,
    });
  });

  it('treats any other failed check as an invalid link', () => {
    expect(getResetState('a@example.com', 'code', failedWith(500))).toEqual({ kind: 'invalid' });
    expect(getResetState('a@example.com', 'code', failedWith(null))).toEqual({ kind: 'invalid' });
  });
});
