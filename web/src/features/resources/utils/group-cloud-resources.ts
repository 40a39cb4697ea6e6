import { defaultGroupText, unknownTenantText } from '@cloudtrim/contracts/messages';
import type { CloudResource } from '@cloudtrim/contracts/resources';
import { compareOptionalText } from './sort-cloud-resources';

export type CloudResourceRow =
  | { kind: 'divider'; key: string; tenantName: string; resourceGroup: string }
  | { kind: 'resource'; key: string; resource: CloudResource };

export function getTenantLabel(resource: CloudResource): string {
  return resource.TenantName || unknownTenantText;
}

export function getResourceGroupLabel(resource: CloudResource): string {
  return resource.ResourceGroup || defaultGroupText;
}

function isSameGroup(left: CloudResource, right: CloudResource): boolean {
  // Azure resource group names are case-insensitive.
  return (
    left.TenantId === right.TenantId &&
    left.TenantName === right.TenantName &&
    compareOptionalText(left.ResourceGroup, right.ResourceGroup) === 0
  );
}

/** The rows of one page: a divider before the first resource and wherever the tenant or group changes. */
export function createCloudResourceRows(resources: readonly CloudResource[]): CloudResourceRow[] {
  const rows: CloudResourceRow[] = [];
  let previous: CloudResource | undefined;
  for (const resource of resources) {
    if (!previous || !isSameGroup(previous, resource)) {
      rows.push({
        kind: 'divider',
        key: `divider:${resource.ResourceId}`,
        tenantName: getTenantLabel(resource),
        resourceGroup: getResourceGroupLabel(resource),
      });
    }
    rows.push({ kind: 'resource', key: resource.ResourceId, resource });
    previous = resource;
  }
  return rows;
}
