import { queryOptions, useQuery } from '@tanstack/react-query';
import { tenantsResponseSchema, type TenantsResponse } from '@cloudtrim/contracts/tenants';
import { requestJson } from '../../../lib/api-client';

export const tenantQueryKeys = {
  all: ['tenants'] as const,
  list: () => [...tenantQueryKeys.all, 'list'] as const,
};

export function getTenants({ signal }: { signal?: AbortSignal } = {}): Promise<TenantsResponse> {
  return requestJson('/api/v1/tenant', tenantsResponseSchema, { signal });
}

export function getTenantsQueryOptions() {
  return queryOptions({
    queryKey: tenantQueryKeys.list(),
    queryFn: ({ signal }) => getTenants({ signal }),
  });
}

export function useTenants() {
  return useQuery(getTenantsQueryOptions());
}
