import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/api-client';
import { getInviteErrorText } from './get-invite-error-text';

describe('getInviteErrorText', () => {
  it('names the address when it has an account or an invitation already (409)', () => {
    expect(getInviteErrorText(new ApiError(409, 'Conflict', 'exists'), 'ann@example.com')).toBe(
      'ann@example.com either already has an account of the product or has already been invited.',
    );
  });

  it('answers any other failure with the general sentence', () => {
    for (const error of [new ApiError(400, '', ''), new ApiError(429, '', ''), new ApiError(null, '', '')]) {
      expect(getInviteErrorText(error, 'ann@example.com')).toBe(
        'There was an error submitting your form. Please Try again later.',
      );
    }
  });

  it('shows nothing for a 401, which ends the session instead', () => {
    expect(getInviteErrorText(new ApiError(401, 'Unauthorized', ''), 'ann@example.com')).toBeNull();
  });
});
