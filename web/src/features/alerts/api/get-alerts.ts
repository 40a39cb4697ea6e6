import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { alertListResponseSchema, type AlertListResponse } from '@cloudtrim/contracts/alerts';
import { requestJson } from '../../../lib/api-client';
import { alertsQueryRoot } from '../../../lib/query-roots';

// Budget crossings and cost anomalies arrive with a cost ingestion, a few an hour at most: a look a
// minute, and on coming back to the tab, is soon enough for a count in the top bar.
export const alertsPollMs = 60_000;

export const alertQueryKeys = {
  all: alertsQueryRoot,
  page: (offset: number) => [...alertsQueryRoot, 'page', offset] as const,
};

// GET /api/v1/alert?offset=: the team's alerts, newest first, 30 a page, and how many are unacknowledged.
export function getAlerts({
  offset,
  signal,
}: {
  offset: number;
  signal?: AbortSignal;
}): Promise<AlertListResponse> {
  return requestJson(`/api/v1/alert?offset=${offset}`, alertListResponseSchema, { signal });
}

export function getAlertsQueryOptions(offset: number) {
  return queryOptions({
    queryKey: alertQueryKeys.page(offset),
    queryFn: ({ signal }) => getAlerts({ offset, signal }),
    refetchInterval: alertsPollMs,
    refetchOnWindowFocus: true,
    placeholderData: keepPreviousData,
  });
}

export function useAlerts(offset = 0) {
  return useQuery(getAlertsQueryOptions(offset));
}
