// The Retail Prices API's meters of what is not a VM (managed disks by tier, incremental snapshots,
// public IPs, App Service plans, SQL databases): which to ask for, which to keep, and the
// WastePriceBook the waste finders read, built from them.
import {
  findDatabaseObjective,
  type DatabaseObjective,
} from '@cloudtrim/rightsizing/waste/database-objectives';
import { redundancyOf, tierFor } from '@cloudtrim/rightsizing/waste/disk-tiers';
import type { WastePriceBook } from '@cloudtrim/rightsizing/waste/waste-prices';
import type { RetailPrice, RetailPriceQuery } from '../../cloud/cloud-provider';

export type WastePriceKind = 'disk' | 'snapshot' | 'publicIp' | 'plan' | 'database' | 'vcore';

// One meter as stored (waste_price): `skuName` as Cloudtrim looks it up ('P10', 'Standard', 'P1v3',
// 'S3', 'GP_Gen5'); `variant` a disk's redundancy or a plan's OS, '' otherwise.
export interface WastePriceRow {
  kind: WastePriceKind;
  skuName: string;
  variant: string;
  unitPrice: number;
  unit: string;
  currencyCode: string;
}

export interface StoredWastePrice extends WastePriceRow {
  region: string;
}

const diskProducts = [
  'Premium SSD Managed Disks',
  'Standard SSD Managed Disks',
  'Standard HDD Managed Disks',
];
const snapshotProduct = 'Standard HDD Managed Disks';
const planFamilies = ['Basic', 'Standard', 'Premium v2', 'Premium v3', 'Premium mv3'];
const dtuEditions = ['Basic', 'Standard', 'Premium'];
const vCoreProducts: Record<string, string> = {
  'SQL Database Single/Elastic Pool General Purpose - Compute Gen5': 'GP_Gen5',
  'SQL Database Single/Elastic Pool Business Critical - Compute Gen5': 'BC_Gen5',
};

// The region's queries: one per service, by product where the service lists many.
export function listWastePriceQueries(region: string): RetailPriceQuery[] {
  return [
    { serviceName: 'Storage', region, productNames: diskProducts },
    { serviceName: 'Virtual Network', region, productNames: ['IP Addresses'] },
    {
      serviceName: 'Azure App Service',
      region,
      productNames: planFamilies.flatMap((family) => {
        const product = `Azure App Service ${family} Plan`;
        return [product, `${product} - Linux`];
      }),
    },
    {
      serviceName: 'SQL Database',
      region,
      productNames: [
        ...dtuEditions.map((edition) => `SQL Database Single ${edition}`),
        ...Object.keys(vCoreProducts),
      ],
    },
  ];
}

// Keeps the pay-as-you-go meters the book prices from (the contract's meter names and units); a
// meter listed twice keeps its higher price, whatever order the pages come in.
export function selectWastePrices(prices: RetailPrice[]): WastePriceRow[] {
  const selected = new Map<string, WastePriceRow>();
  for (const price of prices) {
    if (price.type !== 'Consumption') continue;
    const row = toWastePriceRow(price);
    if (!row) continue;
    const key = `${row.kind}|${row.skuName}|${row.variant}`;
    const existing = selected.get(key);
    if (existing && existing.unitPrice >= row.unitPrice) continue;
    selected.set(key, row);
  }
  return [...selected.values()];
}

function toWastePriceRow(price: RetailPrice): WastePriceRow | undefined {
  const base = { unitPrice: price.retailPrice, unit: price.unitOfMeasure, currencyCode: price.currencyCode };
  const { productName, meterName, unitOfMeasure } = price;
  if (diskProducts.includes(productName)) {
    // 'P10 LRS Disk' → P10, LRS; the snapshot meter 'LRS Snapshots' is Standard HDD's.
    const disk = /^([PES]\d+) (LRS|ZRS) Disk$/.exec(meterName);
    if (disk && unitOfMeasure === '1/Month')
      return { kind: 'disk', skuName: disk[1]!, variant: disk[2]!, ...base };
    if (productName === snapshotProduct && meterName === 'LRS Snapshots' && unitOfMeasure === '1 GB/Month') {
      return { kind: 'snapshot', skuName: 'LRS', variant: '', ...base };
    }
    return undefined;
  }
  if (productName === 'IP Addresses') {
    const ip = /^(Standard|Basic) IPv4 Static Public IP$/.exec(meterName);
    return ip && unitOfMeasure === '1 Hour'
      ? { kind: 'publicIp', skuName: ip[1]!, variant: '', ...base }
      : undefined;
  }
  if (/^Azure App Service .+ Plan( - Linux)?$/.test(productName)) {
    // 'P1 v3 App' → P1v3, the plan SKU's own spelling.
    if (meterName !== `${price.skuName} App` || unitOfMeasure !== '1 Hour') return undefined;
    const os = productName.endsWith(' - Linux') ? 'linux' : 'windows';
    return { kind: 'plan', skuName: price.skuName.replaceAll(' ', ''), variant: os, ...base };
  }
  if (/^SQL Database Single (Basic|Standard|Premium)$/.test(productName)) {
    const isDtuMeter = meterName === `${price.skuName} DTUs` && unitOfMeasure === '1/Day';
    return isDtuMeter ? { kind: 'database', skuName: price.skuName, variant: '', ...base } : undefined;
  }
  const vCoreFamily = vCoreProducts[productName];
  if (vCoreFamily && meterName === 'vCore' && unitOfMeasure === '1 Hour') {
    return { kind: 'vcore', skuName: vCoreFamily, variant: '', ...base };
  }
  return undefined;
}

// The book over the stored meters of some regions; a price it does not have is undefined, never 0.
export function buildWastePriceBook(rows: readonly StoredWastePrice[]): WastePriceBook {
  const prices = new Map(
    rows.map((row) => [keyOf(row.region, row.kind, row.skuName, row.variant), row.unitPrice]),
  );
  const find = (region: string, kind: WastePriceKind, skuName: string, variant = '') =>
    prices.get(keyOf(region, kind, skuName, variant));
  return {
    diskMonthly(region, skuName, sizeGb) {
      const tier = tierFor(skuName, sizeGb);
      const redundancy = redundancyOf(skuName);
      return tier && redundancy ? find(region, 'disk', tier, redundancy) : undefined;
    },
    snapshotGbMonthly: (region) => find(region, 'snapshot', 'LRS'),
    publicIpHourly: (region, skuName) => find(region, 'publicIp', skuName),
    planHourly: (region, skuName, os) => find(region, 'plan', skuName, os),
    databaseHourly(region, skuName) {
      const objective: DatabaseObjective | undefined = findDatabaseObjective(skuName);
      if (!objective) return undefined;
      if (objective.model === 'dtu') {
        const daily = find(region, 'database', skuName);
        return daily === undefined ? undefined : daily / 24;
      }
      // 'GP_Gen5_2': the family's price a vCore-hour, times its vCores.
      const perVCore = find(region, 'vcore', skuName.split('_').slice(0, 2).join('_'));
      return perVCore === undefined ? undefined : perVCore * objective.capacity;
    },
  };
}

function keyOf(region: string, kind: WastePriceKind, skuName: string, variant: string): string {
  return `${region.toLowerCase()}|${kind}|${skuName.toLowerCase()}|${variant.toLowerCase()}`;
}
