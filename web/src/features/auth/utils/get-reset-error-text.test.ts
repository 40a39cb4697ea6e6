import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/api-client';
import { getResetErrorText } from './get-reset-error-text';

describe('getResetErrorText', () => {
  const expected: Array<[number, string]> = [
    [400, 'Invalid request. Please check your information and try again.'],
    [401, 'Invalid or expired reset code. Please request a new password reset link.'],
    [404, 'Account not found. Please verify your email address.'],
    [409, 'Password reset has already been completed for this code.'],
    [422, 'Password does not meet requirements. Please try a different password.'],
    [429, 'Too many attempts. Please try again later.'],
    [500, 'Server error. Please try again later.'],
  ];
  for (const [status, text] of expected) {
    it(`answers ${status} with SPEC's text`, () => {
      expect(getResetErrorText(new ApiError(status, 'Status text', 'server message'))).toBe(text);
    });
  }

  it('shows the status, its text and the server message for any other status', () => {
    const text = getResetErrorText(new ApiError(503, 'Service Unavailable', 'Down for maintenance'));
    expect(text).toContain('503');
    expect(text).toContain('Service Unavailable');
    expect(text).toContain('Down for maintenance');
  });

  it('reports a network error when no answer arrived', () => {
    expect(getResetErrorText(new ApiError(null, '', 'Failed to fetch'))).toBe(
      'Network error. Please check your connection and try again.',
    );
  });
});
