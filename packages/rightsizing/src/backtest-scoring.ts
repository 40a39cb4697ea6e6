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
  // Only needed when the futures carry memory.
  memoryGiB?: number;
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
  // Used memory in GiB at the same steps, when known (the real traces have none): a step whose
  // memory is above 90% of the size's is overloaded too.
  memoryGiB?: Float64Array;
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

// How hot a step runs on a size: the higher of its CPU and memory percent.
function readLoadPct(machine: MachineFuture, step: number, size: ScoringSize): number {
  // Scaled as the README says (avg × old vCPUs / new vCPUs), the ratio first so the old size reads exact.
  const cpuPct = machine.future[step]! * (machine.current.vcpus / size.vcpus);
  const memory = machine.memoryGiB?.[step];
  if (memory === undefined || !size.memoryGiB) return cpuPct;
  return Math.max(cpuPct, (memory / size.memoryGiB) * 100);
}

function countOverloaded(machine: MachineFuture, size: ScoringSize): number {
  let count = 0;
  for (let step = 0; step < machine.future.length; step += 1) {
    if (readLoadPct(machine, step, size) > overloadThresholdPct) count += 1;
  }
  return count;
}

export function findOracleSize(machine: MachineFuture, sizes: readonly ScoringSize[]): ScoringSize {
  const byPrice = [...sizes].sort((left, right) => left.hourlyUsd - right.hourlyUsd);
  const allowed = oracleOverloadShare * machine.future.length;
  return byPrice.find((size) => countOverloaded(machine, size) <= allowed) ?? byPrice.at(-1)!;
}

export function scoreMachine(
  machine: MachineFuture,
  decided: ScoringSize,
  sizes: readonly ScoringSize[],
  guard: ScoringGuard | null,
): MachineScore {
  const { future, current } = machine;
  const hoursPerStep = machine.stepMinutes / 60;
  const isResizedDown = decided.hourlyUsd < current.hourlyUsd;
  let overloadedSteps = 0;
  let stepsOnNewSize = future.length;
  let isRolledBack = false;
  let hotRun = 0;
  for (let step = 0; step < future.length; step += 1) {
    const reading = readLoadPct(machine, step, isRolledBack ? current : decided);
    if (reading > overloadThresholdPct) overloadedSteps += 1;
    if (isRolledBack || !guard || !isResizedDown) continue;
    hotRun = reading > guard.overloadPct ? hotRun + 1 : 0;
    if (hotRun >= guard.consecutiveSteps) {
      // The hot steps that tripped the guard count as overloaded even below the judge's 90%.
      for (let back = step - hotRun + 1; back <= step; back += 1) {
        if (readLoadPct(machine, back, decided) <= overloadThresholdPct) overloadedSteps += 1;
      }
      isRolledBack = true;
      stepsOnNewSize = step + 1;
    }
  }
  const oracle = findOracleSize(machine, sizes);
  const baselineShare = countOverloaded(machine, current) / future.length;
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
