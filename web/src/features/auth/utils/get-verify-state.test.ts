import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/api-client';
import { getVerifyState, readVerifyToken } from './get-verify-state';

const pending = { status: 'pending', error: null } as const;
const answered = { status: 'success', error: null } as const;

function failedWith(status: number | null) {
  return { status: 'error', error: new ApiError(status, '', 'failed') } as const;
}

describe('readVerifyToken', () => {
  it('takes the whole query string as the token', () => {
    expect(readVerifyToken('?Abc_123-xyz')).toBe('Abc_123-xyz');
  });

  it('reads an empty query as no token', () => {
    expect(readVerifyToken('')).toBe('');
    expect(readVerifyToken('?')).toBe('');
  });

  it('decodes a percent-encoded token and keeps a malformed one as it is', () => {
    expect(readVerifyToken('?a%2Db')).toBe('a-b');
    expect(readVerifyToken('?a%E0b')).toBe('a%E0b');
  });
});

describe('getVerifyState', () => {
  it('has nothing to show without a token, whatever the check says', () => {
    expect(getVerifyState('', pending)).toBe('noQuery');
    expect(getVerifyState('', failedWith(401))).toBe('noQuery');
  });

  it('loads while the link is checked, then shows the account form', () => {
    expect(getVerifyState('token', pending)).toBe('loading');
    expect(getVerifyState('token', answered)).toBe('passwordForm');
  });

  it('says a new email was sent for an expired link (409)', () => {
    expect(getVerifyState('token', failedWith(409))).toBe('resendEmail');
  });

  it('reads an unknown or used link (401) as the wrong address', () => {
    expect(getVerifyState('token', failedWith(401))).toBe('wrongAddress');
  });

  it('reads every other failure, a network one included, as a general error', () => {
    for (const status of [400, 403, 500, null]) {
      expect(getVerifyState('token', failedWith(status))).toBe('generalError');
    }
    expect(getVerifyState('token', { status: 'error', error: new Error('parse') })).toBe('generalError');
  });
});
