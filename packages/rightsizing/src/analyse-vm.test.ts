import { describe, expect, it } from 'vitest';
import { analyseVm, buildEvidence } from './analyse-vm';
import type { SizeOption, SizePrice, VmAnalysisInput } from './analysis.types';

const hourMs = 3_600_000;
const sizes: SizeOption[] = [2, 4, 8, 16].map((vcpus) => ({
  name: `Standard_D${vcpus}s_v5`,
  family: 'standardDSv5Family',
  vcpus,
  memoryGiB: vcpus * 4,
  maxDataDisks: vcpus * 2,
  maxNics: vcpus >= 8 ? 4 : 2,
  hasPremiumIo: true,
  hasAcceleratedNetworking: vcpus >= 4,
  isAvailable: true,
}));
const prices = new Map<string, SizePrice>(
  sizes.map((size) => [
    size.name,
    {
      hourlyPrice: size.vcpus * 0.048,
      currencyCode: 'USD',
      readAt: '2026-11-20T00:00:00.000Z',
      source: 'Azure Retail Prices API',
    },
  ]),
);

// Hourly CPU percent of a D16 for `days` days, from a function of the hour index.
function buildInput(
  days: number,
  cpuPercent: (hour: number) => number,
  overrides: Partial<VmAnalysisInput> = {},
): VmAnalysisInput {
  const hours = days * 24;
  const average = Float64Array.from({ length: hours }, (_, hour) => cpuPercent(hour));
  return {
    vmId: 'vm-test',
    currentSize: 'Standard_D16s_v5',
    region: 'eastus',
    osType: 'Linux',
    runningShare: 1,
    activeHours: null,
    requirements: { dataDiskCount: 1, nicCount: 1, usesPremiumDisk: true, usesAcceleratedNetworking: false },
    cpu: {
      startMs: Date.UTC(2026, 10, 1),
      stepMinutes: 60,
      average,
      maximum: average.map((value) => Math.min(100, value * 1.2)),
    },
    sizes,
    prices,
    now: Date.UTC(2026, 10, 1) + hours * hourMs,
    ...overrides,
  };
}

const resizeOf = (input: VmAnalysisInput, method?: 'advisor-p95' | 'cloudtrim-forecast' | 'backtest-pick') =>
  analyseVm(input, { method }).proposals.find((proposal) => proposal.kind === 'resize');

