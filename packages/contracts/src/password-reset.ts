import { z } from 'zod';
import { emailAddressSchema, messageResponseSchema } from './common';
import { newPasswordSchema } from './password-rules';

const resetCodeSchema = z.string().trim().min(1).max(200);

// POST /api/v1/customerprofile/password/reset: asks for a reset link by email.
export const requestPasswordResetRequestSchema = z.object({ EmailAddress: emailAddressSchema });
export type RequestPasswordResetRequest = z.infer<typeof requestPasswordResetRequestSchema>;

export const requestPasswordResetResponseSchema = messageResponseSchema;
export type RequestPasswordResetResponse = z.infer<typeof requestPasswordResetResponseSchema>;

// GET /api/v1/Account/ValidateCode?email=&code=: whether a reset link still holds.
export const validateResetCodeQuerySchema = z.object({ email: emailAddressSchema, code: resetCodeSchema });
export type ValidateResetCodeQuery = z.infer<typeof validateResetCodeQuerySchema>;

export const validateResetCodeResponseSchema = z.object({ Validated: z.boolean() });
export type ValidateResetCodeResponse = z.infer<typeof validateResetCodeResponseSchema>;

// POST /api/v1/customerprofile/password/resetwithcode: sets the new password from the link.
export const resetPasswordWithCodeRequestSchema = z.object({
  Code: resetCodeSchema,
  EmailAddress: emailAddressSchema,
  NewPassword: newPasswordSchema,
});
export type ResetPasswordWithCodeRequest = z.infer<typeof resetPasswordWithCodeRequestSchema>;

export const resetPasswordWithCodeResponseSchema = messageResponseSchema;
export type ResetPasswordWithCodeResponse = z.infer<typeof resetPasswordWithCodeResponseSchema>;

// PUT /api/v1/customerprofile/password: a signed-in change of password.
export const changePasswordRequestSchema = z.object({
  OldPassword: z.string().min(1, { error: 'Current password is required.' }).max(200),
  NewPassword: newPasswordSchema,
  // Not in SPEC's payload. SPEC's 'Log out of all devices' must end every other session; the web may
  // instead call DELETE /api/v1/token/all afterwards, so the flag is optional and defaults to false.
  LogOutAllDevices: z.boolean().optional(),
});
export type ChangePasswordRequest = z.infer<typeof changePasswordRequestSchema>;

export const changePasswordResponseSchema = messageResponseSchema;
export type ChangePasswordResponse = z.infer<typeof changePasswordResponseSchema>;
