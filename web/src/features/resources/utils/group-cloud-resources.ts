import { defaultGroupText, unknownTenantText } from '@cloudtrim/contracts/messages';
import { getLastPathSegment, type CloudResource } from '@cloudtrim/contracts/resources';

export type CloudResourceRow =
  | { kind: 'divider'; key: string; tenantName: string; resourceGroup: string }
  | { kind: 'resource'; key: string; resource: CloudResource };

const collator = new Intl.Collator('en', { sensitivity: 'base', numeric: true });

export function getTenantLabel(resource: CloudResource): string {
  return resource.TenantName || unknownTenantText;
}

export function getResourceGroupLabel(resource: CloudResource): string {
  return resource.ResourceGroup || defaultGroupText;
}

// A missing tenant or group sorts after the named ones, so 'Unknown Tenant' and 'Default Group' close the list.
function compareOptionalText(left: string | null, right: string | null): number {
  if (!left || !right) return Number(!left) - Number(!right);
  return collator.compare(left, right);
}

function compareCloudResources(left: CloudResource, right: CloudResource): number {
  return (
    compareOptionalText(left.TenantName, right.TenantName) ||
    compareOptionalText(left.TenantId, right.TenantId) ||
    compareOptionalText(left.ResourceGroup, right.ResourceGroup) ||
    collator.compare(getLastPathSegment(left.ResourceId), getLastPathSegment(right.ResourceId)) ||
    collator.compare(left.ResourceId, right.ResourceId)
  );
}

/**
 * SPEC §2: by tenant, then resource group; by name within a group so the order never shifts. The
 * server already answers in this order, so one pass usually confirms it: sorting 10,000 rows with
 * the collator again costs more than painting the first page.
 */
export function sortCloudResources(resources: readonly CloudResource[]): readonly CloudResource[] {
  for (let index = 1; index < resources.length; index += 1) {
    if (compareCloudResources(resources[index - 1]!, resources[index]!) > 0) {
      return [...resources].sort(compareCloudResources);
    }
  }
  return resources;
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
