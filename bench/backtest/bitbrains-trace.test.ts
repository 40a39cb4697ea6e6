import { describe, expect, it } from 'vitest';
import { decideAdvisorStyle } from './advisor-style';
import { parseBitbrainsTrace } from './bitbrains-trace';
import type { SizeOption, SizePrice } from '@cloudtrim/rightsizing/analysis.types';

const header =
  'Timestamp [ms];\tCPU cores;\tCPU capacity provisioned [MHZ];\tCPU usage [MHZ];\tCPU usage [%];\tMemory capacity provisioned [KB];\tMemory usage [KB];\tDisk read throughput [KB/s];\tDisk write throughput [KB/s];\tNetwork received throughput [KB/s];\tNetwork transmitted throughput [KB/s]';
const row = (seconds: number, cpuPct: number, memoryKb: number) =>
  `${seconds};\t2;\t5199.99925;\t0;\t${cpuPct};\t8357888.0;\t${memoryKb};\t0.0;\t0.0;\t0.0;\t0.0`;

describe('parseBitbrainsTrace', () => {
  it('lays readings on a 5-minute grid from the first timestamp, in vCPUs and GiB, a missing step repeating the one before', () => {
    const text = [
      header,
      row(1375308176, 50, 1_048_576),
      // 299 s later: the next step.
      row(1375308475, 25, 2_097_152),
      // The step after is missing (a 603 s gap).
      row(1375309078, 100, 524_288),
    ].join('\n');
    const trace = parseBitbrainsTrace(text);
    expect(trace.cores).toBe(2);
    expect([...trace.cpuVcpus]).toEqual([1, 0.5, 0.5, 2]);
    expect([...trace.memoryGiB]).toEqual([1, 2, 2, 0.5]);
  });
});

describe('decideAdvisorStyle', () => {
  const option = (name: string, vcpus: number, memoryGiB: number, baseVcpus?: number): SizeOption => ({
    name,
    family: name.replace(/\d+/, ''),
    vcpus,
    memoryGiB,
    maxDataDisks: null,
    maxNics: null,
    hasPremiumIo: true,
    hasAcceleratedNetworking: true,
    isAvailable: true,
    credits: baseVcpus === undefined ? null : { baseVcpus, maxBankedCredits: 576, initialCredits: 60 },
  });
  const sizes = [
    option('Standard_B2s', 2, 4, 0.4),
    option('Standard_D2s_v5', 2, 8),
    option('Standard_D4s_v5', 4, 16),
  ];
  const hourly: Record<string, number> = {
    Standard_B2s: 0.0416,
    Standard_D2s_v5: 0.096,
    Standard_D4s_v5: 0.192,
  };
  const prices = new Map<string, SizePrice>(
    Object.entries(hourly).map(([name, hourlyPrice]) => [
      name,
      { hourlyPrice, currencyCode: 'USD', readAt: '2026-11-20', source: 'test' },
    ]),
  );
  const week = 7 * 288;

  it('takes the cheapest size with P95 CPU ≤ 40% and P95 memory ≤ 60%, a B size only under its base', () => {
    const cpu = new Float64Array(week).fill(0.5);
    // 0.5 vCPU is above the B2s's base of 0.4: not the B2s, the D2s_v5 (25% CPU, 4 of 8 GiB = 50%).
    expect(decideAdvisorStyle(sizes[2]!, sizes, prices, cpu, new Float64Array(week).fill(4), 288)).toBe(
      'Standard_D2s_v5',
    );
    // 5 GiB is above 60% of 8: the D4s_v5, the size it has.
    expect(decideAdvisorStyle(sizes[2]!, sizes, prices, cpu, new Float64Array(week).fill(5), 288)).toBe(
      'Standard_D4s_v5',
    );
    // Under the base all week, with 2 GiB: the B2s.
    expect(
      decideAdvisorStyle(
        sizes[2]!,
        sizes,
        prices,
        new Float64Array(week).fill(0.3),
        new Float64Array(week).fill(2),
        288,
      ),
    ).toBe('Standard_B2s');
  });
});
