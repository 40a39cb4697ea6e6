import { queryOptions, useQuery } from '@tanstack/react-query';
import { approvalListResponseSchema, type ApprovalListResponse } from '@cloudtrim/contracts/pipelines';
import { requestJson } from '../../../lib/api-client';

export const approvalQueryKeys = {
  all: ['approvals'] as const,
  list: () => [...approvalQueryKeys.all, 'list'] as const,
};

/** A colleague's run may ask for an approval at any time: the list is read again this often. */
const approvalsRefreshMs = 60_000;

// GET /api/v1/approval: the team's pipeline actions waiting for the signed-in user's approval.
export function getApprovals({ signal }: { signal?: AbortSignal } = {}): Promise<ApprovalListResponse> {
  return requestJson('/api/v1/approval', approvalListResponseSchema, { signal });
}

export function getApprovalsQueryOptions() {
  return queryOptions({
    queryKey: approvalQueryKeys.list(),
    queryFn: ({ signal }) => getApprovals({ signal }),
    refetchInterval: approvalsRefreshMs,
  });
}

export function useApprovals() {
  return useQuery(getApprovalsQueryOptions());
}
