import { describe, expect, it } from 'vitest';
import { tierFor } from './disk-tiers';
import { listSmallerObjectives } from './database-objectives';
import { listSmallerPlanTiers, planMeterSkuName } from './plan-tiers';

describe('the published catalogues', () => {
  it('bills a disk as the smallest tier of its type that holds it', () => {
    expect(tierFor('Premium_LRS', 100)).toBe('P10');
    expect(tierFor('Premium_LRS', 128)).toBe('P10');
    expect(tierFor('Premium_ZRS', 129)).toBe('P15');
    expect(tierFor('StandardSSD_LRS', 1000)).toBe('E30');
    expect(tierFor('Standard_LRS', 8)).toBe('S4');
    expect(tierFor('UltraSSD_LRS', 128)).toBeUndefined();
    expect(tierFor('Premium_LRS', 40_000)).toBeUndefined();
  });

  it('lists smaller plan tiers and objectives of the same family only, largest first', () => {
    expect(listSmallerPlanTiers('P2v3').map((tier) => tier.name)).toEqual(['P1v3', 'P0v3']);
    expect(listSmallerPlanTiers('P1mv3')).toEqual([]);
    expect(listSmallerObjectives('S3').map((objective) => objective.name)).toEqual(['S2', 'S1', 'S0']);
    expect(listSmallerObjectives('GP_Gen5_4').map((objective) => objective.name)).toEqual(['GP_Gen5_2']);
  });

  it('spells plan SKUs as the Retail Prices API does', () => {
    expect(planMeterSkuName('P1v3')).toBe('P1 v3');
    expect(planMeterSkuName('P1mv3')).toBe('P1mv3');
    expect(planMeterSkuName('S1')).toBe('S1');
  });
});
