// A recommendation's evidence as its row keeps it: per series, the first hour, the step and two
// arrays of percentages (null where the hour had no data). One object per point took four times
// the bytes, and every open recommendation's evidence is rewritten each hour as its 14 days slide:
// at 10,000 VMs that was most of the analysis's writing.
import type { EvidenceSeries } from '@cloudtrim/rightsizing/analysis.types';

export interface StoredEvidenceSeries {
  metric: EvidenceSeries['metric'];
  threshold: number;
  startMs: number;
  stepMs: number;
  current: (number | null)[];
  projected: (number | null)[];
}

const hourMs = 3_600_000;

// The engine's points are evenly spaced (one per hour of its series).
export function toStoredEvidence(evidence: EvidenceSeries[]): StoredEvidenceSeries[] {
  return evidence.map((series) => {
    const [first, second] = series.points;
    return {
      metric: series.metric,
      threshold: series.threshold,
      startMs: first?.time ?? 0,
      stepMs: first && second ? second.time - first.time : hourMs,
      current: series.points.map((point) => point.current),
      projected: series.points.map((point) => point.projected),
    };
  });
}

// Rows written before this form kept one object per point: both are read.
export function readStoredEvidence(stored: unknown): EvidenceSeries[] {
  if (!Array.isArray(stored)) return [];
  return stored.map((series: StoredEvidenceSeries | EvidenceSeries) =>
    'points' in series
      ? series
      : {
          metric: series.metric,
          threshold: series.threshold,
          points: series.current.map((current, index) => ({
            time: series.startMs + index * series.stepMs,
            current,
            projected: series.projected[index] ?? null,
          })),
        },
  );
}
