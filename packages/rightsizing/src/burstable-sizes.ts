// Azure's published credit figures of the B-series (Bsv1), which Resource SKUs does not carry. Used
// when the size catalogue lacks them (skus-burstable.csv carries the same figures as columns).
// Source: Microsoft Learn, "B-series burstable virtual machine sizes"
// (learn.microsoft.com/azure/virtual-machines/sizes-b-series-burstable), columns "Base CPU
// Performance of VM", "Initial Credits", "Credits banked/hour" and "Max Banked Credits". Base
// performance is in percent of one vCPU; credits banked an hour are that percent × 60 / 100 and the
// maximum is 24 hours of it, as published (Azure rounds B12ms and B20ms).
// Other burstable series (Bsv2, Basv2, Bpsv2) are not tabled here: a burstable size whose figures
// neither the catalogue nor this table gives is never proposed.
import type { SizeOption } from './analysis.types';
import type { CreditTerms } from './cpu-credits';

interface PublishedCredits {
  baseCpuPct: number;
  initialCredits: number;
  creditsBankedPerHour: number;
  maxBankedCredits: number;
}

const publishedBsv1Credits: Readonly<Record<string, PublishedCredits>> = {
  Standard_B1ls: { baseCpuPct: 5, initialCredits: 30, creditsBankedPerHour: 3, maxBankedCredits: 72 },
  Standard_B1s: { baseCpuPct: 10, initialCredits: 30, creditsBankedPerHour: 6, maxBankedCredits: 144 },
  Standard_B1ms: { baseCpuPct: 20, initialCredits: 30, creditsBankedPerHour: 12, maxBankedCredits: 288 },
  Standard_B2s: { baseCpuPct: 40, initialCredits: 60, creditsBankedPerHour: 24, maxBankedCredits: 576 },
  Standard_B2ms: { baseCpuPct: 60, initialCredits: 60, creditsBankedPerHour: 36, maxBankedCredits: 864 },
  Standard_B4ms: { baseCpuPct: 90, initialCredits: 120, creditsBankedPerHour: 54, maxBankedCredits: 1296 },
  Standard_B8ms: { baseCpuPct: 135, initialCredits: 240, creditsBankedPerHour: 81, maxBankedCredits: 1944 },
  Standard_B12ms: { baseCpuPct: 202, initialCredits: 360, creditsBankedPerHour: 121, maxBankedCredits: 2909 },
  Standard_B16ms: { baseCpuPct: 270, initialCredits: 480, creditsBankedPerHour: 162, maxBankedCredits: 3888 },
  Standard_B20ms: { baseCpuPct: 337, initialCredits: 600, creditsBankedPerHour: 202, maxBankedCredits: 4860 },
};

// B-series names: Standard_B, then the vCPUs (Standard_B2s, Standard_B4ms, Standard_B2ls_v2, …).
const burstableName = /^Standard_B\d/i;

export function isBurstable(size: Pick<SizeOption, 'name' | 'credits'>): boolean {
  return Boolean(size.credits) || burstableName.test(size.name);
}

// The size's credit terms: the catalogue's, else Azure's published figures, else null (a burstable
// size that cannot be judged).
export function readCreditTerms(size: Pick<SizeOption, 'name' | 'credits'>): CreditTerms | null {
  if (size.credits) return size.credits;
  const published = findPublishedCredits(size.name);
  if (!published) return null;
  return {
    baseVcpus: published.baseCpuPct / 100,
    maxBankedCredits: published.maxBankedCredits,
    initialCredits: published.initialCredits,
  };
}

export function findPublishedCredits(name: string): PublishedCredits | undefined {
  return publishedByLowerName.get(name.toLowerCase());
}

const publishedByLowerName = new Map(
  Object.entries(publishedBsv1Credits).map(([name, credits]) => [name.toLowerCase(), credits]),
);
