import { queryOptions, useQuery } from '@tanstack/react-query';
import { costSummaryResponseSchema, type CostSummaryResponse } from '@cloudtrim/contracts/costs';
import { requestJson } from '../../../lib/api-client';
import { buildCostSearch, costQueryKeys } from './get-cost';

// GET /api/v1/cost/summary: month to date against the same days of last month, the month-end
// forecast and the savings realized on the bill this year; the team's, or one tenant's.
export function getCostSummary({
  tenantId,
  signal,
}: {
  tenantId?: string;
  signal?: AbortSignal;
}): Promise<CostSummaryResponse> {
  const search = buildCostSearch({ tenantId });
  return requestJson(`/api/v1/cost/summary${search ? `?${search}` : ''}`, costSummaryResponseSchema, {
    signal,
  });
}

export function getCostSummaryQueryOptions(tenantId?: string) {
  return queryOptions({
    queryKey: costQueryKeys.summary(tenantId),
    queryFn: ({ signal }) => getCostSummary({ tenantId, signal }),
  });
}

export function useCostSummary(tenantId?: string) {
  return useQuery(getCostSummaryQueryOptions(tenantId));
}
