import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AutomationValue } from '@cloudtrim/contracts/automation';
import {
  buildResourceAutomationPath,
  updateResourceAutomationResponseSchema,
  type UpdateResourceAutomationResponse,
} from '@cloudtrim/contracts/resources';
import { requestJson } from '../../../lib/api-client';

export interface UpdateResourceAutomationInput {
  resourceId: string;
  automated: AutomationValue;
  /** Hour 0-23, UTC; left out when none is chosen. */
  maintenanceWindow: number | null;
}

export function buildUpdateResourceAutomationPath({
  resourceId,
  automated,
  maintenanceWindow,
}: UpdateResourceAutomationInput): string {
  const query = new URLSearchParams({ automated: String(automated) });
  if (maintenanceWindow !== null) query.set('maintenanceWindow', String(maintenanceWindow));
  return `${buildResourceAutomationPath(resourceId)}?${query.toString()}`;
}

// PUT /api/v1/resource/{resource path}?automated=&maintenanceWindow=: no body, a JSON answer.
export function updateResourceAutomation(
  input: UpdateResourceAutomationInput,
): Promise<UpdateResourceAutomationResponse> {
  return requestJson(buildUpdateResourceAutomationPath(input), updateResourceAutomationResponseSchema, {
    method: 'PUT',
  });
}

/** `invalidates` names the query that lists the resource, so the automation view shows the new state. */
export function useUpdateResourceAutomation(invalidates: readonly unknown[]) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateResourceAutomation,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: invalidates }),
  });
}
