// Resource Manager reads: a principal's subscriptions, a subscription's resources (its virtual
// machines with size, power state and what a new size must still carry), and one VM read back.
// Read as JSON through the clients' pipelines rather than their model deserializers, which took
// 300–600 ms of event-loop time per 1,000-machine page and froze every API call meanwhile.
import { createPipelineRequest } from '@azure/core-rest-pipeline';
import type {
  CloudResource,
  CloudSubscription,
  CloudVirtualMachineState,
  CloudVmRequirements,
} from '../cloud-provider';
import { readArmPages, readPowerState, readResourceGroup, type ArmPipelineClient } from './azure-arm';
import { readArmError } from './azure-errors';
import type { DiskItem, VirtualMachineItem as SecurityVirtualMachineItem } from '../arm-records';
import { readResourceFacts, type DetailedItem, type ResourceFacts } from './azure-resource-details';

const subscriptionsApiVersion = '2022-12-01';
const resourcesApiVersion = '2021-04-01';
const computeApiVersion = '2024-07-01';
const virtualMachineType = 'microsoft.compute/virtualmachines';

export interface SubscriptionItem {
  subscriptionId?: string;
  displayName?: string;
  state?: string;
}

export interface GenericResourceItem {
  id?: string;
  name?: string;
  type?: string;
  location?: string;
  sku?: { name?: string };
  tags?: Record<string, unknown>;
}

export interface VirtualMachineItem {
  id?: string;
  tags?: Record<string, unknown>;
  properties?: VirtualMachineModel & {
    securityProfile?: NonNullable<SecurityVirtualMachineItem['properties']>['securityProfile'];
    hardwareProfile?: { vmSize?: string };
    provisioningState?: string;
    instanceView?: { statuses?: { code?: string }[] };
  };
}

// The parts of a VM's model (GET or list, api-version 2024-07-01) that sizing must respect.
export interface VirtualMachineModel {
  storageProfile?: {
    osDisk?: {
      osType?: string;
      name?: string;
      vhd?: { uri?: string };
      managedDisk?: { id?: string; storageAccountType?: string };
    };
    dataDisks?: { managedDisk?: { storageAccountType?: string } }[];
  };
  networkProfile?: {
    networkInterfaces?: unknown[];
    // VMs created with networkApiVersion describe their NICs inline, accelerated networking included.
    networkInterfaceConfigurations?: { properties?: { enableAcceleratedNetworking?: boolean } }[];
  };
}

export async function readSubscriptions(
  client: ArmPipelineClient,
  resourceManagerUrl: string,
  abortSignal: AbortSignal,
): Promise<CloudSubscription[]> {
  const subscriptions: CloudSubscription[] = [];
  const firstUrl = `${resourceManagerUrl}/subscriptions?api-version=${subscriptionsApiVersion}`;
  await readArmPages<SubscriptionItem>(client, firstUrl, abortSignal, (page) => {
    subscriptions.push(...toCloudSubscriptions(page));
  });
  return subscriptions;
}

// The generic resource list and the VM list (statusOnly: power state and size without the full
// instance view) are read side by side and joined by id; then the lists of the disks, public IPs,
// plans and databases the generic list found, for what it does not say of them.
export async function readResources(
  client: ArmPipelineClient,
  resourceManagerUrl: string,
  subscriptionId: string,
  abortSignal: AbortSignal,
): Promise<CloudResource[]> {
  const subscriptionUrl = `${resourceManagerUrl}/subscriptions/${encodeURIComponent(subscriptionId)}`;
  const genericResources: GenericResourceItem[] = [];
  const machines: VirtualMachineItem[] = [];
  await Promise.all([
    readArmPages<GenericResourceItem>(
      client,
      `${subscriptionUrl}/resources?api-version=${resourcesApiVersion}`,
      abortSignal,
      (page) => genericResources.push(...page),
    ),
    readArmPages<VirtualMachineItem>(
      client,
      `${subscriptionUrl}/providers/Microsoft.Compute/virtualMachines?api-version=${computeApiVersion}&statusOnly=true`,
      abortSignal,
      (page) => machines.push(...page),
    ),
  ]);
  const disks = new Map<string, DetailedItem>();
  const facts = await readResourceFacts(
    client,
    resourceManagerUrl,
    subscriptionId,
    genericResources,
    abortSignal,
    disks,
  );
  return toCloudResources(genericResources, machines, facts, disks);
}

export async function readVirtualMachine(
  client: ArmPipelineClient,
  resourceManagerUrl: string,
  resourceId: string,
  abortSignal: AbortSignal,
): Promise<CloudVirtualMachineState> {
  const url = `${resourceManagerUrl}${resourceId}?api-version=${computeApiVersion}&$expand=instanceView`;
  const response = await client.sendRequest(createPipelineRequest({ url, method: 'GET', abortSignal }));
  if (response.status !== 200) throw readArmError(response.status, response.bodyAsText ?? undefined);
  return toVirtualMachineState(response.bodyAsText ?? undefined);
}

// An item without an id names nothing Cloudtrim could connect, so it is left out.
export function toCloudSubscriptions(items: readonly SubscriptionItem[]): CloudSubscription[] {
  const subscriptions: CloudSubscription[] = [];
  for (const item of items) {
    if (!item.subscriptionId) continue;
    subscriptions.push({
      subscriptionId: item.subscriptionId.toLowerCase(),
      displayName: item.displayName ?? item.subscriptionId,
      state: item.state ?? 'Enabled',
    });
  }
  return subscriptions;
}

