import { queryOptions, useQuery } from '@tanstack/react-query';
import { captchaConfigResponseSchema, type CaptchaConfigResponse } from '@cloudtrim/contracts/captcha';
import { requestJson } from '../../../lib/api-client';

export const captchaQueryKeys = {
  config: ['captcha', 'config'] as const,
};

// GET /api/v1/captcha/config: which captcha the sign-up form shows (ALTCHA, or reCAPTCHA with its site key).
export function getCaptchaConfig({ signal }: { signal?: AbortSignal } = {}): Promise<CaptchaConfigResponse> {
  return requestJson('/api/v1/captcha/config', captchaConfigResponseSchema, {
    isAuthenticated: false,
    signal,
  });
}

export function getCaptchaConfigQueryOptions() {
  return queryOptions({
    queryKey: captchaQueryKeys.config,
    queryFn: ({ signal }) => getCaptchaConfig({ signal }),
    staleTime: Infinity,
  });
}

export function useCaptchaConfig() {
  return useQuery(getCaptchaConfigQueryOptions());
}
