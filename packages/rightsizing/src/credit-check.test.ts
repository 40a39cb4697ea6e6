import { describe, expect, it } from 'vitest';
import type { SizeOption } from './analysis.types';
import { createCreditJudge } from './credit-check';
import { readDemand } from './demand';

function size(name: string, vcpus: number): SizeOption {
  return {
    name,
    family: name.startsWith('Standard_B') ? 'standardBSFamily' : 'standardDSv5Family',
    vcpus,
    memoryGiB: vcpus * 4,
    maxDataDisks: null,
    maxNics: null,
    hasPremiumIo: true,
    hasAcceleratedNetworking: true,
    isAvailable: true,
  };
}
const d8 = size('Standard_D8s_v5', 8);
// Base 0.9 vCPU, 120 credits at the resize, 1,296 at most (Azure's published figures).
const b4ms = size('Standard_B4ms', 4);

// 14 days of hourly busy vCPUs on a D8, from a function of the hour.
function demandOf(busyVcpus: (hour: number) => number, days = 14) {
  const average = Float64Array.from({ length: days * 24 }, (_, hour) => (busyVcpus(hour) / 8) * 100);
  return readDemand(
    { cpu: { startMs: Date.UTC(2026, 10, 1), stepMinutes: 60, average, maximum: average } },
    d8,
  );
}

describe('the credits check', () => {
  it('passes a steady load under the base, saying how low the bank went', () => {
    const verdict = createCreditJudge(
      demandOf(() => 0.5),
      d8,
    ).judge(b4ms)!;
    expect(verdict.fits).toBe(true);
    expect(verdict.shortfall).toBeNull();
    // It only banks, so the lowest is where a resize starts it.
    expect(verdict.lowestBank).toBe(120);
    expect(verdict.growth).toBeCloseTo(1);
  });

  it('passes a nightly batch the bank pays for, and reports the bank it leaves', () => {
    // 0.3 busy, and 2.5 busy from 01:00 to 03:00 each day: (2.5 − 0.9) × 120 = 192 credits a night,
    // banked back by (0.9 − 0.3) × 60 = 36 an hour. The first night, from 120 + 36, runs out.
    const verdict = createCreditJudge(
      demandOf((hour) => (hour % 24 >= 1 && hour % 24 < 3 ? 2.5 : 0.3)),
      d8,
    ).judge(b4ms)!;
    expect(verdict.fits).toBe(false);
    expect(verdict.shortfall).toBe('throttled');
    // Starting the same at 10:00 leaves 15 hours to bank 540 before the first night.
    const later = createCreditJudge(
      demandOf((hour) => ((hour + 9) % 24 >= 1 && (hour + 9) % 24 < 3 ? 2.5 : 0.3)),
      d8,
    ).judge(b4ms)!;
    expect(later.fits).toBe(true);
    expect(later.lowestBank).toBeGreaterThan(0);
    expect(later.lowestBank).toBeLessThan(1296);
  });

  it('refuses a load with a day above the base, though the bank would pay for that day', () => {
    // 0.5 busy, 1.0 (above 0.9) every seventh day: the bank, full by then, loses 144 credits that
    // day, and the replays never run out. Such a day recurring day after day would empty it.
    const verdict = createCreditJudge(
      demandOf((hour) => (Math.floor(hour / 24) % 7 === 3 ? 1 : 0.5)),
      d8,
    ).judge(b4ms)!;
    expect(verdict.growth).toBeCloseTo(1);
    expect(verdict.fits).toBe(false);
    expect(verdict.shortfall).toBe('drains');
    expect(verdict.busiestDayVcpus).toBeCloseTo(1);
  });

  it('grows the demand by the worst week-over-week rise of its busiest day', () => {
    // 0.4 for 10 days, then 0.65: the week after day 7 peaks 1.625 × the week before. Grown alike,
    // the last days' 0.65 busy (under the base of 0.9) is 1.06.
    const verdict = createCreditJudge(
      demandOf((hour) => (hour >= 10 * 24 ? 0.65 : 0.4)),
      d8,
    ).judge(b4ms)!;
    expect(verdict.growth).toBeCloseTo(1.625);
    expect(verdict.busiestDayVcpus).toBeCloseTo(0.65 * 1.625);
    expect(verdict.fits).toBe(false);
  });

  it('judges the size the VM runs on from its measured bank', () => {
    const demand = readDemand(
      {
        cpu: {
          startMs: 0,
          stepMinutes: 60,
          average: new Float64Array(14 * 24).fill(10),
          maximum: new Float64Array(14 * 24).fill(10),
        },
      },
      b4ms,
    );
    const remaining = new Float64Array(14 * 24).fill(800);
    remaining[100] = 0;
    const measured = { remaining: { startMs: 0, stepMinutes: 60, average: remaining, maximum: remaining } };
    const verdict = createCreditJudge(demand, b4ms, measured).judge(b4ms)!;
    // Its bank ran out once: the readings were capped, so the size is not shown to hold the load.
    expect(verdict.isMeasured).toBe(true);
    expect(verdict.startBank).toBe(800);
    expect(verdict.fits).toBe(false);
    remaining[100] = 700;
    const steady = createCreditJudge(demand, b4ms, measured).judge(b4ms)!;
    expect(steady.fits).toBe(true);
    expect(steady.lowestBank).toBe(700);
  });

  it('cannot judge a burstable size without figures, and has nothing to say of the others', () => {
    const judge = createCreditJudge(
      demandOf(() => 0.2),
      d8,
    );
    expect(judge.judge(size('Standard_B4s_v2', 4))?.shortfall).toBe('unknown');
    expect(judge.judge(size('Standard_D4s_v5', 4))).toBeNull();
  });
});
