import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  budgetRequestSchema,
  budgetSchema,
  type Budget,
  type BudgetRequest,
} from '@cloudtrim/contracts/budgets';
import { requestJson } from '../../../lib/api-client';
import { alertsQueryRoot } from '../../../lib/query-roots';
import { budgetQueryKeys } from './get-budgets';

export interface SaveBudgetInput {
  /** The budget changed, or null for a new one. */
  id: string | null;
  request: BudgetRequest;
}

// POST /api/v1/budget or PUT /api/v1/budget/{id}: the server evaluates the budget at once.
export function saveBudget({ id, request }: SaveBudgetInput): Promise<Budget> {
  const body = budgetRequestSchema.parse(request);
  return id === null
    ? requestJson('/api/v1/budget', budgetSchema, { method: 'POST', body })
    : requestJson(`/api/v1/budget/${encodeURIComponent(id)}`, budgetSchema, { method: 'PUT', body });
}

export function useSaveBudget() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveBudget,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: budgetQueryKeys.all }),
        queryClient.invalidateQueries({ queryKey: alertsQueryRoot }),
      ]),
  });
}
