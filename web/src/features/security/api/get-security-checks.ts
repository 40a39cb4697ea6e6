import { queryOptions, useQuery } from '@tanstack/react-query';
import { securityCheckListSchema } from '@cloudtrim/contracts/security';
import { requestJson } from '../../../lib/api-client';
import { securityQueryKeys } from './get-security-summary';

// GET /api/v1/security/checks: every check, for the check filter.
export function useSecurityChecks() {
  return useQuery(
    queryOptions({
      queryKey: securityQueryKeys.checks(),
      queryFn: ({ signal }) => requestJson('/api/v1/security/checks', securityCheckListSchema, { signal }),
      staleTime: Infinity,
    }),
  );
}
