// Waste's savings at the rates the customer pays, as own-rates.ts does for VMs: the finders price at
// list (the engine stays pure), and a disk, public IP, plan or database the bill has is repriced from
// it. A deletion saves what the resource cost on the bill (a disk less its snapshot at the disk's own
// discount); a tier or objective change saves that cost less the new tier's list price times the
// discount the bill shows for resources of its kind in its region. Without a bill, list prices count.
import { findDatabaseObjective } from '@cloudtrim/rightsizing/waste/database-objectives';
import { wasteResourceTypes } from '@cloudtrim/rightsizing/waste/find-waste';
import { readPlanInstances, readPlanOs } from '@cloudtrim/rightsizing/waste/plan-waste';
import type { WastePriceBook } from '@cloudtrim/rightsizing/waste/waste-prices';
import {
  formatDollars,
  hoursPerYear,
  monthsPerYear,
  readNumber,
  roundCents,
} from '@cloudtrim/rightsizing/waste/waste-rules';
import {
  deletionKinds,
  type WasteProposal,
  type WasteResource,
} from '@cloudtrim/rightsizing/waste/waste.types';
import { isMostlyReserved, readMedianRatio, readReservedShare } from './own-rates';
import { daysPerYear } from '../../lib/time';

// A resource's charges of its own service over the bill's recent days.
export interface WasteBill {
  amortizedCost: number;
  actualCost: number;
  // The days it was billed, and their share of their months (a disk is priced by the month).
  days: number;
  monthShare: number;
}

// What prices a resource at list: its type, region and the facts its price depends on.
export type PricedResource = Pick<WasteResource, 'type' | 'region' | 'sku' | 'details'>;

export interface WasteRates {
  bill?: WasteBill;
  // Effective ÷ list for resources of its kind paying as they go in its region; undefined when unseen.
  categoryRatio?: number;
}

const resourceNouns: Readonly<Record<string, { one: string; many: string }>> = {
  [wasteResourceTypes.disk]: { one: 'disk', many: 'managed disks' },
  [wasteResourceTypes.publicIp]: { one: 'public IP', many: 'public IPs' },
  [wasteResourceTypes.plan]: { one: 'plan', many: 'App Service plans' },
  [wasteResourceTypes.database]: { one: 'database', many: 'SQL databases' },
};

// A week of bill says what a resource costs; fewer days (one begun mid-day) understate it.
const minimumBilledDays = 7;

// What the resource costs a year at the rates its bill shows: a disk by the month, as Azure prices
// it (a day of it is a share of its month), the others, priced by the hour, by the day.
export function readAnnualCost(type: string, bill: WasteBill | undefined): number | undefined {
  if (!bill || bill.days < minimumBilledDays || bill.amortizedCost <= 0) return undefined;
  return type.toLowerCase() === wasteResourceTypes.disk
    ? (bill.amortizedCost / bill.monthShare) * monthsPerYear
    : (bill.amortizedCost / bill.days) * daysPerYear;
}

// A year of the resource at this SKU at list, read as the finders read its facts.
export function readListAnnual(
  resource: PricedResource,
  sku: string | null,
  prices: WastePriceBook,
): number | undefined {
  if (!sku) return undefined;
  const { region, details } = resource;
  switch (resource.type.toLowerCase()) {
    case wasteResourceTypes.disk: {
      const sizeGb = readNumber(details, 'diskSizeGb');
      const monthly = sizeGb === null ? undefined : prices.diskMonthly(region, sku, sizeGb);
      return monthly === undefined ? undefined : monthly * monthsPerYear;
    }
    case wasteResourceTypes.publicIp: {
      const hourly = prices.publicIpHourly(region, sku);
      return hourly === undefined ? undefined : hourly * hoursPerYear;
    }
    case wasteResourceTypes.plan: {
      const hourly = prices.planHourly(region, sku, readPlanOs(resource));
      return hourly === undefined ? undefined : hourly * readPlanInstances(resource) * hoursPerYear;
    }
    case wasteResourceTypes.database: {
      const capacity = readNumber(details, 'capacity');
      const objective =
        findDatabaseObjective(sku) ??
        (capacity === null ? undefined : findDatabaseObjective(`${sku}_${capacity}`));
      const hourly = objective ? prices.databaseHourly(region, objective.name) : undefined;
      return hourly === undefined ? undefined : hourly * hoursPerYear;
    }
    default:
      return undefined;
  }
}

