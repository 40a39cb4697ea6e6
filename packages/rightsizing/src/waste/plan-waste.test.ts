import { describe, expect, it } from 'vitest';
import { findPlanWaste } from './plan-waste';
import { buildCandidate, daysAgo, fixtureNow, fixturePrices, noPrices } from './waste-fixtures';
import type { UsageSummary, WasteCandidate, WasteFinding } from './waste.types';

function plan(overrides: Partial<WasteCandidate> = {}): WasteCandidate {
  return buildCandidate({
    armId: '/subscriptions/s1/resourceGroups/rg/providers/Microsoft.Web/serverfarms/plan-api',
    name: 'plan-api',
    type: 'Microsoft.Web/serverfarms',
    sku: 'P2v3',
    details: { tier: 'PremiumV3', capacity: 2, numberOfSites: 3, kind: 'linux' },
    ...overrides,
  });
}

function usage(cpuP95Pct: number, memoryP95Pct: number, days = 14): UsageSummary {
  return { days, cpuP95Pct, memoryP95Pct, dtuP95Pct: null, storageUsedBytes: null };
}

function findingOf(findings: WasteFinding[], kind: WasteFinding['kind']): WasteFinding {
  return findings.find((finding) => finding.kind === kind)!;
}

describe('findPlanWaste: empty plans', () => {
  it('proposes deleting a plan with no apps, priced per instance', () => {
    const empty = plan({ details: { tier: 'PremiumV3', capacity: 2, numberOfSites: 0, kind: 'linux' } });
    const findings = findPlanWaste(empty, fixturePrices, fixtureNow);
    expect(findingOf(findings, 'planTier').verdict).toBe('clear');
    const finding = findingOf(findings, 'deletePlan');
    expect(finding.verdict).toBe('waste');
    if (finding.verdict !== 'waste') return;
    // P2v3 Linux $0.40/h × 2 instances × 8,760 h.
    expect(finding.proposal.annualCostSavings).toBe(7008);
    expect(finding.proposal.recommendation).toBe(
      'Delete the App Service plan plan-api (P2v3, Linux, 2 instances): it hosts no apps.',
    );
    expect(finding.proposal.memo).toContain('No app is deleted: it has none.');
  });

  it('prices a Windows plan at its Windows price', () => {
    const empty = plan({
      sku: 'S1',
      details: { tier: 'Standard', capacity: 1, numberOfSites: 0, kind: 'app' },
    });
    const finding = findingOf(findPlanWaste(empty, fixturePrices, fixtureNow), 'deletePlan');
    // S1 Windows $0.20/h × 8,760 h.
    expect(finding.verdict === 'waste' && finding.proposal.annualCostSavings).toBe(1752);
  });

  it('leaves a plan empty for days only, a Free plan, and an excluded one', () => {
    const details = { tier: 'PremiumV3', capacity: 1, numberOfSites: 0, kind: 'linux' };
    const recent = plan({ details, stateSince: daysAgo(2) });
    const free = plan({ sku: 'F1', details: { ...details, tier: 'Free' } });
    const excluded = plan({ details, tags: { 'cloudtrim:exclude': 'true' } });
    for (const candidate of [recent, free, excluded]) {
      expect(findingOf(findPlanWaste(candidate, fixturePrices, fixtureNow), 'deletePlan').verdict).toBe(
        'clear',
      );
    }
  });
});

describe('findPlanWaste: smaller tiers', () => {
  it('moves a plan whose CPU and memory fit a smaller tier of its family to the cheapest that does', () => {
    // P2v3 (4 vCPUs, 16 GB) at P95 20% CPU (0.8 vCPU) and 30% memory (4.8 GB): P1v3 (2 vCPUs, 8 GB)
    // carries it at 40% and 60%; P0v3 (1 vCPU, 4 GB) would hold 120% memory.
    const finding = findingOf(
      findPlanWaste(plan({ usage: usage(20, 30) }), fixturePrices, fixtureNow),
      'planTier',
    );
    expect(finding.verdict).toBe('waste');
    if (finding.verdict !== 'waste') return;
    expect(finding.proposal).toMatchObject({ currentSize: 'P2v3', targetSize: 'P1v3' });
    // ($0.40 − $0.20)/h × 2 instances × 8,760 h.
    expect(finding.proposal.annualCostSavings).toBe(3504);
    expect(finding.proposal.memo).toContain('Projected on P1v3 (2 vCPUs, 8 GB): 40% CPU, 60% memory');
  });

  it('keeps a plan whose use needs its tier, and does not judge one with under 7 days of use', () => {
    expect(
      findingOf(findPlanWaste(plan({ usage: usage(60, 30) }), fixturePrices, fixtureNow), 'planTier').verdict,
    ).toBe('clear');
    expect(
      findingOf(findPlanWaste(plan({ usage: usage(5, 5, 3) }), fixturePrices, fixtureNow), 'planTier')
        .verdict,
    ).toBe('unjudged');
    expect(
      findingOf(findPlanWaste(plan({ usage: usage(5, 5) }), noPrices, fixtureNow), 'planTier').verdict,
    ).toBe('unjudged');
  });
});
