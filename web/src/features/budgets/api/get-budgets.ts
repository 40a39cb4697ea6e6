import { queryOptions, useQuery } from '@tanstack/react-query';
import { budgetListResponseSchema, type BudgetListResponse } from '@cloudtrim/contracts/budgets';
import { requestJson } from '../../../lib/api-client';

export const budgetQueryKeys = {
  all: ['budgets'] as const,
  list: () => [...budgetQueryKeys.all, 'list'] as const,
};

// GET /api/v1/budget: the team's budgets with their period's burn-down, and Azure's own (read-only).
export function getBudgets({ signal }: { signal?: AbortSignal } = {}): Promise<BudgetListResponse> {
  return requestJson('/api/v1/budget', budgetListResponseSchema, { signal });
}

export function getBudgetsQueryOptions() {
  return queryOptions({
    queryKey: budgetQueryKeys.list(),
    queryFn: ({ signal }) => getBudgets({ signal }),
  });
}

export function useBudgets() {
  return useQuery(getBudgetsQueryOptions());
}
