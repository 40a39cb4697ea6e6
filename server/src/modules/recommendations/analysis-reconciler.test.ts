import { describe, expect, it } from 'vitest';
import type { RecommendationKind } from '@cloudtrim/rightsizing/analysis.types';
import { reconcile, withdrawAll, type Conclusion } from './analysis-reconciler';
import type { OpenRecommendation } from './recommendations.repository';

function conclusion(
  kind: RecommendationKind,
  targetSize: string | null,
  overrides: Partial<Conclusion> = {},
): Conclusion {
  return {
    kind,
    predictionMethod: 'cloudtrim-forecast',
    currentSize: 'Standard_D8s_v5',
    targetSize,
    activeHours: null,
    recommendation: `${kind} to ${targetSize}`,
    memo: 'memo',
    annualCostSavings: 1000,
    confidence: 0.8,
    evidence: null,
    ...overrides,
  };
}

function open(
  id: number,
  kind: RecommendationKind,
  targetSize: string | null,
  predictionMethod = 'cloudtrim-forecast',
): OpenRecommendation {
  return {
    id,
    resourceId: 'vm-1',
    kind,
    predictionMethod,
    targetSize,
    activeHoursStart: null,
    activeHoursEnd: null,
  };
}

const vmKinds = new Set<RecommendationKind>(['resize', 'shutdown', 'activeHours']);

describe('reconcile', () => {
  it('keeps the open row of the same conclusion with fresh figures', () => {
    const fresh = conclusion('resize', 'Standard_D4s_v5', { annualCostSavings: 1200, memo: 'new memo' });
    expect(reconcile([fresh], [open(7, 'resize', 'Standard_D4s_v5')], vmKinds)).toEqual({
      inserted: [],
      refreshed: [
        {
          id: 7,
          recommendation: fresh.recommendation,
          memo: 'new memo',
          annualCostSavings: 1200,
          confidence: 0.8,
          evidence: null,
        },
      ],
      supersededIds: [],
    });
  });

  it('supersedes the open row of another conclusion of the kind, another target or method', () => {
    const next = conclusion('resize', 'Standard_D2s_v5');
    expect(reconcile([next], [open(7, 'resize', 'Standard_D4s_v5')], vmKinds)).toEqual({
      inserted: [next],
      refreshed: [],
      supersededIds: [7],
    });
    const byAdvisor = reconcile(
      [conclusion('resize', 'Standard_D4s_v5')],
      [open(8, 'resize', 'Standard_D4s_v5', 'advisor-p95')],
      vmKinds,
    );
    expect(byAdvisor.supersededIds).toEqual([8]);
  });

  it('withdraws an open row of a judged kind nothing concluded, and keeps kinds it did not judge', () => {
    const rows = [open(1, 'shutdown', null), open(2, 'deallocate', null), open(3, 'deleteDisk', null)];
    expect(reconcile([], rows, vmKinds).supersededIds).toEqual([1]);
    expect(reconcile([], rows, new Set<RecommendationKind>(['deallocate'])).supersededIds).toEqual([2]);
    // Unjudged (no price, too little history): nothing changes.
    expect(reconcile([], rows, new Set())).toEqual({ inserted: [], refreshed: [], supersededIds: [] });
  });

  it('opens a waste conclusion beside a VM’s own rows', () => {
    const deallocate = conclusion('deallocate', null, { predictionMethod: 'waste-rule' });
    expect(reconcile([deallocate], [open(1, 'resize', 'Standard_D4s_v5')], new Set(['deallocate']))).toEqual({
      inserted: [deallocate],
      refreshed: [],
      supersededIds: [],
    });
  });

  it('withdraws every open row of a resource set to No Change', () => {
    expect(withdrawAll([open(1, 'resize', 'x'), open(2, 'deletePublicIp', null)]).supersededIds).toEqual([
      1, 2,
    ]);
  });
});
