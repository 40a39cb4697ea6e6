import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import {
  activityLogResponseSchema,
  getActivityLogOffset,
  type ActivityLogResponse,
} from '@cloudtrim/contracts/activity';
import { requestJson } from '../../../lib/api-client';

// The Recent Activity list is shown by several screens (home, logs, a resource's logs), so its call
// lives here rather than in one feature.
export const activityLogQueryKeys = {
  all: ['activity-log'] as const,
  page: (page: number, resourceId?: string) =>
    [...activityLogQueryKeys.all, 'page', { page, resourceId: resourceId ?? null }] as const,
};

export interface GetActivityLogInput {
  /** 1-based. */
  page: number;
  resourceId?: string;
  signal?: AbortSignal;
}

export function buildActivityLogPath(page: number, resourceId?: string): string {
  const offset = getActivityLogOffset(page);
  const path = offset > 0 ? `/api/v1/log/${offset}` : '/api/v1/log';
  return resourceId ? `${path}?${new URLSearchParams({ resourceId }).toString()}` : path;
}

export function getActivityLog({
  page,
  resourceId,
  signal,
}: GetActivityLogInput): Promise<ActivityLogResponse> {
  return requestJson(buildActivityLogPath(page, resourceId), activityLogResponseSchema, { signal });
}

export function getActivityLogQueryOptions(page: number, resourceId?: string) {
  return queryOptions({
    queryKey: activityLogQueryKeys.page(page, resourceId),
    queryFn: ({ signal }) => getActivityLog({ page, resourceId, signal }),
    // Keeps the current page on screen while the next one loads, so the pager does not jump.
    placeholderData: keepPreviousData,
  });
}

export function useActivityLog(page: number, resourceId?: string) {
  return useQuery(getActivityLogQueryOptions(page, resourceId));
}
