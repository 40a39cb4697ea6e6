// Azure bills a managed disk as the smallest tier of its type that holds its size. The tiers and
// their sizes are Azure's published ones:
// https://learn.microsoft.com/en-us/azure/virtual-machines/disks-types and
// https://azure.microsoft.com/en-us/pricing/details/managed-disks/
export type DiskType = 'premium' | 'standardSsd' | 'standardHdd';

export interface DiskTier {
  name: string;
  sizeGb: number;
}

const tierSizesGb: Record<string, number> = {
  '1': 4,
  '2': 8,
  '3': 16,
  '4': 32,
  '6': 64,
  '10': 128,
  '15': 256,
  '20': 512,
  '30': 1024,
  '40': 2048,
  '50': 4096,
  '60': 8192,
  '70': 16384,
  '80': 32767,
};

function listTiers(prefix: string, numbers: readonly string[]): readonly DiskTier[] {
  return numbers.map((number) => ({ name: `${prefix}${number}`, sizeGb: tierSizesGb[number]! }));
}

const allNumbers = ['1', '2', '3', '4', '6', '10', '15', '20', '30', '40', '50', '60', '70', '80'];

// Standard HDD starts at S4 (32 GiB): Azure publishes no S1–S3.
export const diskTiers: Readonly<Record<DiskType, readonly DiskTier[]>> = {
  premium: listTiers('P', allNumbers),
  standardSsd: listTiers('E', allNumbers),
  standardHdd: listTiers('S', allNumbers.slice(3)),
};

// Azure's disk sku.name → the tier family it is billed by. Premium SSD v2 and Ultra disks are billed
// by provisioned GiB, IOPS and throughput rather than by tier, so they have none.
const typeBySkuName: Record<string, DiskType> = {
  Premium_LRS: 'premium',
  Premium_ZRS: 'premium',
  StandardSSD_LRS: 'standardSsd',
  StandardSSD_ZRS: 'standardSsd',
  Standard_LRS: 'standardHdd',
};

export function diskTypeOf(skuName: string): DiskType | undefined {
  return typeBySkuName[skuName];
}

// The redundancy the Retail Prices API names in a disk meter ('P10 LRS'): the part after '_'.
export function redundancyOf(skuName: string): 'LRS' | 'ZRS' | undefined {
  const redundancy = skuName.split('_')[1];
  return redundancy === 'LRS' || redundancy === 'ZRS' ? redundancy : undefined;
}

// The tier a disk of this SKU and size is billed as ('Premium_LRS', 100 → 'P10'); undefined for a
// SKU without tiers or a size beyond the largest tier.
export function tierFor(skuName: string, sizeGb: number): string | undefined {
  const type = diskTypeOf(skuName);
  if (type === undefined) return undefined;
  return diskTiers[type].find((tier) => tier.sizeGb >= sizeGb)?.name;
}
