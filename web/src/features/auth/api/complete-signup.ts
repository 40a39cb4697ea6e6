import { useMutation } from '@tanstack/react-query';
import {
  completeSignupRequestSchema,
  completeSignupResponseSchema,
  type CompleteSignupRequest,
  type CompleteSignupResponse,
} from '@cloudtrim/contracts/signup';
import { requestJson } from '../../../lib/api-client';

// PUT /api/v1/emailaddress: creates the account from a confirmation or invitation link.
export function completeSignup(request: CompleteSignupRequest): Promise<CompleteSignupResponse> {
  return requestJson('/api/v1/emailaddress', completeSignupResponseSchema, {
    method: 'PUT',
    body: completeSignupRequestSchema.parse(request),
    isAuthenticated: false,
  });
}

interface UseCompleteSignupOptions {
  onSuccess?: () => void;
}

export function useCompleteSignup({ onSuccess }: UseCompleteSignupOptions = {}) {
  return useMutation({ mutationFn: completeSignup, onSuccess });
}
