import type { Proposal } from '@cloudtrim/rightsizing/analysis.types';
import { describe, expect, it } from 'vitest';
import { priceAtOwnRates, readBillDays, readRegionRatio, readReservedShare } from './own-rates';

// A resize from $0.192/h to $0.096/h at list, 8,760 hours a year.
const resize: Proposal = {
  kind: 'resize',
  predictionMethod: 'cloudtrim-forecast',
  currentSize: 'Standard_D4s_v5',
  targetSize: 'Standard_D2s_v5',
  activeHours: null,
  recommendation: 'Resize vm-1 from Standard_D4s_v5 to Standard_D2s_v5.',
  memo: 'Seen: low CPU.',
  annualCostSavings: 840.96,
  confidence: 0.9,
  thresholds: { cpuPct: 80, memoryPct: 90 },
};
const list = { current: 0.192, target: 0.096 };
// Two weeks running at 15% off list.
const discountedBill = { amortizedCost: 0.192 * 0.85 * 336, actualCost: 0.192 * 0.85 * 336, usageHours: 336 };

describe('priceAtOwnRates', () => {
  it('prices both sizes at the agreement the bill shows, and says which figures count', () => {
    const priced = priceAtOwnRates(resize, list, { bill: discountedBill, regionRatio: 0.85 });
    expect(priced.annualCostSavings).toBeCloseTo(840.96 * 0.85, 1);
    expect(priced.memo).toContain(
      'At your rates: $0.0816/h instead of $0.1632/h (list $0.096/h instead of $0.192/h)',
    );
    expect(priced.memo).toContain('the saving counts your rates (at list: $840.96 a year)');
  });

  it('counts nothing for a VM a reservation covers, and says why', () => {
    const reserved = { amortizedCost: 0.12 * 336, actualCost: 0, usageHours: 336 };
    const priced = priceAtOwnRates(resize, list, { bill: reserved, regionRatio: 0.85 });
    expect(priced.annualCostSavings).toBe(0);
    expect(priced.memo).toContain('A reservation covers 100% of this VM');
    expect(priced.memo).toContain(
      'At list prices it would save $840.96 a year; that is not counted in the total on offer.',
    );
  });

  it('uses the region’s discount for a VM without its own bill, and list prices without any', () => {
    expect(priceAtOwnRates(resize, list, { regionRatio: 0.8 }).annualCostSavings).toBeCloseTo(
      840.96 * 0.8,
      1,
    );
    const atList = priceAtOwnRates(resize, list, {});
    expect(atList.annualCostSavings).toBe(840.96);
    expect(atList.memo).toContain('No bill read yet for this VM: the saving is at list prices.');
  });

  it('scales a shutdown by what the VM really costs an hour', () => {
    const shutdown: Proposal = { ...resize, kind: 'shutdown', targetSize: null, annualCostSavings: 1681.92 };
    expect(
      priceAtOwnRates(shutdown, { current: 0.192, target: undefined }, { bill: discountedBill })
        .annualCostSavings,
    ).toBeCloseTo(1681.92 * 0.85, 1);
  });
});

describe('readRegionRatio', () => {
  it('is what pay-as-you-go VMs paid against their list price (their median), reserved ones left out', () => {
    // Resized mid-period: its hours priced at the smaller size's list.
    const resized = { amortizedCost: 0.192 * 0.85 * 336, actualCost: 0.192 * 0.85 * 336, usageHours: 336 };
    expect(
      readRegionRatio([
        { bill: discountedBill, listHourly: 0.192 },
        { bill: discountedBill, listHourly: 0.192 },
        { bill: resized, listHourly: 0.096 },
        { bill: { amortizedCost: 40, actualCost: 0, usageHours: 336 }, listHourly: 0.192 },
        { bill: discountedBill, listHourly: undefined },
      ]),
    ).toBeCloseTo(0.85, 6);
    expect(readRegionRatio([])).toBeUndefined();
  });

  it('reads a reservation’s share from actual against amortized cost', () => {
    expect(readReservedShare({ amortizedCost: 100, actualCost: 25 })).toBeCloseTo(0.75);
    expect(readReservedShare(undefined)).toBe(0);
  });
});

describe('the bill that prices a proposal', () => {
  it('is the fortnight before the three days Azure still settles', () => {
    expect(readBillDays(new Date('2026-11-26T04:00:00Z'))).toEqual({ from: '2026-11-09', to: '2026-11-23' });
  });
});
