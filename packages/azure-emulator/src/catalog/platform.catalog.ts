// Managed disk tiers, public IP, App Service plan and SQL Database SKUs with their East US list
// prices, as Azure publishes them (regions scale them like compute). The Retail Prices API and the
// bill both read them from here, so a price the API serves is the price the bill charges.

export type DiskSkuName = 'Premium_LRS' | 'StandardSSD_LRS' | 'Standard_LRS';

export interface DiskTier {
  /** P10, E10, S10. */
  readonly name: string;
  readonly sizeGiB: number;
  readonly monthlyPrice: number;
}

interface DiskProduct {
  readonly productName: string;
  readonly letter: 'P' | 'E' | 'S';
  readonly tiers: readonly DiskTier[];
}

function defineTiers(letter: string, entries: readonly (readonly [number, number, number])[]): DiskTier[] {
  return entries.map(([number, sizeGiB, monthlyPrice]) => ({
    name: `${letter}${number}`,
    sizeGiB,
    monthlyPrice,
  }));
}

export const diskProducts: Readonly<Record<DiskSkuName, DiskProduct>> = {
  Premium_LRS: {
    productName: 'Premium SSD Managed Disks',
    letter: 'P',
    tiers: defineTiers('P', [
      [1, 4, 0.77],
      [2, 8, 1.54],
      [3, 16, 3.08],
      [4, 32, 5.28],
      [6, 64, 10.21],
      [10, 128, 19.71],
      [15, 256, 38.01],
      [20, 512, 73.22],
      [30, 1024, 135.17],
      [40, 2048, 259.05],
      [50, 4096, 495.57],
    ]),
  },
  StandardSSD_LRS: {
    productName: 'Standard SSD Managed Disks',
    letter: 'E',
    tiers: defineTiers('E', [
      [1, 4, 0.3],
      [2, 8, 0.6],
      [3, 16, 1.2],
      [4, 32, 2.4],
      [6, 64, 4.8],
      [10, 128, 9.6],
      [15, 256, 19.2],
      [20, 512, 38.4],
      [30, 1024, 76.8],
      [40, 2048, 153.6],
      [50, 4096, 307.2],
    ]),
  },
  Standard_LRS: {
    productName: 'Standard HDD Managed Disks',
    letter: 'S',
    tiers: defineTiers('S', [
      [4, 32, 1.54],
      [6, 64, 3.01],
      [10, 128, 5.89],
      [15, 256, 11.33],
      [20, 512, 21.76],
      [30, 1024, 40.96],
      [40, 2048, 77.83],
      [50, 4096, 143.36],
    ]),
  },
};

export const diskSkuNames = Object.keys(diskProducts) as DiskSkuName[];

export function isDiskSkuName(name: string): name is DiskSkuName {
  return Object.hasOwn(diskProducts, name);
}

/** The tier Azure bills a disk of this size at: the smallest that holds it. */
export function findDiskTier(skuName: DiskSkuName, sizeGiB: number): DiskTier {
  const tiers = diskProducts[skuName].tiers;
  const tier = tiers.find((candidate) => candidate.sizeGiB >= sizeGiB) ?? tiers[tiers.length - 1];
  if (!tier) throw new Error(`No tier of ${skuName}`);
  return tier;
}

/** An incremental snapshot (Standard HDD storage), a GiB used a month. */
export const snapshotGiBMonthlyPrice = 0.05;

export type PublicIpSkuName = 'Standard' | 'Basic';

export const publicIpHourlyPrices: Readonly<Record<PublicIpSkuName, number>> = {
  Standard: 0.005,
  Basic: 0.0036,
};

export interface AppServicePlanSize {
  readonly name: string;
  readonly tier: string;
  readonly size: string;
  readonly family: string;
  readonly vcpusPerWorker: number;
  readonly memoryGiBPerWorker: number;
  /** Product name without the OS suffix: `Azure App Service Premium v3 Plan`. */
  readonly productName: string;
  /** `P1 v3`, as the Retail Prices API spells the SKU. */
  readonly retailSkuName: string;
  readonly linuxHourlyPrice: number;
  readonly windowsHourlyPrice: number;
}