describe('analyseVm', () => {
  it('resizes a steady, lightly used VM to the cheapest size that carries it, with the saving a year', () => {
    // About 2.4 busy vCPUs of 16.
    const resize = resizeOf(buildInput(14, (hour) => 14 + (hour % 3)));
    expect(resize?.targetSize).toBe('Standard_D4s_v5');
    expect(resize?.annualCostSavings).toBeCloseTo((16 - 4) * 0.048 * 8760, 2);
    expect(resize?.recommendation).toContain('Standard_D4s_v5');
    expect(resize?.memo).toMatch(/Projected peak on Standard_D4s_v5: \d+% CPU/);
    expect(resize?.memo).toContain('Azure Retail Prices API, read 2026-11-20');
    expect(resize?.memo).toMatch(/Confidence \d+%/);
    expect(resize?.thresholds.cpuPct).toBeGreaterThan(0);
  });

  it('sizes a growing VM for where its load is going, not where it was', () => {
    // From 1 to 5 busy vCPUs over 14 days.
    const input = buildInput(14, (hour) => (100 * (1 + (4 * hour) / (14 * 24))) / 16);
    const forecast = resizeOf(input);
    expect(forecast?.targetSize).toBe('Standard_D8s_v5');
  });

  it('keeps the capacity for a weekly batch the history saw', () => {
    // 2 vCPUs busy, 5.6 busy for 6 hours each Monday (hourly peaks 6.7: the forecast reads peaks on
    // hourly data, where the average hides the 5-minute highs).
    const input = buildInput(14, (hour) => (hour % 168 < 6 ? 35 : 12));
    expect(resizeOf(input, 'advisor-p95')?.targetSize).toBe('Standard_D4s_v5');
    expect(resizeOf(input)?.targetSize).toBe('Standard_D8s_v5');
  });

  it('follows a load that dropped to a new level two days ago, where a 7-day rule still sees the old one', () => {
    // 9.6 busy vCPUs for 12 days, then 1.3 (hourly peaks 1.5): a regime change, not a quiet weekend
    // (the same weekdays a week earlier were busy).
    const input = buildInput(14, (hour) => (hour < 12 * 24 ? 60 : 8));
    const resize = resizeOf(input);
    expect(resize?.targetSize).toBe('Standard_D2s_v5');
    expect(resize?.memo).toContain('read from the last 2 days: the load dropped to a new level then');
    expect(resizeOf(input, 'advisor-p95')).toBeUndefined();
  });

  it('carries spikes that recur every day, where a P95 rule would cut them off', () => {
    // 1.3 busy vCPUs, 9.6 for one hour a day: 4% of the hours, under the P95 Advisor looks at.
    const input = buildInput(14, (hour) => (hour % 24 === 3 ? 60 : 8));
    expect(resizeOf(input)).toBeUndefined();
    expect(resizeOf(input, 'advisor-p95')?.targetSize).toBe('Standard_D4s_v5');
  });

  it("picks by replaying the VM's own history: the method that would not have overloaded it, then the cheaper", () => {
    // Advisor's P95 cuts the daily spike off and would have overloaded the later days; the forecast keeps the size.
    const spiky = buildInput(14, (hour) => (hour % 24 === 3 ? 60 : 8));
    expect(resizeOf(spiky, 'backtest-pick')).toBeUndefined();
    expect(analyseVm(spiky, { method: 'backtest-pick' }).predictionMethod).toBe('backtest-pick');
    const steady = resizeOf(
      buildInput(14, (hour) => 14 + (hour % 3)),
      'backtest-pick',
    );
    expect(steady?.targetSize).toBe('Standard_D4s_v5');
    expect(steady?.predictionMethod).toBe('backtest-pick');
    expect(steady?.memo).toMatch(/chosen by replaying this VM's own history/);
  });

  it('proposes shutting down a VM that idles, with the whole running cost as the saving', () => {
    const input = buildInput(14, () => 0.5);
    input.network = {
      startMs: input.cpu.startMs,
      stepMinutes: 60,
      average: new Float64Array(14 * 24).fill(1_000_000),
      maximum: new Float64Array(14 * 24).fill(1_000_000),
    };
    const [proposal] = analyseVm(input).proposals;
    expect(proposal?.kind).toBe('shutdown');
    expect(proposal?.annualCostSavings).toBeCloseTo(16 * 0.048 * 8760, 2);
  });

  it('proposes active hours for a VM idle every night', () => {
    const input = buildInput(14, (hour) => (hour % 24 >= 20 || hour % 24 < 7 ? 1 : 40));
    input.network = {
      startMs: input.cpu.startMs,
      stepMinutes: 60,
      average: new Float64Array(14 * 24).fill(10_000),
      maximum: new Float64Array(14 * 24).fill(10_000),
    };
    const schedule = analyseVm(input).proposals.find((proposal) => proposal.kind === 'activeHours');
    expect(schedule?.activeHours).toEqual({ start: 7, end: 20 });
    expect(schedule?.recommendation).toContain('07:00 to 20:00 UTC');
  });

  it('proposes nothing the catalogue cannot serve: a VM needing 4 NICs and accelerated networking stays', () => {
    const input = buildInput(14, () => 5, {
      requirements: { dataDiskCount: 1, nicCount: 4, usesPremiumDisk: true, usesAcceleratedNetworking: true },
    });
    expect(resizeOf(input)?.targetSize).toBe('Standard_D8s_v5');
    const unpriced = buildInput(14, () => 5, {
      prices: new Map([['Standard_D16s_v5', prices.get('Standard_D16s_v5')!]]),
    });
    expect(resizeOf(unpriced)).toBeUndefined();
  });

  it('says nothing with less than a week of data, and that it could not judge the VM', () => {
    const analysis = analyseVm(buildInput(5, () => 5));
    expect(analysis.proposals).toEqual([]);
    expect(analysis.reason).toMatch(/days of CPU data; 7 are needed/);
    expect(analysis.isJudged).toBe(false);
  });

  it('reports a VM judged when it proposes something or finds nothing cheaper, not when its size has no price', () => {
    expect(analyseVm(buildInput(14, () => 20)).isJudged).toBe(true);
    const busy = analyseVm(buildInput(14, () => 85, { currentSize: 'Standard_D2s_v5' }));
    expect(busy.proposals).toEqual([]);
    expect(busy.isJudged).toBe(true);
    expect(analyseVm(buildInput(14, () => 20, { prices: new Map() })).isJudged).toBe(false);
    expect(analyseVm(buildInput(14, () => 20, { currentSize: 'Standard_X1' })).isJudged).toBe(false);
  });

  it('keeps the previous proposal when the load has not really moved', () => {
    const input = buildInput(14, (hour) => 20 + (hour % 2), { previousTargetSize: 'Standard_D8s_v5' });
    // 3.4 busy vCPUs fit a D4 at 90%, but without the 10% headroom a move down needs.
    expect(resizeOf(input)?.targetSize).toBe('Standard_D8s_v5');
  });
});

describe('buildEvidence', () => {
  it('draws the last 14 days of hourly peaks on the current size and as projected on the target', () => {
    const input = buildInput(21, (hour) => (hour === 21 * 24 - 1 ? 50 : 10));
    const [cpu, ...others] = buildEvidence(input, 'Standard_D4s_v5', { cpuPct: 80, memoryPct: 90 });
    expect(others).toHaveLength(0);
    expect(cpu).toMatchObject({ metric: 'CPU', threshold: 80 });
    expect(cpu!.points).toHaveLength(14 * 24);
    expect(cpu!.points[0]).toEqual({ time: input.cpu.startMs + 7 * 24 * hourMs, current: 10, projected: 40 });
    // Four times the share on a quarter of the vCPUs.
    expect(cpu!.points.at(-1)).toMatchObject({ current: 50, projected: 200 });
  });

  it('leaves missing hours empty, and draws memory when the VM reports it', () => {
    const input = buildInput(14, (hour) => (hour < 24 ? Number.NaN : 20));
    const usedGiB = Float64Array.from({ length: 14 * 24 }, () => 32);
    const series = buildEvidence(
      { ...input, memoryUsedGiB: { ...input.cpu, average: usedGiB, maximum: usedGiB } },
      'Standard_D8s_v5',
      { cpuPct: 80, memoryPct: 90 },
    );
    expect(series.map((item) => item.metric)).toEqual(['CPU', 'Memory']);
    expect(series[0]!.points[0]).toMatchObject({ current: null, projected: null });
    expect(series[1]!.points[0]).toMatchObject({ current: 50, projected: 100 });
    expect(series[1]!.threshold).toBe(90);
  });

  it('projects nothing without a target, and draws nothing for a size the catalogue lacks', () => {
    const input = buildInput(14, () => 10);
    const [cpu] = buildEvidence(input, null, { cpuPct: 100, memoryPct: 100 });
    expect(cpu!.points.every((point) => point.current === 10 && point.projected === null)).toBe(true);
    expect(
      buildEvidence({ ...input, currentSize: 'Standard_X1' }, null, { cpuPct: 100, memoryPct: 100 }),
    ).toEqual([]);
  });
});

describe('analyseVm with burstable sizes', () => {
  // The B-series at East US list prices beside the Dsv5 sizes; their credit figures come from
  // Azure's published table (burstable-sizes.ts), as the catalogue does not carry them.
  const burstable: [string, number, number, number][] = [
    ['Standard_B1ms', 1, 2, 0.0207],
    ['Standard_B2s', 2, 4, 0.0416],
    ['Standard_B2ms', 2, 8, 0.0832],
    ['Standard_B4ms', 4, 16, 0.166],
  ];
  const withBurstable: SizeOption[] = [
    ...sizes,
    ...burstable.map(([name, vcpus, memoryGiB]) => ({
      name,
      family: 'standardBSFamily',
      vcpus,
      memoryGiB,
      maxDataDisks: vcpus * 2,
      maxNics: 2,
      hasPremiumIo: true,
      hasAcceleratedNetworking: false,
      isAvailable: true,
    })),
  ];
  const burstablePrices = new Map<string, SizePrice>([
    ...prices,
    ...burstable.map(([name, , , hourlyPrice]): [string, SizePrice] => [
      name,
      {
        hourlyPrice,
        currencyCode: 'USD',
        readAt: '2026-11-20T00:00:00.000Z',
        source: 'Azure Retail Prices API',
      },
    ]),
  ]);

  it('moves a steady light load to the burstable size whose base carries it, saying how low its bank went', () => {
    // 0.5 busy vCPUs of 16, peaks 0.6: B1ms (base 0.2) and B2s (base 0.4) would run out of credits.
    const resize = resizeOf(buildInput(14, () => 3.125, { sizes: withBurstable, prices: burstablePrices }));
    expect(resize?.targetSize).toBe('Standard_B2ms');
    expect(resize?.memo).toContain(
      'Standard_B2ms is burstable: once its CPU credits run out it runs at no more than its base of 0.6 vCPUs of its 2 vCPUs.',
    );
    expect(resize?.memo).toContain('It banks 36 credits an hour, up to 864, and a resize starts it at 60.');
    // It only ever banks: the lowest is the 60 it starts with.
    expect(resize?.memo).toContain(
      'Replayed over the last 14 days and 14 forecast days, its bank would have gone no lower than 60 credits (7% of the most it holds) and never run out.',
    );
    expect(resize?.memo).toContain('Its busiest day, 0.5 vCPUs busy on average, stays under the base.');
  });

  it('keeps a load above every cheaper base on a fixed-performance size, and says why', () => {
    // 2.4 busy vCPUs: B4ms carries its peaks on 4 vCPUs, but its base is 0.9.
    const resize = resizeOf(
      buildInput(14, (hour) => 14 + (hour % 3), { sizes: withBurstable, prices: burstablePrices }),
    );
    expect(resize?.targetSize).toBe('Standard_D4s_v5');
    expect(resize?.memo).toMatch(
      /Standard_B4ms \(burstable\) is cheaper but was not chosen: replayed, its CPU credits would run out and hold it to its base of 0\.9 vCPUs\./,
    );
  });

  it('proposes no smaller size for a VM whose own bank ran out, its readings being held to its base', () => {
    // 0.4 busy vCPUs on a B4ms (10%): B2ms (base 0.6) would hold that, were it all the VM wanted.
    const onB4 = (remaining: (hour: number) => number) => {
      const bank = Float64Array.from({ length: 14 * 24 }, (_, hour) => remaining(hour));
      return buildInput(14, () => 10, {
        currentSize: 'Standard_B4ms',
        sizes: withBurstable,
        prices: burstablePrices,
        cpuCreditsRemaining: {
          startMs: Date.UTC(2026, 10, 1),
          stepMinutes: 60,
          average: bank,
          maximum: bank,
        },
      });
    };
    expect(resizeOf(onB4(() => 900))?.targetSize).toBe('Standard_B2ms');
    const ranOut = analyseVm(onB4((hour) => (hour === 200 ? 0 : 900)));
    expect(ranOut.proposals).toEqual([]);
    expect(ranOut.reason).toContain('Standard_B4ms ran out of CPU credits in the days analysed');
  });
});
