import { findWaste } from '@cloudtrim/rightsizing/waste/find-waste';
import {
  buildCandidate,
  daysAgo,
  fixtureNow,
  fixturePrices,
} from '@cloudtrim/rightsizing/waste/waste-fixtures';
import type { WasteCandidate, WasteKind, WasteProposal } from '@cloudtrim/rightsizing/waste/waste.types';
import { describe, expect, it } from 'vitest';
import {
  priceWasteAtOwnRates,
  readAnnualCost,
  readCategoryRatio,
  readListAnnual,
  type WasteBill,
} from './waste-own-rates';

const vmId = '/subscriptions/s1/resourceGroups/rg/providers/Microsoft.Compute/virtualMachines/batch-01';
const unattachedDisk = buildCandidate({
  details: { diskState: 'Unattached', diskSizeGb: 128 },
  stateSince: daysAgo(20),
});
const parkedDisk = buildCandidate({
  details: { diskState: 'Reserved', diskSizeGb: 128, managedBy: vmId },
  owner: { powerState: 'deallocated', stateSince: daysAgo(40) },
});
const freeIp = buildCandidate({
  armId: '/subscriptions/s1/resourceGroups/rg/providers/Microsoft.Network/publicIPAddresses/pip-1',
  name: 'pip-1',
  type: 'Microsoft.Network/publicIPAddresses',
  sku: 'Standard',
  details: { allocationMethod: 'Static' },
  stateSince: daysAgo(10),
});
const quietPlan = buildCandidate({
  armId: '/subscriptions/s1/resourceGroups/rg/providers/Microsoft.Web/serverfarms/plan-api',
  name: 'plan-api',
  type: 'Microsoft.Web/serverfarms',
  sku: 'P2v3',
  details: { tier: 'PremiumV3', capacity: 2, numberOfSites: 3, kind: 'linux' },
  usage: { days: 14, cpuP95Pct: 20, memoryP95Pct: 30, dtuP95Pct: null, storageUsedBytes: null },
});
const quietDatabase = buildCandidate({
  armId: '/subscriptions/s1/resourceGroups/rg/providers/Microsoft.Sql/servers/sql-1/databases/orders',
  name: 'orders',
  type: 'Microsoft.Sql/servers/databases',
  sku: 'S3',
  details: { tier: 'Standard', capacity: 100, maxSizeBytes: 250 * 1024 ** 3 },
  usage: { days: 14, cpuP95Pct: null, memoryP95Pct: null, dtuP95Pct: 12, storageUsedBytes: 40 * 1024 ** 3 },
});

function proposalOf(resource: WasteCandidate, kind: WasteKind): WasteProposal {
  const finding = findWaste(resource, fixturePrices, fixtureNow).find((item) => item.kind === kind);
  if (finding?.verdict !== 'waste') throw new Error(`${resource.name} is not ${kind} waste`);
  return finding.proposal;
}

// Fourteen days of a 30-day month, at `ratio` times an annual list cost.
function billOf(listAnnual: number, ratio: number, actualShare = 1): WasteBill {
  const amortizedCost = (listAnnual / 365) * 14 * ratio;
  return { amortizedCost, actualCost: amortizedCost * actualShare, days: 14, monthShare: 14 / 30 };
}

function diskBillOf(listMonthly: number, ratio: number): WasteBill {
  const amortizedCost = listMonthly * (14 / 30) * ratio;
  return { amortizedCost, actualCost: amortizedCost, days: 14, monthShare: 14 / 30 };
}

