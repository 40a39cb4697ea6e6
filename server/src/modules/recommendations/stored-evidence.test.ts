import type { EvidenceSeries } from '@cloudtrim/rightsizing/analysis.types';
import { describe, expect, it } from 'vitest';
import { readStoredEvidence } from './stored-evidence';
import { hourMs } from '../../lib/time';

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
  it('reads the window a chart is rebuilt from', () => {
    const window = { untilMs: 20 * hourMs, thresholds: { cpuPct: 80, memoryPct: 90 } };
    expect(readStoredEvidence(JSON.parse(JSON.stringify(window)))).toEqual({ window });
  });

  it('reads charts kept whole, in the compact form and the one-object-per-point form', () => {
    const compact = [
      {
        metric: 'CPU',
        threshold: 80,
        startMs: 10 * hourMs,
        stepMs: hourMs,
        current: [12.5, null, 20],
        projected: [50, null, 80],
      },
      {
        metric: 'Memory',
        threshold: 100,
        startMs: 10 * hourMs,
        stepMs: hourMs,
        current: [40],
        projected: [null],
      },
    ];
    expect(readStoredEvidence(compact)).toEqual({ series: evidence });
    expect(readStoredEvidence(JSON.parse(JSON.stringify(evidence)))).toEqual({ series: evidence });
  });

  it('reads nothing from junk', () => {
    expect(readStoredEvidence(null)).toEqual({ series: [] });
    expect(readStoredEvidence({ points: [] })).toEqual({ series: [] });
    expect(readStoredEvidence({ untilMs: '1', thresholds: { cpuPct: 80, memoryPct: 90 } })).toEqual({
      series: [],
    });
  });
});
