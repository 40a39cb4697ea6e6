// A Cloud Resources row for the feature's tests: a running VM of the Contoso tenant named `name`.
import type { CloudResource } from '@cloudtrim/contracts/resources';

export function createCloudResource(name: string, overrides: Partial<CloudResource> = {}): CloudResource {
  return {
    ResourceId: `/subscriptions/s/resourceGroups/rg/providers/Microsoft.Compute/virtualMachines/${name}`,
    ResourceType: 'Microsoft.Compute/virtualMachines',
    SubscriptionName: 'Production',
    ResourceGroup: 'rg',
    TenantId: '1',
    TenantName: 'Contoso',
    LastRead: '2026-11-23T10:00:00.000Z',
    Automated: 0,
    ActiveHoursStart: 8,
    ActiveHoursEnd: 18,
    ...overrides,
  };
}
