import { useMutation } from '@tanstack/react-query';
import {
  startSignupRequestSchema,
  startSignupResponseSchema,
  type StartSignupRequest,
  type StartSignupResponse,
} from '@cloudtrim/contracts/signup';
import { requestJson } from '../../../lib/api-client';

// POST /api/v1/emailaddress: checks the captcha answer, then mails a confirmation link.
export function startSignup(request: StartSignupRequest): Promise<StartSignupResponse> {
  return requestJson('/api/v1/emailaddress', startSignupResponseSchema, {
    method: 'POST',
    body: startSignupRequestSchema.parse(request),
    isAuthenticated: false,
  });
}

interface UseStartSignupOptions {
  onSuccess?: () => void;
}

export function useStartSignup({ onSuccess }: UseStartSignupOptions = {}) {
  return useMutation({ mutationFn: startSignup, onSuccess });
}
