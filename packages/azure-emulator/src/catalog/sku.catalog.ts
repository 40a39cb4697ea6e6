// The virtual machine sizes and regions the emulator offers. Figures follow the published Azure
// specifications of each size; the region gaps are deliberate so callers meet "not offered here".

export interface RegionDefinition {
  readonly name: string;
  readonly displayName: string;
  readonly shortName: string;
  /** Offset of local business time from UTC, used by business-hours workloads. */
  readonly utcOffsetHours: number;
  /** List price multiplier relative to East US. */
  readonly priceMultiplier: number;
}

export interface VirtualMachineSize {
  readonly name: string;
  readonly family: string;
  readonly series: SizeSeries;
  readonly size: string;
  readonly vcpus: number;
  readonly memoryGiB: number;
  readonly maxDataDisks: number;
  readonly uncachedDiskIops: number;
  readonly maxNetworkInterfaces: number;
  readonly isPremiumIoSupported: boolean;
  readonly isAcceleratedNetworkingEnabled: boolean;
  readonly resourceDiskSizeInMb: number;
}

export type SizeSeries = 'B' | 'Dsv5' | 'Esv5' | 'Fsv2';

export const regions: readonly RegionDefinition[] = [
  { name: 'eastus', displayName: 'East US', shortName: 'eus', utcOffsetHours: -5, priceMultiplier: 1 },
  { name: 'westus2', displayName: 'West US 2', shortName: 'wus2', utcOffsetHours: -8, priceMultiplier: 1 },
  {
    name: 'westeurope',
    displayName: 'West Europe',
    shortName: 'weu',
    utcOffsetHours: 1,
    priceMultiplier: 1.11,
  },
  {
    name: 'northeurope',
    displayName: 'North Europe',
    shortName: 'neu',
    utcOffsetHours: 0,
    priceMultiplier: 1.07,
  },
];

interface SizeSpecification {
  readonly suffix: string;
  readonly vcpus: number;
  readonly memoryGiB: number;
  readonly maxDataDisks: number;
  readonly uncachedDiskIops: number;
  readonly maxNetworkInterfaces: number;
  readonly resourceDiskSizeInMb: number;
}

function defineSeries(
  series: SizeSeries,
  family: string,
  nameOf: (suffix: string) => string,
  specifications: readonly SizeSpecification[],
  isAcceleratedNetworkingEnabled: (vcpus: number) => boolean,
): VirtualMachineSize[] {
  return specifications.map((specification) => {
    const size = nameOf(specification.suffix);
    return {
      name: `Standard_${size}`,
      family,
      series,
      size,
      vcpus: specification.vcpus,
      memoryGiB: specification.memoryGiB,
      maxDataDisks: specification.maxDataDisks,
      uncachedDiskIops: specification.uncachedDiskIops,
      maxNetworkInterfaces: specification.maxNetworkInterfaces,
      isPremiumIoSupported: true,
      isAcceleratedNetworkingEnabled: isAcceleratedNetworkingEnabled(specification.vcpus),
      resourceDiskSizeInMb: specification.resourceDiskSizeInMb,
    };
  });
}

function specify(
  suffix: string,
  vcpus: number,
  memoryGiB: number,
  maxDataDisks: number,
  uncachedDiskIops: number,
  maxNetworkInterfaces: number,
  resourceDiskSizeInMb = 0,
): SizeSpecification {
  return {
    suffix,
    vcpus,
    memoryGiB,
    maxDataDisks,
    uncachedDiskIops,
    maxNetworkInterfaces,
    resourceDiskSizeInMb,
  };
}

