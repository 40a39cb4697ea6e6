// The rollback guard: when a virtual machine made smaller runs this hot for this long on its new
// size, the executor restores the previous size at once. The engine owns the rule; the backtest
// declares it and is judged with it.
import { emptyBankCredits } from './cpu-credits';

export interface GuardRule {
  // CPU (or memory) percent of the new size above which a step counts as hot.
  overloadPct: number;
  // How many consecutive hot steps trip the guard.
  consecutiveSteps: number;
  // The length of one step in minutes (the backtest's traces are 5-minute readings).
  stepMinutes: number;
}

// Two hours straight above 80% on the new size: longer than the hour-long fleet-wide spikes the real
// traces show (a patch run saturates every machine whatever its size, and going back would not help),
// shorter than any real change of load, which lasts days.
export const guardRule: GuardRule = { overloadPct: 80, consecutiveSteps: 24, stepMinutes: 5 };

// True when the last `consecutiveSteps` readings (oldest first, percent of the new size) are all hot.
export function isGuardTripped(readings: readonly number[], rule: GuardRule = guardRule): boolean {
  if (readings.length < rule.consecutiveSteps) return false;
  return readings.slice(-rule.consecutiveSteps).every((reading) => reading > rule.overloadPct);
}

// On a burstable size a VM held to its base reads a low CPU, so its CPU never looks hot: a step whose
// CPU credits had run out (CPU Credits Remaining, averaged over the step, empty: the VM ran at its
// base throughout, wanting at least that) counts as hot, as the backtest counts a throttled step
// above any limit.

// True when the last `consecutiveSteps` credit readings (oldest first, one per step) were all empty.
export function isThrottleTripped(creditSteps: readonly number[], rule: GuardRule = guardRule): boolean {
  return isGuardTripped(
    creditSteps.map((credits) => (credits < emptyBankCredits ? Number.POSITIVE_INFINITY : 0)),
    rule,
  );
}
