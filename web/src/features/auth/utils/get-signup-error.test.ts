import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/api-client';
import { getSignupError } from './get-signup-error';

function failedWith(status: number | null) {
  return getSignupError(new ApiError(status, '', 'failed'));
}

describe('getSignupError', () => {
  it('offers to log in or recover when the address has an account (409)', () => {
    expect(failedWith(409)).toEqual({ text: 'That email is already in use.', hasAccountLinks: true });
  });

  it('asks to wait for a mail sent a few minutes ago (425)', () => {
    expect(failedWith(425).text).toBe(
      "We sent a confirmation email to that address a few minutes ago. If you don't receive an email in the next five minutes, please try again.",
    );
  });

  it('points to support when too many mails were asked for (403)', () => {
    expect(failedWith(403).text).toMatch(/more than the allowed number of times.*contact support/);
  });

  it('answers anything else, a refused captcha included, with the general error', () => {
    for (const status of [400, 429, 500, null]) {
      expect(failedWith(status)).toEqual({
        text: 'We encountered an error, please try again later.',
        hasAccountLinks: false,
      });
    }
  });
});
