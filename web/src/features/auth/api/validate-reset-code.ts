import { queryOptions, useQuery } from '@tanstack/react-query';
import {
  validateResetCodeQuerySchema,
  validateResetCodeResponseSchema,
  type ValidateResetCodeQuery,
  type ValidateResetCodeResponse,
} from '@cloudtrim/contracts/password-reset';
import { requestJson } from '../../../lib/api-client';

export const resetCodeQueryKeys = {
  validation: ({ email, code }: ValidateResetCodeQuery) => ['reset-code', email, code] as const,
};

// GET /api/v1/Account/ValidateCode?email=&code=: whether a reset link still holds.
export function validateResetCode(
  query: ValidateResetCodeQuery,
  { signal }: { signal?: AbortSignal } = {},
): Promise<ValidateResetCodeResponse> {
  const search = new URLSearchParams(validateResetCodeQuerySchema.parse(query));
  return requestJson(`/api/v1/Account/ValidateCode?${search.toString()}`, validateResetCodeResponseSchema, {
    isAuthenticated: false,
    signal,
  });
}

export function getValidateResetCodeQueryOptions(query: ValidateResetCodeQuery) {
  return queryOptions({
    queryKey: resetCodeQueryKeys.validation(query),
    queryFn: ({ signal }) => validateResetCode(query, { signal }),
    // A wrong code counts against the address's attempts: one check per visit.
    retry: false,
    staleTime: Infinity,
  });
}

export function useValidateResetCode(query: ValidateResetCodeQuery) {
  return useQuery({
    ...getValidateResetCodeQueryOptions(query),
    enabled: query.email.length > 0 && query.code.length > 0,
  });
}
