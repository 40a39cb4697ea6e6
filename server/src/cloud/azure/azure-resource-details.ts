// What the generic resource list does not say of a managed disk, a public IP, an App Service plan or a
// SQL database, read from the type's own list (per subscription; a database's per server) and from
// one resource's GET, in the CloudResource's terms: details with camelCase keys (absent when Azure
// does not say), and the SKU as Cloudtrim names it (a database's service objective, 'S3').
import { createPipelineRequest } from '@azure/core-rest-pipeline';
import type { CloudResourceState } from '../cloud-provider';
import { readArmPages, type ArmPipelineClient } from './azure-arm';
import { readArmError } from './azure-errors';

// The api-version of each type, as Azure documents its shapes (waste-contract's ARM shapes).
export const detailedTypes = {
  'microsoft.compute/disks': '2024-03-02',
  'microsoft.compute/snapshots': '2024-03-02',
  'microsoft.network/publicipaddresses': '2024-05-01',
  'microsoft.web/serverfarms': '2023-12-01',
  'microsoft.sql/servers/databases': '2023-08-01',
} as const;

type DetailedType = keyof typeof detailedTypes;

export interface DetailedItem {
  id?: string;
  name?: string;
  location?: string;
  tags?: Record<string, unknown>;
  type?: string;
  kind?: string;
  managedBy?: string | null;
  sku?: { name?: string; tier?: string; capacity?: number; family?: string };
  properties?: {
    provisioningState?: string;
    // Disks
    diskState?: string;
    diskSizeGB?: number;
    tier?: string;
    osType?: string;
    LastOwnershipUpdateTime?: string;
    encryption?: { type?: string; diskEncryptionSetId?: string };
    // Snapshots
    completionPercent?: number;
    // Public IPs
    ipAddress?: string;
    publicIPAllocationMethod?: string;
    ipConfiguration?: { id?: string } | null;
    natGateway?: { id?: string } | null;
    // Plans
    numberOfSites?: number;
    // Databases
    maxSizeBytes?: number;
    currentServiceObjectiveName?: string;
    status?: string;
  };
}

// A resource's facts beyond the generic list, by lower-cased ARM id.
export interface ResourceFacts {
  sku: string | null;
  details: Record<string, unknown>;
}

export function apiVersionOf(resourceId: string): string | undefined {
  return detailedTypes[typeOfId(resourceId) as DetailedType];
}

