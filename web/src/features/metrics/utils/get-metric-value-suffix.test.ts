import { describe, expect, it } from 'vitest';
import { getMetricValueSuffix } from './get-metric-value-suffix';

describe('getMetricValueSuffix', () => {
  it('gives % only to metrics named with Percentage', () => {
    expect(getMetricValueSuffix('Percentage CPU')).toBe('%');
    expect(getMetricValueSuffix('MemoryPercentage')).toBe('%');
    expect(getMetricValueSuffix('Available Memory Bytes')).toBe('');
    expect(getMetricValueSuffix('cpu_percent')).toBe('');
  });
});
