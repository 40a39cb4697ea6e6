import type { EvidenceSeries } from '@cloudtrim/rightsizing/analysis.types';
import { describe, expect, it } from 'vitest';
import { readStoredEvidence, toStoredEvidence } from './stored-evidence';

const hourMs = 3_600_000;
const evidence: EvidenceSeries[] = [
  {
    metric: 'CPU',
    threshold: 80,
    points: [
      { time: 10 * hourMs, current: 12.5, projected: 50 },
      { time: 11 * hourMs, current: null, projected: null },
      { time: 12 * hourMs, current: 20, projected: 80 },
    ],
  },
  { metric: 'Memory', threshold: 100, points: [{ time: 10 * hourMs, current: 40, projected: null }] },
];

describe('stored evidence', () => {
  it('keeps every point, gaps included, and reads back what the engine made', () => {
    const stored = toStoredEvidence(evidence);
    expect(stored[0]).toEqual({
      metric: 'CPU',
      threshold: 80,
      startMs: 10 * hourMs,
      stepMs: hourMs,
      current: [12.5, null, 20],
      projected: [50, null, 80],
    });
    expect(readStoredEvidence(JSON.parse(JSON.stringify(stored)))).toEqual(evidence);
  });

  it('reads rows kept in the older one-object-per-point form, and nothing from junk', () => {
    expect(readStoredEvidence(JSON.parse(JSON.stringify(evidence)))).toEqual(evidence);
    expect(readStoredEvidence(null)).toEqual([]);
    expect(readStoredEvidence({ points: [] })).toEqual([]);
  });

  it('is a fraction of the older form’s size for 14 days of two series', () => {
    const points = Array.from({ length: 336 }, (_, index) => ({
      time: index * hourMs,
      current: 12.3,
      projected: 45.6,
    }));
    const fortnight: EvidenceSeries[] = [
      { metric: 'CPU', threshold: 80, points },
      { metric: 'Memory', threshold: 90, points },
    ];
    const compact = JSON.stringify(toStoredEvidence(fortnight)).length;
    expect(compact * 3).toBeLessThan(JSON.stringify(fortnight).length);
  });
});
