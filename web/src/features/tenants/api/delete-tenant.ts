import { useMutation, useQueryClient } from '@tanstack/react-query';
import { deleteTenantResponseSchema, type DeleteTenantResponse } from '@cloudtrim/contracts/tenants';
import { requestJson } from '../../../lib/api-client';
import { tenantQueryKeys } from './get-tenants';

export function deleteTenant(id: string): Promise<DeleteTenantResponse> {
  return requestJson(`/api/v1/tenant/${encodeURIComponent(id)}`, deleteTenantResponseSchema, {
    method: 'DELETE',
  });
}

export function useDeleteTenant() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteTenant,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: tenantQueryKeys.all }),
  });
}
