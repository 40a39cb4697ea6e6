import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  addTenantRequestSchema,
  addTenantResponseSchema,
  type AddTenantRequest,
  type AddTenantResponse,
} from '@cloudtrim/contracts/tenants';
import { requestJson } from '../../../lib/api-client';
import { tenantQueryKeys } from './get-tenants';

export function addTenant(request: AddTenantRequest): Promise<AddTenantResponse> {
  return requestJson('/api/v1/tenant', addTenantResponseSchema, {
    method: 'POST',
    body: addTenantRequestSchema.parse(request),
  });
}

export function useAddTenant() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addTenant,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: tenantQueryKeys.all }),
  });
}
