import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { normalizeScheduleResponse, type ScheduledChange } from '@cloudtrim/contracts/schedule';
import { requestJson } from '../../../lib/api-client';
import { scheduleQueryRoot } from '../../../lib/query-roots';

export const scheduleQueryKeys = {
  all: scheduleQueryRoot,
  list: (resourceId?: string) => [...scheduleQueryKeys.all, { resourceId: resourceId ?? null }] as const,
};

// SPEC §7: the answer is either a bare array or {Data}; both become one list.
const scheduleAnswerSchema = z.unknown().transform((body) => normalizeScheduleResponse(body));

export function buildSchedulePath(resourceId?: string): string {
  const path = '/api/v1/resource/schedule';
  return resourceId ? `${path}?${new URLSearchParams({ resourceId }).toString()}` : path;
}

// GET api/v1/resource/schedule, optionally for one resource.
export function getSchedule({
  resourceId,
  signal,
}: { resourceId?: string; signal?: AbortSignal } = {}): Promise<ScheduledChange[]> {
  return requestJson(buildSchedulePath(resourceId), scheduleAnswerSchema, { signal });
}

export function getScheduleQueryOptions(resourceId?: string) {
  return queryOptions({
    queryKey: scheduleQueryKeys.list(resourceId),
    queryFn: ({ signal }) => getSchedule({ resourceId, signal }),
  });
}

export function useSchedule(resourceId?: string) {
  return useQuery(getScheduleQueryOptions(resourceId));
}
