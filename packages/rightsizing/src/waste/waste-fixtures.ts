// Facts and prices for the finders' tests: one resource of each type as inventory would keep it,
// and a price book with round figures so the arithmetic can be read off.
import { tierFor } from './disk-tiers';
import { planMeterSkuName } from './plan-tiers';
import type { WastePriceBook } from './waste-prices';
import { dayMs } from './waste-rules';
import type { WasteCandidate } from './waste.types';

export const fixtureNow = Date.UTC(2026, 10, 25, 12);

export function daysAgo(days: number): number {
  return fixtureNow - days * dayMs;
}

export function buildCandidate(overrides: Partial<WasteCandidate>): WasteCandidate {
  return {
    armId: '/subscriptions/s1/resourceGroups/rg/providers/Microsoft.Compute/disks/data-07',
    name: 'data-07',
    type: 'Microsoft.Compute/disks',
    region: 'eastus',
    sku: 'Premium_LRS',
    details: {},
    stateSince: null,
    tags: {},
    powerState: null,
    owner: null,
    vmHourly: null,
    usage: null,
    ...overrides,
  };
}

// Per month: P10 $19.71, S10 $5.89, E10 $9.60 and so on by tier; snapshots $0.05 per GiB. Public
// IPs: Standard $0.005/h, Basic $0.004/h. Plans: $0.1 per vCPU an hour (Linux), Windows twice that.
// Databases: $0.002 per DTU an hour, $0.25 per vCore an hour.
const diskMonthlyByTier: Record<string, number> = {
  P10: 19.71,
  P15: 38.01,
  P20: 73.22,
  E10: 9.6,
  S4: 1.54,
  S10: 5.89,
  S15: 11.33,
  S20: 21.76,
};
const planVcpus: Record<string, number> = { P0v3: 1, P1v3: 2, P2v3: 4, P3v3: 8, S1: 1, S2: 2, S3: 4 };
const databaseHourlyByName: Record<string, number> = {
  S0: 0.02,
  S1: 0.04,
  S2: 0.1,
  S3: 0.2,
  S4: 0.4,
  P1: 0.625,
  GP_Gen5_2: 0.5,
  GP_Gen5_4: 1,
  GP_Gen5_8: 2,
};

export const fixturePrices: WastePriceBook = {
  diskMonthly: (_region, skuName, sizeGb) => {
    const tier = tierFor(skuName, sizeGb);
    return tier ? diskMonthlyByTier[tier] : undefined;
  },
  snapshotGbMonthly: () => 0.05,
  publicIpHourly: (_region, skuName) => ({ Standard: 0.005, Basic: 0.004 })[skuName],
  planHourly: (_region, skuName, os) => {
    // Keyed as the pricing side keys meters, to show the finder asks by the plan's own SKU name.
    const vcpus = planVcpus[planMeterSkuName(skuName).replace(' ', '')];
    return vcpus === undefined ? undefined : vcpus * 0.1 * (os === 'windows' ? 2 : 1);
  },
  databaseHourly: (_region, skuName) => databaseHourlyByName[skuName],
};

export const noPrices: WastePriceBook = {
  diskMonthly: () => undefined,
  snapshotGbMonthly: () => undefined,
  publicIpHourly: () => undefined,
  planHourly: () => undefined,
  databaseHourly: () => undefined,
};
