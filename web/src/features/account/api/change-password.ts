import { useMutation } from '@tanstack/react-query';
import {
  changePasswordRequestSchema,
  changePasswordResponseSchema,
  type ChangePasswordRequest,
  type ChangePasswordResponse,
} from '@cloudtrim/contracts/password-reset';
import { requestJson } from '../../../lib/api-client';

// PUT /api/v1/customerprofile/password. LogOutAllDevices ends every other session of the account.
export function changePassword(request: ChangePasswordRequest): Promise<ChangePasswordResponse> {
  return requestJson('/api/v1/customerprofile/password', changePasswordResponseSchema, {
    method: 'PUT',
    body: changePasswordRequestSchema.parse(request),
  });
}

interface UseChangePasswordOptions {
  onSuccess?: () => void;
}

export function useChangePassword({ onSuccess }: UseChangePasswordOptions = {}) {
  return useMutation({ mutationFn: changePassword, onSuccess });
}
