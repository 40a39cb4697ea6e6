// Whether a service principal may change virtual machines: Resource Manager's
// GET /subscriptions/{id}/providers/Microsoft.Authorization/permissions lists the caller's own
// actions and notActions, one entry per role assignment, so no directory or role-read right is needed.
import type { CloudWriteAccess } from '../cloud-provider';
import { readArmPages, type ArmPipelineClient } from './azure-arm';

const authorizationApiVersion = '2022-04-01';

// What the executor and the active-hours job do to a VM: resize, start, deallocate.
export const virtualMachineWriteActions: readonly string[] = [
  'Microsoft.Compute/virtualMachines/write',
  'Microsoft.Compute/virtualMachines/start/action',
  'Microsoft.Compute/virtualMachines/deallocate/action',
];

export interface AzurePermission {
  actions?: string[];
  notActions?: string[];
}

export async function readVirtualMachineWriteAccess(
  client: ArmPipelineClient,
  resourceManagerUrl: string,
  subscriptionId: string,
  abortSignal: AbortSignal,
): Promise<CloudWriteAccess> {
  const permissions: AzurePermission[] = [];
  await readArmPages<AzurePermission>(
    client,
    `${resourceManagerUrl}/subscriptions/${encodeURIComponent(subscriptionId)}` +
      `/providers/Microsoft.Authorization/permissions?api-version=${authorizationApiVersion}`,
    abortSignal,
    (page) => permissions.push(...page),
  );
  const missingActions = findMissingActions(permissions, virtualMachineWriteActions);
  return { canWrite: missingActions.length === 0, missingActions };
}

// Azure's rule: an assignment grants an action its actions match and its notActions do not; the
// principal holds what any assignment grants. Patterns are case-insensitive with '*' for any text.
export function findMissingActions(
  permissions: readonly AzurePermission[],
  wanted: readonly string[],
): string[] {
  return wanted.filter(
    (action) =>
      !permissions.some(
        (permission) =>
          (permission.actions ?? []).some((pattern) => matchesAction(pattern, action)) &&
          !(permission.notActions ?? []).some((pattern) => matchesAction(pattern, action)),
      ),
  );
}

export function matchesAction(pattern: string, action: string): boolean {
  const expression = pattern
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\/]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${expression}$`, 'i').test(action);
}
