import { queryOptions, useQuery } from '@tanstack/react-query';
import { automationLogResponseSchema, type AutomationLogEntry } from '@cloudtrim/contracts/recommendations';
import { requestJson } from '../../../lib/api-client';
import { automationLogQueryRoot } from '../../../lib/query-roots';

// The automation log is shown by the recommendations page and by the automation view's LOGS modal.
export const automationLogQueryKeys = {
  all: automationLogQueryRoot,
  list: (resourceId?: string) =>
    [...automationLogQueryKeys.all, 'list', { resourceId: resourceId ?? null }] as const,
};

export function buildAutomationLogPath(resourceId?: string): string {
  const path = '/api/v1/log/automation';
  return resourceId ? `${path}?${new URLSearchParams({ resourceId }).toString()}` : path;
}

// GET /api/v1/log/automation, optionally for one resource.
export async function getAutomationLog({
  resourceId,
  signal,
}: { resourceId?: string; signal?: AbortSignal } = {}): Promise<AutomationLogEntry[]> {
  const response = await requestJson(buildAutomationLogPath(resourceId), automationLogResponseSchema, {
    signal,
  });
  return response.Data;
}

export function getAutomationLogQueryOptions(resourceId?: string) {
  return queryOptions({
    queryKey: automationLogQueryKeys.list(resourceId),
    queryFn: ({ signal }) => getAutomationLog({ resourceId, signal }),
  });
}

export function useAutomationLog(resourceId?: string) {
  return useQuery(getAutomationLogQueryOptions(resourceId));
}
