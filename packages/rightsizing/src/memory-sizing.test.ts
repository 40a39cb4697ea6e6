import { describe, expect, it } from 'vitest';
import { analyseVm } from './analyse-vm';
import type { SizeOption, SizePrice, VmAnalysisInput } from './analysis.types';

const hourMs = 3_600_000;
// Dsv5 (4 GiB a vCPU) and Esv5 (8 GiB a vCPU) at East US Linux list prices.
const catalogue: [string, string, number, number, number][] = [
  ['Standard_D2s_v5', 'standardDSv5Family', 2, 8, 0.096],
  ['Standard_D4s_v5', 'standardDSv5Family', 4, 16, 0.192],
  ['Standard_D8s_v5', 'standardDSv5Family', 8, 32, 0.384],
  ['Standard_E2s_v5', 'standardESv5Family', 2, 16, 0.126],
  ['Standard_E4s_v5', 'standardESv5Family', 4, 32, 0.252],
  ['Standard_E8s_v5', 'standardESv5Family', 8, 64, 0.504],
];
const sizes: SizeOption[] = catalogue.map(([name, family, vcpus, memoryGiB]) => ({
  name,
  family,
  vcpus,
  memoryGiB,
  maxDataDisks: null,
  maxNics: null,
  hasPremiumIo: true,
  hasAcceleratedNetworking: true,
  isAvailable: true,
}));
const prices = new Map<string, SizePrice>(
  catalogue.map(([name, , , , hourlyPrice]) => [
    name,
    {
      hourlyPrice,
      currencyCode: 'USD',
      readAt: '2026-11-20T00:00:00.000Z',
      source: 'Azure Retail Prices API',
    },
  ]),
);

// 14 days of hourly readings on an E8s_v5: CPU percent and used GiB from the hour index.
function buildInput(
  cpuPercent: (hour: number) => number,
  usedGiB: (hour: number) => number,
): VmAnalysisInput {
  const hours = 14 * 24;
  const startMs = Date.UTC(2026, 10, 1);
  const cpu = Float64Array.from({ length: hours }, (_, hour) => cpuPercent(hour));
  const memory = Float64Array.from({ length: hours }, (_, hour) => usedGiB(hour));
  return {
    vmId: 'vm-memory',
    currentSize: 'Standard_E8s_v5',
    region: 'eastus',
    osType: 'Linux',
    runningShare: 1,
    activeHours: null,
    requirements: {
      dataDiskCount: null,
      nicCount: null,
      usesPremiumDisk: null,
      usesAcceleratedNetworking: null,
    },
    cpu: { startMs, stepMinutes: 60, average: cpu, maximum: cpu },
    memoryUsedGiB: { startMs, stepMinutes: 60, average: memory, maximum: memory },
    sizes,
    prices,
    now: startMs + hours * hourMs,
  };
}

const resizeOf = (input: VmAnalysisInput) =>
  analyseVm(input).proposals.find((proposal) => proposal.kind === 'resize');

describe('sizing with memory', () => {
  it('keeps the memory an E-series VM uses: a D size with the CPU but half the memory is refused, and the memo says memory decided', () => {
    // About 1 busy vCPU of 8, 20 GiB in use: a D2s_v5 carries the CPU, only 32 GiB holds the memory.
    const resize = resizeOf(
      buildInput(
        (hour) => 12 + (hour % 3),
        (hour) => 19 + (hour % 2),
      ),
    );
    expect(resize?.targetSize).toBe('Standard_E4s_v5');
    expect(resize?.memo).toContain(
      'Memory decided the size: Standard_D2s_v5 has the CPU, but the highest memory in use seen, 20.0 GiB, would be 250% of its 8 GiB (limit 90%).',
    );
  });

  it('moves to the cheaper family when the memory fits it, and then memory decided nothing', () => {
    // The same CPU with 5 GiB in use: a D2s_v5 (8 GiB) holds it under 85%.
    const resize = resizeOf(
      buildInput(
        (hour) => 12 + (hour % 3),
        (hour) => 4.5 + (hour % 2) * 0.5,
      ),
    );
    expect(resize?.targetSize).toBe('Standard_D2s_v5');
    expect(resize?.memo).not.toContain('Memory decided');
  });

  it('never picks a size whose memory the VM has already overloaded, even when that was over a week ago', () => {
    // 6 GiB in use (75% of a D2s_v5's 8 GiB), but on the third day a batch held 13.5 GiB for two
    // hours: the D2s_v5 would have been overloaded by it, an E2s_v5's 16 GiB holds it at 84%.
    const input = buildInput(
      (hour) => 12 + (hour % 3),
      (hour) => (hour >= 50 && hour < 52 ? 13.5 : 6),
    );
    const resize = resizeOf(input);
    expect(resize?.targetSize).toBe('Standard_E2s_v5');
    const target = sizes.find((size) => size.name === resize?.targetSize)!;
    expect(13.5).toBeLessThanOrEqual(target.memoryGiB * 0.9);
  });
});
