import { describe, expect, it } from 'vitest';
import { bankedPerHour, runCredits, stepCredits, type CreditTerms } from './cpu-credits';

// Standard_B2s as skus-burstable.csv gives it: base 40% of one vCPU, up to 576 credits, 60 to start.
const b2s: CreditTerms = { baseVcpus: 0.4, maxBankedCredits: 576, initialCredits: 60 };

describe('CPU credits (the backtest README rule, 5-minute steps)', () => {
  it('banks the base less what ran: 1 busy vCPU on a B2s spends 3 credits a step', () => {
    // cap = min(2, 0.4 + 60 / 5) = 2; bank = 60 + (0.4 − 1) × 5 = 57.
    expect(stepCredits(60, 1, 2, b2s, 5)).toEqual({ bank: 57, ranVcpus: 1, isThrottled: false });
  });

  it('banks up to the maximum only', () => {
    // 0.1 busy earns (0.4 − 0.1) × 5 = 1.5 a step.
    expect(stepCredits(100, 0.1, 2, b2s, 5).bank).toBeCloseTo(101.5);
    expect(stepCredits(575, 0.1, 2, b2s, 5).bank).toBe(576);
  });

  it('throttles to base + bank / 5 when the demand is above it, and empties the bank', () => {
    // bank 1: cap = 0.4 + 1 / 5 = 0.6 < 1 busy.
    const step = stepCredits(1, 1, 2, b2s, 5);
    expect(step.isThrottled).toBe(true);
    expect(step.bank).toBe(0);
    expect(step.ranVcpus).toBeCloseTo(0.6);
    // Empty: the base only.
    expect(stepCredits(0, 1, 2, b2s, 5).ranVcpus).toBeCloseTo(0.4);
  });

  it('a cap at every vCPU is never a throttle, even for demand beyond the size', () => {
    // cap = min(2, 0.4 + 576 / 5) = 2: the 90% rule judges that step, not the credits.
    const step = stepCredits(576, 3, 2, b2s, 5);
    expect(step.isThrottled).toBe(false);
    expect(step.ranVcpus).toBe(2);
    expect(step.bank).toBeCloseTo(576 + (0.4 - 2) * 5);
  });

  it('runs out after 20 steps of 1 busy vCPU from a new bank, then throttles every step', () => {
    const demand = new Float64Array(30).fill(1);
    const run = runCredits(demand, 2, b2s, 5, b2s.initialCredits);
    // 60 / 3 = 20 steps to empty; the 10 after are throttled.
    expect(run.throttledSteps).toBe(10);
    expect(run.lowestBank).toBe(0);
    expect(run.endBank).toBe(0);
  });

  it('skips missing readings, scales the demand and reports the lowest bank', () => {
    const demand = Float64Array.from([0.5, Number.NaN, 0.5, 0.2]);
    // × 2: 1 busy twice (−3, −3), then 0.4 (0): 60 → 57 → 54 → 54.
    const run = runCredits(demand, 2, b2s, 5, 60, 2);
    expect(run.throttledSteps).toBe(0);
    expect(run.lowestBank).toBeCloseTo(54);
    expect(run.endBank).toBeCloseTo(54);
  });

  it('a base of b vCPUs banks b × 60 credits an hour', () => {
    expect(bankedPerHour(b2s)).toBeCloseTo(24);
  });
});
