// A recommendation's evidence as its row keeps it. Rows now keep where the chart is drawn from: the
// end of the 14 days the analysis last read and the limit lines; the chart is rebuilt from those
// hours when someone opens it. Keeping the chart itself meant rewriting two series of 336 hours for
// every open recommendation each hour as its days slid, most of the analysis's writing at 10,000
// VMs, for charts few people open. Rows written before keep their chart, in one of two forms: one
// object per point, or per series its first hour, step and two arrays of percentages.
import type { EvidenceSeries, EvidenceThresholds } from '@cloudtrim/rightsizing/analysis.types';

export interface EvidenceWindow {
  untilMs: number;
  thresholds: EvidenceThresholds;
}

interface CompactSeries {
  metric: EvidenceSeries['metric'];
  threshold: number;
  startMs: number;
  stepMs: number;
  current: (number | null)[];
  projected: (number | null)[];
}

export type StoredEvidence = { window: EvidenceWindow } | { series: EvidenceSeries[] };

export function readStoredEvidence(stored: unknown): StoredEvidence {
  if (isEvidenceWindow(stored)) return { window: stored };
  if (!Array.isArray(stored)) return { series: [] };
  return {
    series: stored.map((series: CompactSeries | EvidenceSeries) =>
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
    ),
  };
}

function isEvidenceWindow(stored: unknown): stored is EvidenceWindow {
  if (typeof stored !== 'object' || stored === null || Array.isArray(stored)) return false;
  const { untilMs, thresholds } = stored as Partial<EvidenceWindow>;
  return (
    typeof untilMs === 'number' &&
    typeof thresholds?.cpuPct === 'number' &&
    typeof thresholds.memoryPct === 'number'
  );
}
