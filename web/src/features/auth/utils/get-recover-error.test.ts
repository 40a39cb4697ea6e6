import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/api-client';
import { getRecoverError } from './get-recover-error';

function failedWith(status: number | null) {
  return getRecoverError(new ApiError(status, '', 'failed'));
}

describe('getRecoverError', () => {
  it('answers each status of SPEC §8 with its text', () => {
    expect(failedWith(400)).toEqual({
      text: 'Invalid email address. Please check your email and try again.',
      variant: 'danger',
      hasSignUpLink: false,
    });
    expect(failedWith(404)).toEqual({
      text: 'No account found with that email address...',
      variant: 'warning',
      hasSignUpLink: true,
    });
    expect(failedWith(429)).toEqual({
      text: 'Too many password reset requests. Please wait a few minutes before trying again.',
      variant: 'warning',
      hasSignUpLink: false,
    });
    expect(failedWith(500).text).toBe('Server error. Please try again in a few minutes.');
  });

  it('answers anything else with the general error', () => {
    for (const status of [401, 403, 502, null]) {
      expect(failedWith(status).text).toBe('We encountered an error, please try again later.');
    }
    expect(getRecoverError(new Error('parse')).text).toBe('We encountered an error, please try again later.');
  });
});
