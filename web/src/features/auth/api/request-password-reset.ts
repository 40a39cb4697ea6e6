import { useMutation } from '@tanstack/react-query';
import {
  requestPasswordResetRequestSchema,
  requestPasswordResetResponseSchema,
  type RequestPasswordResetRequest,
  type RequestPasswordResetResponse,
} from '@cloudtrim/contracts/password-reset';
import { requestJson } from '../../../lib/api-client';

// POST /api/v1/customerprofile/password/reset: mails a reset link if the address has an account.
export function requestPasswordReset(
  request: RequestPasswordResetRequest,
): Promise<RequestPasswordResetResponse> {
  return requestJson('/api/v1/customerprofile/password/reset', requestPasswordResetResponseSchema, {
    method: 'POST',
    body: requestPasswordResetRequestSchema.parse(request),
    isAuthenticated: false,
  });
}

interface UseRequestPasswordResetOptions {
  onSuccess?: () => void;
}

export function useRequestPasswordReset({ onSuccess }: UseRequestPasswordResetOptions = {}) {
  return useMutation({ mutationFn: requestPasswordReset, onSuccess });
}