// 'Microsoft.Sql/servers/databases' from '/subscriptions/…/providers/Microsoft.Sql/servers/s/databases/d'.
export function typeOfId(resourceId: string): string {
  const path = resourceId.split(/\/providers\//i).at(-1) ?? '';
  const [namespace, ...segments] = path.split('/');
  const types = segments.filter((_, index) => index % 2 === 0);
  return [namespace, ...types].join('/').toLowerCase();
}

// Lists the facts of the types the generic list found: disks, public IPs and plans by the
// subscription's list of the type, databases by their servers' lists. A type the subscription does
// not hold costs no call. Each disk's item is kept in `disks` too, for the security scan.
export async function readResourceFacts(
  client: ArmPipelineClient,
  resourceManagerUrl: string,
  subscriptionId: string,
  genericItems: readonly { id?: string; type?: string }[],
  abortSignal: AbortSignal,
  disks?: Map<string, DetailedItem>,
): Promise<Map<string, ResourceFacts>> {
  const present = new Set(genericItems.map((item) => item.type?.toLowerCase()));
  const subscriptionUrl = `${resourceManagerUrl}/subscriptions/${encodeURIComponent(subscriptionId)}`;
  const listUrls: string[] = [];
  for (const type of [
    'microsoft.compute/disks',
    'microsoft.network/publicipaddresses',
    'microsoft.web/serverfarms',
  ] as const) {
    if (present.has(type)) {
      listUrls.push(
        `${subscriptionUrl}/providers/${providerPathOf(type)}?api-version=${detailedTypes[type]}`,
      );
    }
  }
  if (present.has('microsoft.sql/servers/databases')) {
    const servers = genericItems.filter(
      (item) => item.id && item.type?.toLowerCase() === 'microsoft.sql/servers',
    );
    for (const server of servers) {
      listUrls.push(
        `${resourceManagerUrl}${server.id}/databases?api-version=${detailedTypes['microsoft.sql/servers/databases']}`,
      );
    }
  }
  const facts = new Map<string, ResourceFacts>();
  await Promise.all(
    listUrls.map((url) =>
      readArmPages<DetailedItem>(client, url, abortSignal, (page) => {
        for (const item of page) {
          if (!item.id) continue;
          facts.set(item.id.toLowerCase(), toResourceFacts(item, item.id));
          if (disks && typeOfId(item.id) === 'microsoft.compute/disks')
            disks.set(item.id.toLowerCase(), item);
        }
      }),
    ),
  );
  return facts;
}

// One resource read back (for the executor); null when Azure no longer has it.
export async function readResourceState(
  client: ArmPipelineClient,
  resourceManagerUrl: string,
  resourceId: string,
  abortSignal: AbortSignal,
): Promise<CloudResourceState | null> {
  const apiVersion = apiVersionOf(resourceId);
  if (!apiVersion) throw new Error(`Cloudtrim does not read resources of type ${typeOfId(resourceId)}.`);
  const url = `${resourceManagerUrl}${resourceId}?api-version=${apiVersion}`;
  const response = await client.sendRequest(createPipelineRequest({ url, method: 'GET', abortSignal }));
  if (response.status === 404) return null;
  if (response.status !== 200) throw readArmError(response.status, response.bodyAsText ?? undefined);
  const item = JSON.parse(response.bodyAsText ?? '{}') as DetailedItem;
  return {
    ...toResourceFacts(item, resourceId),
    provisioningState: item.properties?.provisioningState ?? null,
    ...(item.tags ? { tags: readItemTags(item.tags) } : {}),
  };
}

function readItemTags(tags: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(Object.entries(tags).map(([key, value]) => [key, String(value ?? '')]));
}

export function toResourceFacts(item: DetailedItem, resourceId: string): ResourceFacts {
  const properties = item.properties ?? {};
  const type = typeOfId(resourceId);
  if (type === 'microsoft.compute/disks') {
    return {
      sku: item.sku?.name ?? null,
      details: withoutAbsent({
        diskState: properties.diskState,
        diskSizeGb: properties.diskSizeGB,
        managedBy: item.managedBy ?? undefined,
        tier: properties.tier,
        lastOwnershipUpdateTime: readInstant(properties.LastOwnershipUpdateTime),
        osType: properties.osType,
      }),
    };
  }
  if (type === 'microsoft.compute/snapshots') {
    return {
      sku: item.sku?.name ?? null,
      details: withoutAbsent({ completionPercent: properties.completionPercent }),
    };
  }
  if (type === 'microsoft.network/publicipaddresses') {
    return {
      sku: item.sku?.name ?? null,
      details: withoutAbsent({
        ipAddress: properties.ipAddress,
        allocationMethod: properties.publicIPAllocationMethod,
        ipConfigurationId: properties.ipConfiguration?.id,
        natGatewayId: properties.natGateway?.id,
      }),
    };
  }
  if (type === 'microsoft.web/serverfarms') {
    return {
      sku: item.sku?.name ?? null,
      details: withoutAbsent({
        tier: item.sku?.tier,
        capacity: item.sku?.capacity,
        numberOfSites: properties.numberOfSites,
        kind: item.kind?.toLowerCase(),
      }),
    };
  }
  // A database: its SKU name is the edition ('Standard') or the vCore family ('GP_Gen5'); the
  // objective it runs at ('S3', 'GP_Gen5_2') is what a change names.
  return {
    sku: properties.currentServiceObjectiveName ?? item.sku?.name ?? null,
    details: withoutAbsent({
      tier: item.sku?.tier,
      capacity: item.sku?.capacity,
      family: item.sku?.family,
      maxSizeBytes: properties.maxSizeBytes,
      serverName: /\/servers\/([^/]+)/i.exec(resourceId)?.[1],
    }),
  };
}

function providerPathOf(
  type: 'microsoft.compute/disks' | 'microsoft.network/publicipaddresses' | 'microsoft.web/serverfarms',
): string {
  if (type === 'microsoft.compute/disks') return 'Microsoft.Compute/disks';
  if (type === 'microsoft.network/publicipaddresses') return 'Microsoft.Network/publicIPAddresses';
  return 'Microsoft.Web/serverfarms';
}

// Inventory compares and stores the instant in SQL: a text that is no instant is left out rather
// than failing the sync.
function readInstant(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  const time = Date.parse(text);
  return Number.isFinite(time) ? new Date(time).toISOString() : undefined;
}

function withoutAbsent(values: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(values).filter(([, value]) => value !== undefined && value !== null && value !== ''),
  );
}
