// The analysis's pure reconciler: one resource's new conclusions against its open recommendations.
// Per kind the analysis judged: the same conclusion (same method, target and schedule) keeps the open
// row with fresh figures; another supersedes it; none withdraws it. A kind it could not judge (no
// price, too little history) leaves its open row as it is.
import type { RecommendationKind } from '@cloudtrim/rightsizing/analysis.types';
import type { EvidenceWindow } from './stored-evidence';
import type { OpenRecommendation, RefreshedRecommendation } from './recommendations.repository';

// A conclusion of either the VM analysis or a waste finder, as a recommendation row keeps it.
export interface Conclusion {
  kind: RecommendationKind;
  predictionMethod: string;
  currentSize: string | null;
  targetSize: string | null;
  activeHours: { start: number; end: number } | null;
  recommendation: string;
  memo: string;
  annualCostSavings: number;
  confidence: number;
  // The VM analysis's chart window; waste findings have no chart.
  evidence: EvidenceWindow | null;
}

export interface Reconciliation {
  inserted: Conclusion[];
  refreshed: RefreshedRecommendation[];
  supersededIds: number[];
}

export function reconcile(
  conclusions: readonly Conclusion[],
  openRows: readonly OpenRecommendation[],
  judgedKinds: ReadonlySet<RecommendationKind>,
): Reconciliation {
  const reconciliation: Reconciliation = { inserted: [], refreshed: [], supersededIds: [] };
  const concludedKinds = new Set(conclusions.map((conclusion) => conclusion.kind));
  for (const conclusion of conclusions) {
    const open = openRows.find((row) => row.kind === conclusion.kind);
    if (open && isSameConclusion(open, conclusion)) {
      reconciliation.refreshed.push({
        id: open.id,
        recommendation: conclusion.recommendation,
        memo: conclusion.memo,
        annualCostSavings: conclusion.annualCostSavings,
        confidence: conclusion.confidence,
        evidence: conclusion.evidence,
      });
      continue;
    }
    if (open) reconciliation.supersededIds.push(open.id);
    reconciliation.inserted.push(conclusion);
  }
  for (const open of openRows) {
    if (judgedKinds.has(open.kind) && !concludedKinds.has(open.kind))
      reconciliation.supersededIds.push(open.id);
  }
  return reconciliation;
}

// Every open row withdrawn: the resource is set to No Change, or is gone from what is judged.
export function withdrawAll(openRows: readonly OpenRecommendation[]): Reconciliation {
  return { inserted: [], refreshed: [], supersededIds: openRows.map((row) => row.id) };
}

function isSameConclusion(open: OpenRecommendation, conclusion: Conclusion): boolean {
  return (
    open.predictionMethod === conclusion.predictionMethod &&
    (open.targetSize ?? null) === (conclusion.targetSize ?? null) &&
    (open.activeHoursStart ?? null) === (conclusion.activeHours?.start ?? null) &&
    (open.activeHoursEnd ?? null) === (conclusion.activeHours?.end ?? null)
  );
}
