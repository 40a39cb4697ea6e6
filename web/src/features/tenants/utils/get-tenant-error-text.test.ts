import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/api-client';
import { getAddTenantErrorText, getDeleteTenantErrorText } from './get-tenant-error-text';

function createError(status: number | null) {
  return new ApiError(status, '', 'failed');
}

describe('getAddTenantErrorText', () => {
  it('explains a refused service principal and a duplicate tenant', () => {
    expect(getAddTenantErrorText(createError(400))).toBe(
      'The tenant cannot be authenticated, please check your IDs and secret and try again.',
    );
    expect(getAddTenantErrorText(createError(409))).toBe('This tenant already exists for your account.');
  });

  it('says nothing for a 401, which logs out', () => {
    expect(getAddTenantErrorText(createError(401))).toBeNull();
  });

  it('asks to try later for anything else, the network included', () => {
    const text = 'There was an error saving the tenant. Please try again later.';
    expect(getAddTenantErrorText(createError(500))).toBe(text);
    expect(getAddTenantErrorText(createError(null))).toBe(text);
    expect(getAddTenantErrorText(new Error('boom'))).toBe(text);
  });
});

describe('getDeleteTenantErrorText', () => {
  it('presents a 404 as a missing authorization', () => {
    expect(getDeleteTenantErrorText(createError(404))).toBe(
      "You don't have authorization to delete this tenant.",
    );
  });

  it('tells a server error from any other failure', () => {
    expect(getDeleteTenantErrorText(createError(500))).toBe('There was a server error, please try again.');
    expect(getDeleteTenantErrorText(createError(503))).toBe(
      'There was an error deleting the tenant. Please try again.',
    );
    expect(getDeleteTenantErrorText(createError(null))).toBe(
      'There was an error deleting the tenant. Please try again.',
    );
  });

  it('says nothing for a 401, which logs out', () => {
    expect(getDeleteTenantErrorText(createError(401))).toBeNull();
  });
});
