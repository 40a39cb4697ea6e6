import { queryOptions, useQuery } from '@tanstack/react-query';
import { securityFindingDetailSchema, type SecurityFindingDetail } from '@cloudtrim/contracts/security';
import { requestJson } from '../../../lib/api-client';
import { securityQueryKeys } from './get-security-summary';

// GET /api/v1/security/finding/{id}: one finding with its evidence, remediation, mute and history.
export function getSecurityFinding({
  id,
  signal,
}: {
  id: string;
  signal?: AbortSignal;
}): Promise<SecurityFindingDetail> {
  return requestJson(`/api/v1/security/finding/${encodeURIComponent(id)}`, securityFindingDetailSchema, {
    signal,
  });
}

export function useSecurityFinding(id: string | undefined) {
  return useQuery(
    queryOptions({
      queryKey: securityQueryKeys.finding(id ?? ''),
      queryFn: ({ signal }) => getSecurityFinding({ id: id ?? '', signal }),
      enabled: Boolean(id),
    }),
  );
}