export const virtualMachineSizes: readonly VirtualMachineSize[] = [
  ...defineSeries(
    'B',
    'standardBSFamily',
    (suffix) => `B${suffix}`,
    [
      specify('1s', 1, 1, 2, 320, 2, 4096),
      specify('1ms', 1, 2, 2, 640, 2, 4096),
      specify('2s', 2, 4, 4, 1280, 3, 8192),
      specify('2ms', 2, 8, 4, 1920, 3, 16384),
      specify('4ms', 4, 16, 8, 2880, 4, 32768),
      specify('8ms', 8, 32, 16, 4320, 4, 65536),
      specify('12ms', 12, 48, 16, 6480, 6, 98304),
      specify('16ms', 16, 64, 32, 8640, 8, 131072),
      specify('20ms', 20, 80, 32, 10800, 8, 163840),
    ],
    (vcpus) => vcpus >= 4,
  ),
  ...defineSeries(
    'Dsv5',
    'standardDSv5Family',
    (suffix) => `D${suffix}s_v5`,
    [
      specify('2', 2, 8, 4, 3750, 2),
      specify('4', 4, 16, 8, 6400, 2),
      specify('8', 8, 32, 16, 12800, 4),
      specify('16', 16, 64, 32, 25600, 8),
      specify('32', 32, 128, 32, 51200, 8),
      specify('48', 48, 192, 32, 76800, 8),
      specify('64', 64, 256, 32, 80000, 8),
    ],
    () => true,
  ),
  ...defineSeries(
    'Esv5',
    'standardESv5Family',
    (suffix) => `E${suffix}s_v5`,
    [
      specify('2', 2, 16, 4, 3750, 2),
      specify('4', 4, 32, 8, 6400, 2),
      specify('8', 8, 64, 16, 12800, 4),
      specify('16', 16, 128, 32, 25600, 8),
      specify('20', 20, 160, 32, 32000, 8),
      specify('32', 32, 256, 32, 51200, 8),
      specify('48', 48, 384, 32, 76800, 8),
    ],
    () => true,
  ),
  ...defineSeries(
    'Fsv2',
    'standardFSv2Family',
    (suffix) => `F${suffix}s_v2`,
    [
      specify('2', 2, 4, 4, 3200, 2, 16384),
      specify('4', 4, 8, 8, 6400, 2, 32768),
      specify('8', 8, 16, 16, 12800, 4, 65536),
      specify('16', 16, 32, 32, 25600, 4, 131072),
      specify('32', 32, 64, 32, 51200, 8, 262144),
      specify('48', 48, 96, 32, 76800, 8, 393216),
      specify('64', 64, 128, 32, 80000, 8, 524288),
    ],
    () => true,
  ),
];

// Sizes a region does not offer, the way capacity differs between real Azure regions.
const unavailableSizesByRegion: Readonly<Record<string, readonly string[]>> = {
  eastus: [],
  westus2: ['Standard_B20ms', 'Standard_E48s_v5'],
  westeurope: ['Standard_F64s_v2', 'Standard_E20s_v5', 'Standard_B12ms'],
  northeurope: [
    'Standard_D64s_v5',
    'Standard_F48s_v2',
    'Standard_F64s_v2',
    'Standard_B16ms',
    'Standard_B20ms',
  ],
};

const sizesByLowerName = new Map(virtualMachineSizes.map((size) => [size.name.toLowerCase(), size]));
const regionsByName = new Map(regions.map((region) => [region.name, region]));

export function findVirtualMachineSize(name: string): VirtualMachineSize | undefined {
  return sizesByLowerName.get(name.toLowerCase());
}

export function findRegion(name: string): RegionDefinition | undefined {
  return regionsByName.get(name.toLowerCase().replace(/\s+/g, ''));
}

export function isSizeOfferedInRegion(sizeName: string, regionName: string): boolean {
  const size = findVirtualMachineSize(sizeName);
  const unavailable = unavailableSizesByRegion[regionName];
  if (!size || !unavailable) return false;
  return !unavailable.includes(size.name);
}

export function listSizesOfferedInRegion(regionName: string): VirtualMachineSize[] {
  return virtualMachineSizes.filter((size) => isSizeOfferedInRegion(size.name, regionName));
}
