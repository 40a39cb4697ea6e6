import { useMutation } from '@tanstack/react-query';
import {
  resetPasswordWithCodeRequestSchema,
  resetPasswordWithCodeResponseSchema,
  type ResetPasswordWithCodeRequest,
  type ResetPasswordWithCodeResponse,
} from '@cloudtrim/contracts/password-reset';
import { requestJson } from '../../../lib/api-client';

// POST /api/v1/customerprofile/password/resetwithcode: sets the new password from a reset link.
export function resetPasswordWithCode(
  request: ResetPasswordWithCodeRequest,
): Promise<ResetPasswordWithCodeResponse> {
  return requestJson('/api/v1/customerprofile/password/resetwithcode', resetPasswordWithCodeResponseSchema, {
    method: 'POST',
    body: resetPasswordWithCodeRequestSchema.parse(request),
    isAuthenticated: false,
  });
}

interface UseResetPasswordWithCodeOptions {
  onSuccess?: () => void;
}

export function useResetPasswordWithCode({ onSuccess }: UseResetPasswordWithCodeOptions = {}) {
  return useMutation({ mutationFn: resetPasswordWithCode, onSuccess });
}
