import type { EmulatorServices } from '../emulator.services';
import type { PrincipalRecord } from '../fleet/fleet.model';
import { sendJson, type RequestContext } from '../http/http.context';
import type { Router } from '../http/http.router';

// The built-in roles the fleet's principals hold, with the actions Azure lists for them (trimmed to
// what a virtual machine needs; the role definitions themselves are longer).
export const readerPermission = {
  actions: ['*/read'],
  notActions: [],
  dataActions: [],
  notDataActions: [],
} as const;

// A custom role some teams give a tool that may see the estate but not what it costs.
export const readerWithoutCostsPermission = {
  actions: ['*/read'],
  notActions: ['Microsoft.CostManagement/*/read', 'Microsoft.Consumption/*/read'],
  dataActions: [],
  notDataActions: [],
} as const;

export const virtualMachineContributorPermission = {
  actions: [
    'Microsoft.Authorization/*/read',
    'Microsoft.Compute/availabilitySets/*',
    'Microsoft.Compute/locations/*',
    'Microsoft.Compute/virtualMachines/*',
    'Microsoft.Compute/virtualMachineScaleSets/*',
    'Microsoft.Compute/disks/write',
    'Microsoft.Compute/disks/read',
    'Microsoft.Compute/disks/delete',
    'Microsoft.Insights/alertRules/*',
    'Microsoft.Network/networkInterfaces/*',
    'Microsoft.Network/virtualNetworks/read',
    'Microsoft.Network/virtualNetworks/subnets/join/action',
    'Microsoft.Resources/deployments/*',
    'Microsoft.Resources/subscriptions/resourceGroups/read',
    'Microsoft.Storage/storageAccounts/listKeys/action',
    'Microsoft.Storage/storageAccounts/read',
  ],
  notActions: [],
  dataActions: [],
  notDataActions: [],
} as const;

// What the caller may do on the subscription, one entry per role assignment, as
// GET /subscriptions/{id}/providers/Microsoft.Authorization/permissions answers it. The dispatcher
// has already refused a caller without read on the subscription.
export function listPermissions(
  principal: PrincipalRecord,
  subscriptionId: string,
): (
  | typeof readerPermission
  | typeof readerWithoutCostsPermission
  | typeof virtualMachineContributorPermission
)[] {
  const wanted = subscriptionId.toLowerCase();
  const canRead = principal.readSubscriptionIds.some((id) => id.toLowerCase() === wanted);
  const canWrite = principal.writeSubscriptionIds.some((id) => id.toLowerCase() === wanted);
  const reader = principal.canReadCosts ? readerPermission : readerWithoutCostsPermission;
  return [...(canRead ? [reader] : []), ...(canWrite ? [virtualMachineContributorPermission] : [])];
}

/** Microsoft.Authorization: the caller's own permissions on a subscription. */
export function registerAuthorizationRoutes(
  router: Router,
  services: EmulatorServices,
  readCaller: (context: RequestContext) => PrincipalRecord,
): void {
  router.add(
    'GET',
    '/subscriptions/{subscriptionId}/providers/Microsoft.Authorization/permissions',
    (context, parameters) => {
      const subscription = services.fleet.findSubscription(parameters.subscriptionId ?? '');
      if (!subscription) return;
      sendJson(context, 200, { value: listPermissions(readCaller(context), subscription.subscriptionId) });
    },
  );
}
