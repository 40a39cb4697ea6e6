// The backtest's judge, as ../shared/backtest/README.md states it: on the future readings, a step is
// overloaded when its average, scaled to the new size (avg × old vCPUs / new vCPUs), is above 90%;
// the saving is the price difference over the hours on the new size; the oracle takes, per
// machine, the cheapest size with at most 0.5% of its future steps overloaded. With a guard, a
// machine made smaller returns to its old size after that many consecutive hot steps.
export const overloadThresholdPct = 90;
export const oracleOverloadShare = 0.005;

export interface ScoringSize {
  name: string;
  vcpus: number;
  hourlyUsd: number;
}

export interface ScoringGuard {
  overloadPct: number;
  consecutiveSteps: number;
}

export interface MachineFuture {
  vm: string;
  current: ScoringSize;
  // Future 5-minute averages in percent of the current size.
  future: Float64Array;
  stepMinutes: number;
}

export interface MachineScore {
  vm: string;
  decided: string;
  saving: number;
  oracleSize: string;
  oracleSaving: number;
  overloadedSteps: number;
  steps: number;
  // Overloaded share on the decided size minus the share on the size it had.
  addedOverloadShare: number;
  isResizedDown: boolean;
  isRolledBack: boolean;
}

export interface FleetScore {
  savingShareOfOracle: number;
  saving: number;
  oracleSaving: number;
  overloadedStepShare: number;
  worstAddedOverloadShare: number;
  worstVm: string | null;
  resizedDown: number;
  rollbacks: number;
  machines: MachineScore[];
}

function countOverloaded(future: Float64Array, scale: number): number {
  let count = 0;
  for (const reading of future) if (reading * scale > overloadThresholdPct) count += 1;
  return count;
}

export function findOracleSize(machine: MachineFuture, sizes: readonly ScoringSize[]): ScoringSize {
  const byPrice = [...sizes].sort((left, right) => left.hourlyUsd - right.hourlyUsd);
  const allowed = oracleOverloadShare * machine.future.length;
  return (
    byPrice.find((size) => countOverloaded(machine.future, machine.current.vcpus / size.vcpus) <= allowed) ??
    byPrice.at(-1)!
  );
}

export function scoreMachine(
  machine: MachineFuture,
  decided: ScoringSize,
  sizes: readonly ScoringSize[],
  guard: ScoringGuard | null,
): MachineScore {
  const { future, current } = machine;
  const hoursPerStep = machine.stepMinutes / 60;
  const scale = current.vcpus / decided.vcpus;
  const isResizedDown = decided.vcpus < current.vcpus;
  let overloadedSteps = 0;
  let stepsOnNewSize = future.length;
  let isRolledBack = false;
  let hotRun = 0;
  for (let step = 0; step < future.length; step += 1) {
    const reading = future[step]! * (isRolledBack ? 1 : scale);
    if (reading > overloadThresholdPct) overloadedSteps += 1;
    if (isRolledBack || !guard || !isResizedDown) continue;
    hotRun = reading > guard.overloadPct ? hotRun + 1 : 0;
    if (hotRun >= guard.consecutiveSteps) {
      // The hot steps that tripped the guard count as overloaded even below the judge's 90%.
      for (let back = step - hotRun + 1; back <= step; back += 1) {
        if (future[back]! * scale <= overloadThresholdPct) overloadedSteps += 1;
      }
      isRolledBack = true;
      stepsOnNewSize = step + 1;
    }
  }
  const oracle = findOracleSize(machine, sizes);
  const baselineShare = countOverloaded(future, 1) / future.length;
  return {
    vm: machine.vm,
    decided: decided.name,
    saving: (current.hourlyUsd - decided.hourlyUsd) * stepsOnNewSize * hoursPerStep,
    oracleSize: oracle.name,
    oracleSaving: (current.hourlyUsd - oracle.hourlyUsd) * future.length * hoursPerStep,
    overloadedSteps,
    steps: future.length,
    addedOverloadShare: overloadedSteps / future.length - baselineShare,
    isResizedDown,
    isRolledBack,
  };
}

export function scoreFleet(
  machines: readonly MachineFuture[],
  decisions: ReadonlyMap<string, ScoringSize>,
  sizes: readonly ScoringSize[],
  guard: ScoringGuard | null,
): FleetScore {
  const scores = machines.map((machine) =>
    scoreMachine(machine, decisions.get(machine.vm) ?? machine.current, sizes, guard),
  );
  const sum = (pick: (score: MachineScore) => number) =>
    scores.reduce((total, score) => total + pick(score), 0);
  const worst = scores.reduce<MachineScore | null>(
    (found, score) => (!found || score.addedOverloadShare > found.addedOverloadShare ? score : found),
    null,
  );
  const saving = sum((score) => score.saving);
  const oracleSaving = sum((score) => score.oracleSaving);
  return {
    savingShareOfOracle: oracleSaving === 0 ? 0 : saving / oracleSaving,
    saving,
    oracleSaving,
    overloadedStepShare:
      sum((score) => score.overloadedSteps) /
      Math.max(
        1,
        sum((score) => score.steps),
      ),
    worstAddedOverloadShare: Math.max(0, worst?.addedOverloadShare ?? 0),
    worstVm: worst?.vm ?? null,
    resizedDown: scores.filter((score) => score.isResizedDown).length,
    rollbacks: scores.filter((score) => score.isRolledBack).length,
    machines: scores,
  };
}
