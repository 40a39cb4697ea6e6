// What sizing reads from Azure besides metrics: the Resource SKUs of a region (one entry per VM
// size with its capabilities and the subscription's restrictions) and, from a VM's own model, what
// a new size must still carry (OS, data disks, NICs, premium disks, accelerated networking).
import {
  createPipelineRequest,
  type PipelineRequest,
  type PipelineResponse,
} from '@azure/core-rest-pipeline';
import { setImmediate } from 'node:timers/promises';
import type { CloudVmRequirements, CloudVmSku } from '../cloud-provider';
import { readArmError } from './azure-errors';

const skusApiVersion = '2021-07-01';

interface ResourceSkuItem {
  resourceType?: string;
  name?: string;
  family?: string;
  locations?: string[];
  capabilities?: { name?: string; value?: string }[];
  restrictions?: { type?: string; values?: string[]; reasonCode?: string }[];
}

export async function readVmSkus(
  client: { sendRequest(request: PipelineRequest): Promise<PipelineResponse> },
  resourceManagerUrl: string,
  subscriptionId: string,
  region: string,
  abortSignal: AbortSignal,
): Promise<CloudVmSku[]> {
  const query = new URLSearchParams({
    'api-version': skusApiVersion,
    $filter: `location eq '${region.replaceAll("'", "''")}'`,
  });
  const skus: CloudVmSku[] = [];
  let url: string | undefined =
    `${resourceManagerUrl}/subscriptions/${encodeURIComponent(subscriptionId)}/providers/Microsoft.Compute/skus?${query}`;
  while (url) {
    const response = await client.sendRequest(createPipelineRequest({ url, method: 'GET', abortSignal }));
    if (response.status !== 200) throw readArmError(response.status, response.bodyAsText ?? undefined);
    const page = JSON.parse(response.bodyAsText ?? '{}') as { value?: ResourceSkuItem[]; nextLink?: string };
    for (const item of page.value ?? []) {
      const sku = toVmSku(item, region);
      if (sku) skus.push(sku);
    }
    url = page.nextLink ?? undefined;
    // The unfiltered list of a real subscription runs to megabytes: one page per turn of the loop.
    await setImmediate();
  }
  return skus;
}

function toVmSku(item: ResourceSkuItem, region: string): CloudVmSku | null {
  if (item.resourceType !== 'virtualMachines' || !item.name) return null;
  const regionKey = region.toLowerCase();
  if (!(item.locations ?? []).some((location) => location.toLowerCase() === regionKey)) return null;
  const capabilities = new Map(
    (item.capabilities ?? []).map((capability) => [capability.name ?? '', capability.value ?? '']),
  );
  const vcpus = readNumber(capabilities.get('vCPUs'));
  const memoryGiB = readNumber(capabilities.get('MemoryGB'));
  if (vcpus === null || memoryGiB === null) return null;
  // A 'Location' restriction naming the region means the subscription cannot deploy the size there;
  // a 'Zone' restriction only narrows the zones, the size remains usable.
  const isRestricted = (item.restrictions ?? []).some(
    (restriction) =>
      restriction.type === 'Location' &&
      (restriction.values ?? []).some((value) => value.toLowerCase() === regionKey),
  );
  return {
    name: item.name,
    family: item.family ?? null,
    vcpus,
    memoryGiB,
    maxDataDisks: readNumber(capabilities.get('MaxDataDiskCount')),
    uncachedDiskIops: readNumber(capabilities.get('UncachedDiskIOPS')),
    maxNics: readNumber(capabilities.get('MaxNetworkInterfaces')),
    hasPremiumIo: capabilities.get('PremiumIO')?.toLowerCase() === 'true',
    hasAcceleratedNetworking: capabilities.get('AcceleratedNetworkingEnabled')?.toLowerCase() === 'true',
    isAvailable: !isRestricted,
  };
}

function readNumber(value: string | undefined): number | null {
  if (value === undefined || value.trim() === '') return null;
  const number = Number(value);
  return Number.isFinite(number) ? number : null;
}

// The parts of a VM's model (GET or list, api-version 2024-07-01) that sizing must respect.
export interface VirtualMachineModel {
  storageProfile?: {
    osDisk?: { osType?: string; managedDisk?: { storageAccountType?: string } };
    dataDisks?: { managedDisk?: { storageAccountType?: string } }[];
  };
  networkProfile?: {
    networkInterfaces?: unknown[];
    // VMs created with networkApiVersion describe their NICs inline, accelerated networking included.
    networkInterfaceConfigurations?: { properties?: { enableAcceleratedNetworking?: boolean } }[];
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