function definePlanSize(
  name: string,
  tier: string,
  family: string,
  vcpus: number,
  memoryGiB: number,
  productName: string,
  prices: readonly [linux: number, windows: number],
): AppServicePlanSize {
  const version = /v(\d)$/.exec(name);
  return {
    name,
    tier,
    size: name,
    family,
    vcpusPerWorker: vcpus,
    memoryGiBPerWorker: memoryGiB,
    productName,
    retailSkuName: version ? `${name.slice(0, version.index)} v${version[1] ?? ''}` : name,
    linuxHourlyPrice: prices[0],
    windowsHourlyPrice: prices[1],
  };
}

const basicPlan = 'Azure App Service Basic Plan';
const standardPlan = 'Azure App Service Standard Plan';
const premiumV2Plan = 'Azure App Service Premium v2 Plan';
const premiumV3Plan = 'Azure App Service Premium v3 Plan';

export const appServicePlanSizes: readonly AppServicePlanSize[] = [
  definePlanSize('B1', 'Basic', 'B', 1, 1.75, basicPlan, [0.018, 0.075]),
  definePlanSize('B2', 'Basic', 'B', 2, 3.5, basicPlan, [0.035, 0.15]),
  definePlanSize('B3', 'Basic', 'B', 4, 7, basicPlan, [0.071, 0.3]),
  definePlanSize('S1', 'Standard', 'S', 1, 1.75, standardPlan, [0.095, 0.1]),
  definePlanSize('S2', 'Standard', 'S', 2, 3.5, standardPlan, [0.19, 0.2]),
  definePlanSize('S3', 'Standard', 'S', 4, 7, standardPlan, [0.38, 0.4]),
  definePlanSize('P1v2', 'PremiumV2', 'Pv2', 1, 3.5, premiumV2Plan, [0.146, 0.2]),
  definePlanSize('P2v2', 'PremiumV2', 'Pv2', 2, 7, premiumV2Plan, [0.292, 0.4]),
  definePlanSize('P3v2', 'PremiumV2', 'Pv2', 4, 14, premiumV2Plan, [0.584, 0.8]),
  definePlanSize('P0v3', 'PremiumV3', 'Pv3', 1, 4, premiumV3Plan, [0.077, 0.112]),
  definePlanSize('P1v3', 'PremiumV3', 'Pv3', 2, 8, premiumV3Plan, [0.155, 0.225]),
  definePlanSize('P2v3', 'PremiumV3', 'Pv3', 4, 16, premiumV3Plan, [0.31, 0.45]),
  definePlanSize('P3v3', 'PremiumV3', 'Pv3', 8, 32, premiumV3Plan, [0.62, 0.9]),
];

export function findAppServicePlanSize(name: string): AppServicePlanSize | undefined {
  const wanted = name.toLowerCase();
  return appServicePlanSizes.find((size) => size.name.toLowerCase() === wanted);
}

export interface DatabaseObjective {
  /** The service objective: `S3`, `GP_Gen5_4`. */
  readonly name: string;
  /** sku.name as Resource Manager writes it: `Standard`, `GP_Gen5`. */
  readonly skuName: string;
  readonly tier: 'Basic' | 'Standard' | 'Premium' | 'GeneralPurpose' | 'BusinessCritical';
  readonly family: string | undefined;
  /** DTUs, or vCores. */
  readonly capacity: number;
  readonly maxSizeBytes: number;
  /** DTU objectives are priced by the day, vCore ones by the vCore-hour. */
  readonly dailyPrice?: number;
  readonly vcoreHourlyPrice?: number;
}

const gibibyte = 1024 ** 3;

