import { useMutation, useQueryClient } from '@tanstack/react-query';
import { requestVoid } from '../../../lib/api-client';
import { budgetQueryKeys } from './get-budgets';

// DELETE /api/v1/budget/{id}
export function deleteBudget(id: string): Promise<void> {
  return requestVoid(`/api/v1/budget/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

export function useDeleteBudget() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteBudget,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: budgetQueryKeys.all }),
  });
}
