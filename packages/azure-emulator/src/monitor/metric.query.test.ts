import { describe, expect, it } from 'vitest';
import { virtualMachineNamespace } from './metric.catalog';
import {
  formatDurationMinutes,
  MetricQueryError,
  parseAggregations,
  parseDurationMinutes,
  parseInterval,
  parseMetricNames,
  parseTimespan,
} from './metric.query';

const nowMs = Date.UTC(2026, 10, 18, 12, 0);

describe('metric query parsing', () => {
  it('reads ISO 8601 durations and writes them back', () => {
    expect(parseDurationMinutes('PT1M')).toBe(1);
    expect(parseDurationMinutes('PT1H')).toBe(60);
    expect(parseDurationMinutes('P1D')).toBe(1440);
    expect(parseDurationMinutes('P1DT12H')).toBe(2160);
    expect(parseDurationMinutes('1 hour')).toBeUndefined();
    expect([1, 5, 60, 90, 1440].map(formatDurationMinutes)).toEqual([
      'PT1M',
      'PT5M',
      'PT1H',
      'PT1H30M',
      'P1D',
    ]);
  });

  it('reads every timespan form Azure Monitor accepts', () => {
    const hourAgo = nowMs - 3_600_000;
    expect(parseTimespan(undefined, nowMs)).toEqual({ startMs: hourAgo, endMs: nowMs });
    expect(parseTimespan('PT1H', nowMs)).toEqual({ startMs: hourAgo, endMs: nowMs });
    expect(parseTimespan('2026-11-18T11:00:00Z/2026-11-18T12:00:00Z', nowMs)).toEqual({
      startMs: hourAgo,
      endMs: nowMs,
    });
    expect(parseTimespan('2026-11-18T11:00:00Z/PT1H', nowMs)).toEqual({ startMs: hourAgo, endMs: nowMs });
    expect(parseTimespan('PT1H/2026-11-18T12:00:00Z', nowMs)).toEqual({ startMs: hourAgo, endMs: nowMs });
    expect(() => parseTimespan('yesterday/today', nowMs)).toThrow(MetricQueryError);
  });

  it('reads intervals, aggregations and metric names', () => {
    const range = { startMs: nowMs - 7_200_000, endMs: nowMs };
    expect(parseInterval(undefined, range)).toBe(1);
    expect(parseInterval('PT5M', range)).toBe(5);
    expect(parseInterval('FULL', range)).toBe(120);
    expect(() => parseInterval('PT30S', range)).toThrow(MetricQueryError);
    expect(parseAggregations('Average,maximum, Count')).toEqual(['average', 'maximum', 'count']);
    expect(() => parseAggregations('median')).toThrow(MetricQueryError);
    expect(parseMetricNames('percentage cpu,Network In Total', virtualMachineNamespace)).toEqual([0, 2]);
    expect(() => parseMetricNames('Made Up', virtualMachineNamespace)).toThrow(
      /Valid metrics: Percentage CPU/,
    );
  });
});