export function toCloudResources(
  genericResources: readonly GenericResourceItem[],
  machines: readonly VirtualMachineItem[],
  facts: ReadonlyMap<string, ResourceFacts> = new Map(),
  disks: ReadonlyMap<string, DetailedItem> = new Map(),
): CloudResource[] {
  const machinesById = new Map(machines.map((machine) => [machine.id?.toLowerCase(), machine]));
  const resources: CloudResource[] = [];
  for (const resource of genericResources) {
    if (!resource.id || !resource.type) continue;
    const isVirtualMachine = resource.type.toLowerCase() === virtualMachineType;
    const machine = isVirtualMachine ? machinesById.get(resource.id.toLowerCase()) : undefined;
    const resourceFacts = facts.get(resource.id.toLowerCase());
    const disk = disks.get(resource.id.toLowerCase());
    resources.push({
      id: resource.id,
      name: resource.name ?? resource.id.split('/').at(-1) ?? resource.id,
      type: resource.type,
      resourceGroup: readResourceGroup(resource.id),
      region: (resource.location ?? '').toLowerCase(),
      sku: machine?.properties?.hardwareProfile?.vmSize ?? resourceFacts?.sku ?? resource.sku?.name ?? null,
      powerState: isVirtualMachine ? readPowerState(machine?.properties?.instanceView?.statuses) : null,
      tags: readTags(resource.tags),
      ...(isVirtualMachine ? { vmRequirements: readVmRequirements(machine?.properties) } : {}),
      ...(resourceFacts ? { details: resourceFacts.details } : {}),
      ...(machine ? { armRecord: toMachineRecord(resource, machine) } : {}),
      ...(disk ? { armRecord: toDiskRecord(resource, disk) } : {}),
    });
  }
  return resources;
}

// What the security checks judge of a VM and of a disk, from the lists the sync read anyway.
function toMachineRecord(
  resource: GenericResourceItem,
  machine: VirtualMachineItem,
): SecurityVirtualMachineItem {
  const osDisk = machine.properties?.storageProfile?.osDisk;
  return {
    id: machine.id ?? resource.id,
    name: resource.name,
    type: resource.type,
    location: resource.location,
    tags: readTags(resource.tags),
    properties: {
      securityProfile: machine.properties?.securityProfile,
      storageProfile: {
        osDisk: osDisk && {
          name: osDisk.name,
          vhd: osDisk.vhd,
          managedDisk: osDisk.managedDisk && { id: osDisk.managedDisk.id },
        },
      },
    },
  };
}

function toDiskRecord(resource: GenericResourceItem, disk: DetailedItem): DiskItem {
  return {
    id: disk.id ?? resource.id,
    name: disk.name ?? resource.name,
    type: resource.type,
    location: disk.location ?? resource.location,
    tags: readTags(disk.tags ?? resource.tags),
    ...(disk.managedBy ? { managedBy: disk.managedBy } : {}),
    properties: { diskState: disk.properties?.diskState, encryption: disk.properties?.encryption },
  };
}

// Tag values are text in ARM; anything else a caller wrote is kept as its text.
function readTags(tags: Record<string, unknown> | undefined): Record<string, string> {
  return Object.fromEntries(Object.entries(tags ?? {}).map(([key, value]) => [key, String(value ?? '')]));
}

export function toVirtualMachineState(body: string | undefined): CloudVirtualMachineState {
  const machine = JSON.parse(body ?? '{}') as VirtualMachineItem;
  return {
    size: machine.properties?.hardwareProfile?.vmSize ?? null,
    powerState: readPowerState(machine.properties?.instanceView?.statuses ?? []),
    provisioningState: machine.properties?.provisioningState ?? null,
    ...(machine.tags ? { tags: readTags(machine.tags) } : {}),
  };
}

export function readVmRequirements(model: VirtualMachineModel | undefined): CloudVmRequirements {
  const osDisk = model?.storageProfile?.osDisk;
  const dataDisks = model?.storageProfile?.dataDisks;
  const interfaces = model?.networkProfile?.networkInterfaces;
  const configurations = model?.networkProfile?.networkInterfaceConfigurations;
  const osType = osDisk?.osType?.toLowerCase();
  const diskTypes = [
    osDisk?.managedDisk?.storageAccountType,
    ...(dataDisks ?? []).map((disk) => disk.managedDisk?.storageAccountType),
  ];
  const isDiskTypeKnown = diskTypes.some((type) => type !== undefined);
  const nicCount = Math.max(interfaces?.length ?? 0, configurations?.length ?? 0);
  return {
    osType: osType === 'windows' ? 'Windows' : osType === 'linux' ? 'Linux' : null,
    dataDiskCount: dataDisks ? dataDisks.length : null,
    nicCount: interfaces || configurations ? nicCount : null,
    // Premium SSD v1 and v2 and Ultra disks all need a size with premium storage.
    hasPremiumDisk: isDiskTypeKnown
      ? diskTypes.some((type) => type !== undefined && /^(premium|ultra)/i.test(type))
      : null,
    hasAcceleratedNetworking: configurations
      ? configurations.some((configuration) => configuration.properties?.enableAcceleratedNetworking === true)
      : null,
  };
}