function defineDtuObjective(
  name: string,
  tier: 'Basic' | 'Standard' | 'Premium',
  dtus: number,
  maxSizeGiB: number,
  dailyPrice: number,
): DatabaseObjective {
  return {
    name,
    skuName: tier,
    tier,
    family: undefined,
    capacity: dtus,
    maxSizeBytes: maxSizeGiB * gibibyte,
    dailyPrice,
  };
}

function defineVcoreObjective(
  prefix: 'GP' | 'BC',
  vcores: number,
  vcoreHourlyPrice: number,
): DatabaseObjective {
  return {
    name: `${prefix}_Gen5_${vcores}`,
    skuName: `${prefix}_Gen5`,
    tier: prefix === 'GP' ? 'GeneralPurpose' : 'BusinessCritical',
    family: 'Gen5',
    capacity: vcores,
    maxSizeBytes: Math.min(4096, 1024 + vcores * 128) * gibibyte,
    vcoreHourlyPrice,
  };
}

export const databaseObjectives: readonly DatabaseObjective[] = [
  defineDtuObjective('Basic', 'Basic', 5, 2, 0.1613),
  defineDtuObjective('S0', 'Standard', 10, 250, 0.4839),
  defineDtuObjective('S1', 'Standard', 20, 250, 0.9677),
  defineDtuObjective('S2', 'Standard', 50, 250, 2.4194),
  defineDtuObjective('S3', 'Standard', 100, 1024, 4.8387),
  defineDtuObjective('S4', 'Standard', 200, 1024, 9.6774),
  defineDtuObjective('S6', 'Standard', 400, 1024, 19.3548),
  defineDtuObjective('S7', 'Standard', 800, 1024, 38.7097),
  defineDtuObjective('S9', 'Standard', 1600, 1024, 77.4194),
  defineDtuObjective('S12', 'Standard', 3000, 1024, 145.1613),
  defineDtuObjective('P1', 'Premium', 125, 1024, 14.9032),
  defineDtuObjective('P2', 'Premium', 250, 1024, 29.8065),
  defineDtuObjective('P4', 'Premium', 500, 1024, 59.6129),
  defineDtuObjective('P6', 'Premium', 1000, 1024, 119.2258),
  defineDtuObjective('P11', 'Premium', 1750, 4096, 225.1452),
  defineDtuObjective('P15', 'Premium', 4000, 4096, 514.5161),
  ...[2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 24, 32, 40, 80].map((vcores) =>
    defineVcoreObjective('GP', vcores, 0.2522),
  ),
  ...[2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 24, 32, 40, 80].map((vcores) =>
    defineVcoreObjective('BC', vcores, 0.6808),
  ),
];

export function findDatabaseObjective(name: string): DatabaseObjective | undefined {
  const wanted = name.toLowerCase();
  return databaseObjectives.find((objective) => objective.name.toLowerCase() === wanted);
}

/** A database's list price an hour at this objective (a DTU objective's day over 24 hours). */
export function computeDatabaseHourlyPrice(objective: DatabaseObjective): number {
  if (objective.vcoreHourlyPrice !== undefined) return objective.vcoreHourlyPrice * objective.capacity;
  return (objective.dailyPrice ?? 0) / 24;
}

/** The objective a PATCH of `sku` asks for: by name (`S1`, `GP_Gen5_2`) or by name and capacity. */
export function resolveDatabaseObjective(
  skuName: string,
  capacity: number | undefined,
): DatabaseObjective | undefined {
  const byName = findDatabaseObjective(skuName);
  if (byName && (capacity === undefined || byName.capacity === capacity)) return byName;
  if (capacity === undefined) return undefined;
  const wanted = skuName.toLowerCase();
  return databaseObjectives.find(
    (objective) =>
      objective.family !== undefined &&
      objective.skuName.toLowerCase() === wanted &&
      objective.capacity === capacity,
  );
}
