import { describe, expect, it } from 'vitest';
import { findOracleSize, scoreFleet, scoreMachine, type MachineFuture } from './backtest-scoring';

const sizes = [
  { name: 'D2', vcpus: 2, hourlyUsd: 0.1 },
  { name: 'D4', vcpus: 4, hourlyUsd: 0.2 },
  { name: 'D8', vcpus: 8, hourlyUsd: 0.4 },
];
const d8 = sizes[2]!;

// 1,000 five-minute steps at 30% of a D8 (2.4 vCPUs, too much for a D2), with `hot` steps at 60% (4.8 vCPUs).
function machine(hot: number[]): MachineFuture {
  const future = new Float64Array(1000).fill(30);
  for (const step of hot) future[step] = 60;
  return { vm: 'vm1', current: d8, future, stepMinutes: 5 };
}

describe('backtest scoring', () => {
  it('scales readings to the new size and counts steps above 90% as overloaded', () => {
    const score = scoreMachine(machine([10, 11, 12]), sizes[1]!, sizes, null);
    // 60% of 8 vCPUs on 4 is 120%: 3 overloaded steps; 30% becomes 60%.
    expect(score.overloadedSteps).toBe(3);
    expect(score.addedOverloadShare).toBeCloseTo(3 / 1000);
    expect(score.saving).toBeCloseTo(0.2 * 1000 * (5 / 60));
  });

  it('the oracle takes the cheapest size with at most 0.5% of the future overloaded', () => {
    expect(findOracleSize(machine([1, 2, 3, 4, 5]), sizes).name).toBe('D4');
    expect(findOracleSize(machine([1, 2, 3, 4, 5, 6]), sizes).name).toBe('D8');
  });

  it('a guard sends the machine back after enough consecutive hot steps, and counts them overloaded', () => {
    const hot = Array.from({ length: 30 }, (_, index) => 500 + index);
    const score = scoreMachine(machine(hot), sizes[1]!, sizes, { overloadPct: 80, consecutiveSteps: 24 });
    expect(score.isRolledBack).toBe(true);
    expect(score.overloadedSteps).toBe(24);
    expect(score.saving).toBeCloseTo(0.2 * 524 * (5 / 60));
  });

  it('with memory, a step is overloaded when either CPU or memory runs above 90% of the size', () => {
    const withMemory = sizes.map((size) => ({ ...size, memoryGiB: size.vcpus * 4 }));
    // 30% CPU of a D8 fits a D4; 15 GiB used does not fit its 16 GiB under 90%.
    const memoryBound: MachineFuture = {
      ...machine([]),
      current: withMemory[2]!,
      memoryGiB: new Float64Array(1000).fill(15),
    };
    expect(scoreMachine(memoryBound, withMemory[1]!, withMemory, null).overloadedSteps).toBe(1000);
    expect(findOracleSize(memoryBound, withMemory).name).toBe('D8');
    memoryBound.memoryGiB!.fill(12);
    expect(findOracleSize(memoryBound, withMemory).name).toBe('D4');
  });

  it('sums the fleet against the oracle', () => {
    const fleet = scoreFleet([machine([])], new Map([['vm1', sizes[1]!]]), sizes, null);
    expect(fleet.savingShareOfOracle).toBeCloseTo(1);
    expect(fleet.overloadedStepShare).toBe(0);
    expect(fleet.resizedDown).toBe(1);
  });
});

describe('backtest scoring on burstable sizes', () => {
  // A B4-like size: 4 vCPUs, base 0.9 vCPU, 120 credits at the resize, 1,296 at most.
  const b4 = {
    name: 'B4',
    vcpus: 4,
    hourlyUsd: 0.15,
    credits: { baseVcpus: 0.9, maxBankedCredits: 1296, initialCredits: 120 },
  };
  const withBurstable = [...sizes, b4];

  it('a step the bank cannot pay for is throttled and overloaded, though under 90% of the vCPUs', () => {
    // 10% of a D8 is 0.8 vCPU, under the base: the bank only grows. Then 30% (2.4 vCPUs) from step
    // 500: each step spends (2.4 − 0.9) × 5 = 7.5 credits.
    const future = new Float64Array(1000).fill(10);
    future.fill(30, 500);
    const score = scoreMachine({ vm: 'vm1', current: d8, future, stepMinutes: 5 }, b4, withBurstable, null);
    // The bank gains 0.5 a step for 500 steps: 120 + 250 = 370, spent in 49 steps and a bit; the
    // 450 steps after are throttled.
    expect(score.throttledSteps).toBe(451);
    expect(score.overloadedSteps).toBe(451);
    expect(score.oracleSize).toBe('D4');
  });

  it('the guard takes a throttled machine back, a throttled step counting as above its limit', () => {
    const future = new Float64Array(1000).fill(30);
    const score = scoreMachine({ vm: 'vm1', current: d8, future, stepMinutes: 5 }, b4, withBurstable, {
      overloadPct: 80,
      consecutiveSteps: 24,
    });
    // 120 / 7.5 = 16 steps on credits, then throttled: the guard trips at the 24th throttled step.
    expect(score.isRolledBack).toBe(true);
    expect(score.overloadedSteps).toBe(24);
    expect(score.saving).toBeCloseTo((0.4 - 0.15) * 40 * (5 / 60));
  });

  it('the oracle takes a burstable size where its bank holds', () => {
    // 10% of a D8: 0.8 vCPU, under the base of 0.9.
    const future = new Float64Array(1000).fill(10);
    expect(findOracleSize({ vm: 'vm1', current: d8, future, stepMinutes: 5 }, withBurstable).name).toBe('D2');
    const cheaperB4 = { ...b4, hourlyUsd: 0.05 };
    expect(
      findOracleSize({ vm: 'vm1', current: d8, future, stepMinutes: 5 }, [...sizes, cheaperB4]).name,
    ).toBe('B4');
  });

  it('a move to less memory is guarded even with as many vCPUs (an E size to the D size beside it)', () => {
    const e4 = { name: 'E4', vcpus: 4, memoryGiB: 32, hourlyUsd: 0.25 };
    const d4 = { name: 'D4', vcpus: 4, memoryGiB: 16, hourlyUsd: 0.2 };
    const memory = new Float64Array(1000).fill(10);
    // Two hours and a half at 15 GiB: above 80% of the D4's 16 GiB.
    memory.fill(15, 400, 430);
    const future: MachineFuture = {
      vm: 'vm-e',
      current: e4,
      future: new Float64Array(1000).fill(20),
      memoryGiB: memory,
      stepMinutes: 5,
    };
    const score = scoreMachine(future, d4, [d4, e4], { overloadPct: 80, consecutiveSteps: 24 });
    expect(score.isRolledBack).toBe(true);
    expect(score.saving).toBeCloseTo(0.05 * 424 * (5 / 60));
  });
});
