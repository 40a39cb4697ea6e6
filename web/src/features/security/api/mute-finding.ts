import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  securityFindingDetailSchema,
  type SecurityFindingDetail,
  type SecurityMuteRequest,
} from '@cloudtrim/contracts/security';
import { requestJson } from '../../../lib/api-client';
import { securityQueryKeys } from './get-security-summary';

// POST /api/v1/security/finding/{id}/mute { Reason, Until }
export function muteFinding(id: string, request: SecurityMuteRequest): Promise<SecurityFindingDetail> {
  return requestJson(`/api/v1/security/finding/${encodeURIComponent(id)}/mute`, securityFindingDetailSchema, {
    method: 'POST',
    body: request,
  });
}

// DELETE /api/v1/security/finding/{id}/mute
export function unmuteFinding(id: string): Promise<SecurityFindingDetail> {
  return requestJson(`/api/v1/security/finding/${encodeURIComponent(id)}/mute`, securityFindingDetailSchema, {
    method: 'DELETE',
  });
}

export function useMuteFinding() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, request }: { id: string; request: SecurityMuteRequest | null }) =>
      request ? muteFinding(id, request) : unmuteFinding(id),
    onSuccess: async (detail) => {
      queryClient.setQueryData(securityQueryKeys.finding(detail.Id), detail);
      await queryClient.invalidateQueries({ queryKey: securityQueryKeys.all });
    },
  });
}