// The resources of one kind in one region paying as they go give its effective ÷ list: the median
// of theirs, so one whose tier changed within the period does not move it.
export function readCategoryRatio(
  resources: { resource: PricedResource; bill: WasteBill }[],
  prices: WastePriceBook,
): number | undefined {
  const ratios: number[] = [];
  for (const { resource, bill } of resources) {
    if (readReservedShare(bill) > 0.05) continue;
    const annual = readAnnualCost(resource.type, bill);
    const listAnnual = readListAnnual(resource, resource.sku, prices);
    if (annual === undefined || !listAnnual) continue;
    ratios.push(annual / listAnnual);
  }
  return readMedianRatio(ratios);
}

export function priceWasteAtOwnRates(
  proposal: WasteProposal,
  resource: PricedResource,
  prices: WastePriceBook,
  rates: WasteRates,
): WasteProposal {
  const type = resource.type.toLowerCase();
  const noun = resourceNouns[type];
  const listSaving = proposal.annualCostSavings;
  const annual = readAnnualCost(type, rates.bill);
  if (!noun || annual === undefined) {
    return {
      ...proposal,
      memo: `${proposal.memo} No bill read yet for this ${noun?.one ?? 'resource'}: the saving is at list prices.`,
    };
  }
  const reservedShare = readReservedShare(rates.bill);
  if (isMostlyReserved(rates.bill)) {
    return {
      ...proposal,
      annualCostSavings: 0,
      memo:
        `${proposal.memo} A reservation covers ${Math.round(reservedShare * 100)}% of this ${noun.one}'s cost: ` +
        `while it does, ${deletionKinds.has(proposal.kind) ? 'deleting it' : 'a smaller tier'} saves nothing on the bill unless the ` +
        `reservation freed is used by another of its kind. At list prices it would save ${formatDollars(listSaving)} ` +
        `a year; that is not counted in the total on offer.`,
    };
  }
  const countsText = `the saving counts your rates (at list: ${formatDollars(listSaving)} a year).`;
  if (proposal.kind === 'deletePublicIp' || proposal.kind === 'deletePlan') {
    return {
      ...proposal,
      annualCostSavings: roundCents(annual),
      memo: `${proposal.memo} At your rates it costs ${formatMonthly(annual)} a month, from its bill; ${countsText}`,
    };
  }
  // The finder priced both tiers from the same book: a price missing here leaves its figures be.
  const currentList = readListAnnual(resource, proposal.currentSize ?? resource.sku, prices);
  const atList = { ...proposal, memo: `${proposal.memo} The saving is at list prices.` };
  if (!currentList) return atList;
  if (proposal.kind === 'deleteDisk') {
    // The snapshot kept is billed at the discount the disk's own bill shows.
    const snapshot = (currentList - listSaving) * (annual / currentList);
    return {
      ...proposal,
      annualCostSavings: roundCents(Math.max(0, annual - snapshot)),
      memo:
        `${proposal.memo} At your rates the disk costs ${formatMonthly(annual)} a month and its snapshot up to ` +
        `${formatMonthly(snapshot)}, from its bill; ${countsText}`,
    };
  }
  const targetList = readListAnnual(resource, proposal.targetSize, prices);
  if (targetList === undefined) return atList;
  const ratio = rates.categoryRatio;
  const target = targetList * (ratio ?? 1);
  const source =
    ratio === undefined
      ? `from its bill, the new tier at list (your bill shows no ${noun.many} paying as they go in ${resource.region})`
      : `from its bill and the discount your bill shows for ${noun.many} in ${resource.region}`;
  return {
    ...proposal,
    annualCostSavings: roundCents(Math.max(0, annual - target)),
    memo:
      `${proposal.memo} At your rates: ${formatMonthly(target)} a month instead of ${formatMonthly(annual)} ` +
      `(list ${formatMonthly(targetList)} instead of ${formatMonthly(currentList)}), ${source}; ${countsText}`,
  };
}

function formatMonthly(annual: number): string {
  return formatDollars(annual / monthsPerYear);
}
