// App Service plan SKUs by family, with what one instance (worker) has. Azure's published figures:
// https://azure.microsoft.com/en-us/pricing/details/app-service/linux/ and
// https://learn.microsoft.com/en-us/azure/app-service/overview-hosting-plans
// Free and Shared plans run on shared workers and cost nothing or next to it: they are not here.
export type PlanFamily = 'Basic' | 'Standard' | 'PremiumV2' | 'PremiumV3' | 'PremiumMV3';

export interface PlanTier {
  name: string;
  family: PlanFamily;
  vCpus: number;
  memoryGb: number;
}

export const planTiers: readonly PlanTier[] = [
  { name: 'B1', family: 'Basic', vCpus: 1, memoryGb: 1.75 },
  { name: 'B2', family: 'Basic', vCpus: 2, memoryGb: 3.5 },
  { name: 'B3', family: 'Basic', vCpus: 4, memoryGb: 7 },
  { name: 'S1', family: 'Standard', vCpus: 1, memoryGb: 1.75 },
  { name: 'S2', family: 'Standard', vCpus: 2, memoryGb: 3.5 },
  { name: 'S3', family: 'Standard', vCpus: 4, memoryGb: 7 },
  { name: 'P1v2', family: 'PremiumV2', vCpus: 1, memoryGb: 3.5 },
  { name: 'P2v2', family: 'PremiumV2', vCpus: 2, memoryGb: 7 },
  { name: 'P3v2', family: 'PremiumV2', vCpus: 4, memoryGb: 14 },
  { name: 'P0v3', family: 'PremiumV3', vCpus: 1, memoryGb: 4 },
  { name: 'P1v3', family: 'PremiumV3', vCpus: 2, memoryGb: 8 },
  { name: 'P2v3', family: 'PremiumV3', vCpus: 4, memoryGb: 16 },
  { name: 'P3v3', family: 'PremiumV3', vCpus: 8, memoryGb: 32 },
  { name: 'P1mv3', family: 'PremiumMV3', vCpus: 2, memoryGb: 16 },
  { name: 'P2mv3', family: 'PremiumMV3', vCpus: 4, memoryGb: 32 },
  { name: 'P3mv3', family: 'PremiumMV3', vCpus: 8, memoryGb: 64 },
  { name: 'P4mv3', family: 'PremiumMV3', vCpus: 16, memoryGb: 128 },
  { name: 'P5mv3', family: 'PremiumMV3', vCpus: 32, memoryGb: 256 },
];

const tiersByName = new Map(planTiers.map((tier) => [tier.name, tier]));

export function findPlanTier(skuName: string): PlanTier | undefined {
  return tiersByName.get(skuName);
}

// The smaller tiers of the plan's own family, largest first: a plan moves within its family
// (Premium v3 to Premium v3), because moving between families changes features, not only size.
export function listSmallerPlanTiers(skuName: string): readonly PlanTier[] {
  const current = tiersByName.get(skuName);
  if (!current) return [];
  return planTiers
    .filter((tier) => tier.family === current.family && tier.vCpus < current.vCpus)
    .sort((a, b) => b.vCpus - a.vCpus);
}

// The Retail Prices API's skuName for a plan SKU: 'P1v3' → 'P1 v3', 'P1mv3' → 'P1mv3', 'S1' → 'S1'.
export function planMeterSkuName(skuName: string): string {
  return skuName.replace(/^([PS]\d)(v\d)$/, '$1 $2');
}
