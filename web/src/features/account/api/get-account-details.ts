import { queryOptions, useQuery } from '@tanstack/react-query';
import { accountDetailsSchema, type AccountDetails } from '@cloudtrim/contracts/account';
import { requestJson } from '../../../lib/api-client';

export const accountQueryKeys = {
  all: ['account'] as const,
  details: () => [...accountQueryKeys.all, 'details'] as const,
};

export function getAccountDetails({ signal }: { signal?: AbortSignal } = {}): Promise<AccountDetails> {
  return requestJson('/api/v1/account/details', accountDetailsSchema, { signal });
}

export function getAccountDetailsQueryOptions() {
  return queryOptions({
    queryKey: accountQueryKeys.details(),
    queryFn: ({ signal }) => getAccountDetails({ signal }),
  });
}

export function useAccountDetails() {
  return useQuery(getAccountDetailsQueryOptions());
}
