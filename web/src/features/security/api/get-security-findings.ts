import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { securityFindingListSchema, type SecurityFindingList } from '@cloudtrim/contracts/security';
import { requestJson } from '../../../lib/api-client';
import type { FindingFilters } from '../utils/security-text';
import { buildFindingQuery } from '../utils/security-text';
import { securityQueryKeys } from './get-security-summary';

// GET /api/v1/security/finding?offset=&Status=&Severity=&CheckId=&TenantId=&Search=&Sort=&Order=
export function getSecurityFindings({
  query,
  signal,
}: {
  query: string;
  signal?: AbortSignal;
}): Promise<SecurityFindingList> {
  return requestJson(`/api/v1/security/finding?${query}`, securityFindingListSchema, { signal });
}

export function useSecurityFindings(filters: FindingFilters, offset: number) {
  const query = buildFindingQuery(filters, offset);
  return useQuery(
    queryOptions({
      queryKey: securityQueryKeys.findings(query),
      queryFn: ({ signal }) => getSecurityFindings({ query, signal }),
      placeholderData: keepPreviousData,
    }),
  );
}
