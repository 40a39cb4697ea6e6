import { describe, expect, it } from 'vitest';
import {
  changePasswordRequestSchema,
  requestPasswordResetRequestSchema,
  resetPasswordWithCodeRequestSchema,
  validateResetCodeQuerySchema,
  validateResetCodeResponseSchema,
} from './password-reset';

describe('password reset', () => {
  it('uses the PascalCase fields of SPEC', () => {
    expect(requestPasswordResetRequestSchema.safeParse({ EmailAddress: 'ada@example.com' }).success).toBe(
      true,
    );
    expect(requestPasswordResetRequestSchema.safeParse({ emailAddress: 'ada@example.com' }).success).toBe(
      false,
    );
    expect(validateResetCodeResponseSchema.parse({ Validated: true })).toEqual({ Validated: true });
    expect(
      resetPasswordWithCodeRequestSchema.safeParse({
        Code: 'abc',
        EmailAddress: 'ada@example.com',
        NewPassword: 'Abcdefgh12',
      }).success,
    ).toBe(true);
  });

  it('reads the link query `email` and `code`', () => {
    expect(validateResetCodeQuerySchema.parse({ email: 'Ada@Example.com', code: 'abc' })).toEqual({
      email: 'ada@example.com',
      code: 'abc',
    });
    expect(validateResetCodeQuerySchema.safeParse({ email: 'ada@example.com', code: '' }).success).toBe(
      false,
    );
  });

  it('holds the new password to the rules on reset and change', () => {
    const weak = 'password12';
    expect(
      resetPasswordWithCodeRequestSchema.safeParse({
        Code: 'abc',
        EmailAddress: 'ada@example.com',
        NewPassword: weak,
      }).success,
    ).toBe(false);
    expect(changePasswordRequestSchema.safeParse({ OldPassword: 'old', NewPassword: weak }).success).toBe(
      false,
    );
  });

  it('accepts the optional log-out-all-devices flag on change', () => {
    const change = { OldPassword: 'old', NewPassword: 'Abcdefgh12' };
    expect(changePasswordRequestSchema.parse(change).LogOutAllDevices).toBeUndefined();
    expect(changePasswordRequestSchema.parse({ ...change, LogOutAllDevices: true }).LogOutAllDevices).toBe(
      true,
    );
    expect(changePasswordRequestSchema.safeParse({ ...change, OldPassword: '' }).success).toBe(false);
  });
});
