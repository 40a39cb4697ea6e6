import { queryOptions, useQuery } from '@tanstack/react-query';
import { securitySummarySchema, type SecuritySummary } from '@cloudtrim/contracts/security';
import { requestJson } from '../../../lib/api-client';

export const securityQueryKeys = {
  all: ['security'] as const,
  summary: () => [...securityQueryKeys.all, 'summary'] as const,
  findings: (query: string) => [...securityQueryKeys.all, 'findings', query] as const,
  finding: (id: string) => [...securityQueryKeys.all, 'finding', id] as const,
  checks: () => [...securityQueryKeys.all, 'checks'] as const,
};

// GET /api/v1/security/summary: open findings by severity, and each subscription's score and trend.
export function getSecuritySummary({ signal }: { signal?: AbortSignal } = {}): Promise<SecuritySummary> {
  return requestJson('/api/v1/security/summary', securitySummarySchema, { signal });
}

export function useSecuritySummary() {
  return useQuery(
    queryOptions({
      queryKey: securityQueryKeys.summary(),
      queryFn: ({ signal }) => getSecuritySummary({ signal }),
    }),
  );
}
