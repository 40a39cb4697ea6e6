import { describe, expect, it } from 'vitest';
import { findDatabaseWaste } from './database-waste';
import { buildCandidate, fixturePrices, noPrices } from './waste-fixtures';
import type { UsageSummary, WasteCandidate } from './waste.types';

const gib = 1024 ** 3;

function database(overrides: Partial<WasteCandidate> = {}): WasteCandidate {
  return buildCandidate({
    armId: '/subscriptions/s1/resourceGroups/rg/providers/Microsoft.Sql/servers/sql-1/databases/orders',
    name: 'orders',
    type: 'Microsoft.Sql/servers/databases',
    sku: 'S3',
    details: { tier: 'Standard', capacity: 100, maxSizeBytes: 250 * gib, serverName: 'sql-1' },
    ...overrides,
  });
}

function usage(overrides: Partial<UsageSummary>): UsageSummary {
  return {
    days: 14,
    cpuP95Pct: null,
    memoryP95Pct: null,
    dtuP95Pct: null,
    storageUsedBytes: 40 * gib,
    ...overrides,
  };
}

describe('findDatabaseWaste', () => {
  it('moves a DTU database to the cheapest objective of its tier that carries its P95 under 70%', () => {
    // S3 (100 DTUs) at P95 12%: 12 DTUs. S1 (20) would run at 60%, S0 (10) at 120%.
    const [finding] = findDatabaseWaste(database({ usage: usage({ dtuP95Pct: 12 }) }), fixturePrices);
    expect(finding!.verdict).toBe('waste');
    if (finding!.verdict !== 'waste') return;
    expect(finding!.proposal).toMatchObject({ currentSize: 'S3', targetSize: 'S1' });
    // ($0.20 − $0.04)/h × 8,760 h.
    expect(finding!.proposal.annualCostSavings).toBe(1401.6);
    expect(finding!.proposal.recommendation).toBe('Move the database orders from S3 to S1.');
    expect(finding!.proposal.memo).toContain("Storage used 40.0 GB fits S1's 250 GB");
  });

  it('keeps the storage the database uses: no objective whose maximum size is smaller', () => {
    // 300 GiB used: S0–S2 hold 250 GB at most, so nothing smaller than S3 fits.
    const big = database({ usage: usage({ dtuP95Pct: 5, storageUsedBytes: 300 * gib }) });
    expect(findDatabaseWaste(big, fixturePrices)[0]!.verdict).toBe('clear');
  });

  it('judges a vCore database by its CPU, from the family and vCores inventory keeps', () => {
    const vCore = database({
      sku: 'GP_Gen5',
      details: { tier: 'GeneralPurpose', family: 'Gen5', capacity: 8, maxSizeBytes: 512 * gib },
      usage: usage({ cpuP95Pct: 15 }),
    });
    const [finding] = findDatabaseWaste(vCore, fixturePrices);
    // 8 vCores at 15%: 1.2 busy; GP_Gen5_2 runs it at 60%. ($2 − $0.50)/h × 8,760 h.
    expect(finding!.verdict === 'waste' && finding!.proposal).toMatchObject({
      currentSize: 'GP_Gen5_8',
      targetSize: 'GP_Gen5_2',
      annualCostSavings: 13140,
    });
  });

  it('skips an excluded database, and does not judge without use, history or prices', () => {
    expect(
      findDatabaseWaste(
        database({ tags: { 'cloudtrim:exclude': 'true' }, usage: usage({ dtuP95Pct: 5 }) }),
        fixturePrices,
      )[0]!.verdict,
    ).toBe('clear');
    expect(findDatabaseWaste(database({ usage: usage({}) }), fixturePrices)[0]!.verdict).toBe('unjudged');
    expect(
      findDatabaseWaste(database({ usage: usage({ dtuP95Pct: 5, days: 2 }) }), fixturePrices)[0]!.verdict,
    ).toBe('unjudged');
    expect(findDatabaseWaste(database({ usage: usage({ dtuP95Pct: 5 }) }), noPrices)[0]!.verdict).toBe(
      'unjudged',
    );
  });
});