describe('priceWasteAtOwnRates: deletions', () => {
  it('saves what the disk cost on its bill less its snapshot at the same discount', () => {
    // P10 $19.71 a month at 15% off, its 128 GiB snapshot $6.40 at list: $159.72 a year at list.
    const deletion = proposalOf(unattachedDisk, 'deleteDisk');
    expect(deletion.annualCostSavings).toBe(159.72);
    const priced = priceWasteAtOwnRates(deletion, unattachedDisk, fixturePrices, {
      bill: diskBillOf(19.71, 0.85),
    });
    expect(priced.annualCostSavings).toBeCloseTo(159.72 * 0.85, 1);
    expect(priced.memo).toContain(
      'At your rates the disk costs $16.75 a month and its snapshot up to $5.44, from its bill; ' +
        'the saving counts your rates (at list: $159.72 a year).',
    );
    expect(priced.memo.startsWith(deletion.memo)).toBe(true);
  });

  it('saves what a public IP cost on its bill', () => {
    const deletion = proposalOf(freeIp, 'deletePublicIp');
    expect(deletion.annualCostSavings).toBe(43.8);
    const priced = priceWasteAtOwnRates(deletion, freeIp, fixturePrices, { bill: billOf(43.8, 0.85) });
    expect(priced.annualCostSavings).toBeCloseTo(37.23, 2);
    expect(priced.memo).toContain(
      'At your rates it costs $3.10 a month, from its bill; the saving counts your rates (at list: $43.80 a year).',
    );
  });

  it('counts nothing for a resource a reservation covers, and says why', () => {
    const deletion = proposalOf(freeIp, 'deletePublicIp');
    const priced = priceWasteAtOwnRates(deletion, freeIp, fixturePrices, { bill: billOf(43.8, 0.6, 0.1) });
    expect(priced.annualCostSavings).toBe(0);
    expect(priced.memo).toContain(
      "A reservation covers 90% of this public IP's cost: while it does, deleting it saves nothing on the bill",
    );
    expect(priced.memo).toContain(
      'At list prices it would save $43.80 a year; that is not counted in the total on offer.',
    );
  });

  it('keeps list prices for a resource with no bill, or less than a week of it', () => {
    const deletion = proposalOf(unattachedDisk, 'deleteDisk');
    const unbilled = priceWasteAtOwnRates(deletion, unattachedDisk, fixturePrices, { categoryRatio: 0.85 });
    expect(unbilled.annualCostSavings).toBe(159.72);
    expect(unbilled.memo).toContain('No bill read yet for this disk: the saving is at list prices.');
    const recent = { ...diskBillOf(19.71, 0.85), days: 3, monthShare: 0.1 };
    expect(
      priceWasteAtOwnRates(deletion, unattachedDisk, fixturePrices, { bill: recent }).annualCostSavings,
    ).toBe(159.72);
  });
});

describe('priceWasteAtOwnRates: tier changes', () => {
  it('prices the current tier from its bill and the new one at list times the discount of its kind', () => {
    // P10 $19.71 to S10 $5.89 a month: $165.84 a year at list.
    const change = proposalOf(parkedDisk, 'diskTier');
    expect(change.annualCostSavings).toBe(165.84);
    const priced = priceWasteAtOwnRates(change, parkedDisk, fixturePrices, {
      bill: diskBillOf(19.71, 0.85),
      categoryRatio: 0.85,
    });
    expect(priced.annualCostSavings).toBeCloseTo(165.84 * 0.85, 1);
    expect(priced.memo).toContain(
      'At your rates: $5.01 a month instead of $16.75 (list $5.89 instead of $19.71), from its bill and the ' +
        'discount your bill shows for managed disks in eastus; the saving counts your rates (at list: $165.84 a year).',
    );
  });

  it('prices the new tier at list when the bill shows no resource of its kind paying as they go', () => {
    const change = proposalOf(parkedDisk, 'diskTier');
    const priced = priceWasteAtOwnRates(change, parkedDisk, fixturePrices, { bill: diskBillOf(19.71, 0.85) });
    // $201.04 a year on the bill less $70.68 at list.
    expect(priced.annualCostSavings).toBeCloseTo(130.36, 1);
    expect(priced.memo).toContain(
      'from its bill, the new tier at list (your bill shows no managed disks paying as they go in eastus)',
    );
  });

  it('reprices a database objective the same way', () => {
    // S3 at $0.2/h to S1 at $0.04/h: $1,401.60 a year at list.
    const change = proposalOf(quietDatabase, 'databaseObjective');
    expect(change.annualCostSavings).toBe(1401.6);
    const priced = priceWasteAtOwnRates(change, quietDatabase, fixturePrices, {
      bill: billOf(0.2 * 8760, 0.7),
      categoryRatio: 0.7,
    });
    expect(priced.annualCostSavings).toBeCloseTo(1401.6 * 0.7, 1);
    expect(priced.memo).toContain(
      'At your rates: $20.44 a month instead of $102.20 (list $29.20 instead of $146.00), from its bill and ' +
        'the discount your bill shows for SQL databases in eastus',
    );
  });

  it('reprices a plan with all its instances, and counts nothing while a reservation covers it', () => {
    // Two P2v3 Linux instances at $0.4/h to P1v3 at $0.2/h: $3,504 a year at list.
    const change = proposalOf(quietPlan, 'planTier');
    expect(change.annualCostSavings).toBe(3504);
    const listAnnual = 0.4 * 2 * 8760;
    const priced = priceWasteAtOwnRates(change, quietPlan, fixturePrices, {
      bill: billOf(listAnnual, 0.8),
      categoryRatio: 0.8,
    });
    expect(priced.annualCostSavings).toBeCloseTo(3504 * 0.8, 0);
    const reserved = priceWasteAtOwnRates(change, quietPlan, fixturePrices, {
      bill: billOf(listAnnual, 1, 0),
      categoryRatio: 0.8,
    });
    expect(reserved.annualCostSavings).toBe(0);
    expect(reserved.memo).toContain(
      "A reservation covers 100% of this plan's cost: while it does, a smaller tier",
    );
  });
});

