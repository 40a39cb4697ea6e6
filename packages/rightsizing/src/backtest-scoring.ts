// The backtest's judge, as ../shared/backtest/README.md states it: on the future readings, a step is
// overloaded when its average, scaled to the new size (avg × old vCPUs / new vCPUs), is above 90%,
// or when a burstable size is throttled (its credits, simulated from the resize on, run out); the
// saving is the price difference over the hours on the new size; the oracle takes, per machine, the
// cheapest size with at most 0.5% of its future steps overloaded. With a guard, a machine made
// smaller or moved to a burstable size returns to its old size after that many consecutive hot steps.
import { isBurstable } from './burstable-sizes';
import { stepCredits, type CreditTerms } from './cpu-credits';
import { oracleOverloadShare, overloadThresholdPct } from './service-level';

export interface ScoringSize {
  name: string;
  vcpus: number;
  hourlyUsd: number;
  // Only needed when the futures carry memory.
  memoryGiB?: number;
  // A burstable size's credit terms (the catalogue's or Azure's published ones).
  credits?: CreditTerms | null;
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
  // When the current size is burstable: its bank as the future starts (full when not said, as on a
  // VM that has run below its base for a day).
  currentCredits?: number;
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
  // Steps a burstable size was held to what its credits paid for.
  throttledSteps: number;
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
  throttledSteps: number;
  machines: MachineScore[];
}

// A throttled step reads as infinitely hot: overloaded, and above any guard's limit.
const throttledPct = Number.POSITIVE_INFINITY;

// How hot each future step runs on a size from step `from`: the higher of its CPU and memory percent,
// or throttledPct where a burstable size's bank (starting at `startBank`) cannot pay for the demand.
function readLoads(machine: MachineFuture, size: ScoringSize, startBank: number, from = 0): Float64Array {
  const { future, memoryGiB } = machine;
  const loads = new Float64Array(future.length);
  // Scaled as the README says (avg × old vCPUs / new vCPUs), the ratio first so the old size reads exact.
  const ratio = machine.current.vcpus / size.vcpus;
  const terms = size.credits ?? null;
  let bank = startBank;
  for (let step = from; step < future.length; step += 1) {
    if (terms) {
      const credit = stepCredits(
        bank,
        (future[step]! * machine.current.vcpus) / 100,
        size.vcpus,
        terms,
        machine.stepMinutes,
      );
      bank = credit.bank;
      if (credit.isThrottled) {
        loads[step] = throttledPct;
        continue;
      }
    }
    const cpuPct = future[step]! * ratio;
    const memory = memoryGiB?.[step];
    loads[step] =
      memory === undefined || !size.memoryGiB ? cpuPct : Math.max(cpuPct, (memory / size.memoryGiB) * 100);
  }
  return loads;
}

// A new size's bank starts at its initial credits; the size the machine has keeps the bank it has.
function readStartBank(machine: MachineFuture, size: ScoringSize): number {
  if (!size.credits) return 0;
  if (size.name === machine.current.name) return machine.currentCredits ?? size.credits.maxBankedCredits;
  return size.credits.initialCredits;
}

function countOverloaded(loads: Float64Array, from = 0, to = loads.length): number {
  let count = 0;
  for (let step = from; step < to; step += 1) if (loads[step]! > overloadThresholdPct) count += 1;
  return count;
}

function countThrottled(loads: Float64Array, from = 0, to = loads.length): number {
  let count = 0;
  for (let step = from; step < to; step += 1) if (loads[step] === throttledPct) count += 1;
  return count;
}

export function findOracleSize(machine: MachineFuture, sizes: readonly ScoringSize[]): ScoringSize {
  const byPrice = [...sizes].sort((left, right) => left.hourlyUsd - right.hourlyUsd);
  const allowed = oracleOverloadShare * machine.future.length;
  return (
    byPrice.find(
      (size) => countOverloaded(readLoads(machine, size, readStartBank(machine, size))) <= allowed,
    ) ?? byPrice.at(-1)!
  );
}

// The README's guard applies to a machine made smaller (fewer vCPUs, or less memory where the future
// carries memory: ../backtest-memory/README.md) or moved to a burstable size.
function isGuarded(machine: MachineFuture, decided: ScoringSize): boolean {
  const { current } = machine;
  if (decided.name === current.name) return false;
  const hasLessMemory =
    machine.memoryGiB !== undefined &&
    decided.memoryGiB !== undefined &&
    current.memoryGiB !== undefined &&
    decided.memoryGiB < current.memoryGiB;
  return (
    decided.vcpus < current.vcpus ||
    hasLessMemory ||
    isBurstable({ name: decided.name, credits: decided.credits })
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
  const loads = readLoads(machine, decided, readStartBank(machine, decided));
  let stepsOnNewSize = future.length;
  let rolledBackAt = -1;
  if (guard && isGuarded(machine, decided)) {
    let hotRun = 0;
    for (let step = 0; step < future.length; step += 1) {
      hotRun = loads[step]! > guard.overloadPct ? hotRun + 1 : 0;
      if (hotRun >= guard.consecutiveSteps) {
        rolledBackAt = step + 1;
        stepsOnNewSize = step + 1;
        break;
      }
    }
  }
  let overloadedSteps = countOverloaded(loads, 0, stepsOnNewSize);
  const throttledSteps = countThrottled(loads, 0, stepsOnNewSize);
  if (rolledBackAt >= 0) {
    // The hot steps that tripped the guard count as overloaded even below the judge's 90%; going
    // back is a resize too, so a burstable old size starts a new bank.
    for (let back = rolledBackAt - guard!.consecutiveSteps; back < rolledBackAt; back += 1) {
      if (loads[back]! <= overloadThresholdPct) overloadedSteps += 1;
    }
    const startBank = current.credits ? current.credits.initialCredits : 0;
    overloadedSteps += countOverloaded(readLoads(machine, current, startBank, rolledBackAt), rolledBackAt);
  }
  const oracle = findOracleSize(machine, sizes);
  const baselineShare =
    countOverloaded(readLoads(machine, current, readStartBank(machine, current))) / future.length;
  return {
    vm: machine.vm,
    decided: decided.name,
    saving: (current.hourlyUsd - decided.hourlyUsd) * stepsOnNewSize * hoursPerStep,
    oracleSize: oracle.name,
    oracleSaving: (current.hourlyUsd - oracle.hourlyUsd) * future.length * hoursPerStep,
    overloadedSteps,
    steps: future.length,
    addedOverloadShare: overloadedSteps / future.length - baselineShare,
    isResizedDown: decided.hourlyUsd < current.hourlyUsd,
    isRolledBack: rolledBackAt >= 0,
    throttledSteps,
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
    throttledSteps: sum((score) => score.throttledSteps),
    machines: scores,
  };
}