describe('the bill and list prices of waste', () => {
  it('annualises a disk by the month and the others by the day', () => {
    // Ten days of a 31-day month of a $31-a-month disk; ten days of a $1-a-day IP.
    expect(
      readAnnualCost('Microsoft.Compute/disks', {
        amortizedCost: 10,
        actualCost: 10,
        days: 10,
        monthShare: 10 / 31,
      }),
    ).toBeCloseTo(372, 6);
    expect(
      readAnnualCost('Microsoft.Network/publicIPAddresses', {
        amortizedCost: 10,
        actualCost: 10,
        days: 10,
        monthShare: 10 / 31,
      }),
    ).toBeCloseTo(365, 6);
    expect(readAnnualCost('Microsoft.Compute/disks', undefined)).toBeUndefined();
  });

  it('reads a resource’s list price a year as the finders do', () => {
    expect(readListAnnual(unattachedDisk, 'Premium_LRS', fixturePrices)).toBeCloseTo(19.71 * 12, 6);
    expect(readListAnnual(quietPlan, 'P1v3', fixturePrices)).toBeCloseTo(0.2 * 2 * 8760, 6);
    const vCoreDatabase = buildCandidate({
      type: 'Microsoft.Sql/servers/databases',
      sku: 'GP_Gen5',
      details: { capacity: 4 },
    });
    expect(readListAnnual(vCoreDatabase, 'GP_Gen5', fixturePrices)).toBeCloseTo(8760, 6);
    expect(readListAnnual(vCoreDatabase, 'GP_Gen5_2', fixturePrices)).toBeCloseTo(0.5 * 8760, 6);
    expect(readListAnnual(freeIp, null, fixturePrices)).toBeUndefined();
  });

  it('reads the discount of a kind as the median over its resources paying as they go', () => {
    const disk = (sizeGb: number) => ({ ...unattachedDisk, details: { diskSizeGb: sizeGb } });
    expect(
      readCategoryRatio(
        [
          { resource: disk(128), bill: diskBillOf(19.71, 0.85) },
          { resource: disk(128), bill: diskBillOf(19.71, 0.85) },
          // Its tier changed within the period: billed partly at the larger one.
          { resource: disk(128), bill: diskBillOf(38.01, 0.85) },
          // Reserved, and one with no list price: left out.
          { resource: disk(128), bill: { ...diskBillOf(19.71, 0.5), actualCost: 0 } },
          { resource: disk(100_000), bill: diskBillOf(19.71, 0.5) },
        ],
        fixturePrices,
      ),
    ).toBeCloseTo(0.85, 6);
    expect(readCategoryRatio([], fixturePrices)).toBeUndefined();
  });
});
