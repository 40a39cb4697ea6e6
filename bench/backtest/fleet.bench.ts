// The backtest's judgement on a seeded emulator fleet, where the future is known exactly: every
// running VM of every workload model, memory included. The history is the model's 14 days before
// `now` as the server stores it (hourly average and maximum of CPU percent, capped at 100 as Azure
// reports it, and of used memory); the future is its next 14 days at 5-minute steps, from the
// emulator's ground truth (`fleet.demandAt`). Each method decides through the same analyseVm, and
// is scored with the same rules as the real traces (backtest-scoring.ts), memory being a second
// way to overload. Prices and sizes are the VM's region's; the oracle knows the future.
import { computeLinuxHourlyPrice } from '@cloudtrim/azure-emulator/catalog/price.catalog';
import {
  findVirtualMachineSize,
  listSizesOfferedInRegion,
  type VirtualMachineSize,
} from '@cloudtrim/azure-emulator/catalog/sku.catalog';
import { generateFleet } from '@cloudtrim/azure-emulator/fleet/fleet.generator';
import { analyseVm } from '@cloudtrim/rightsizing/analyse-vm';
import { readCreditTerms } from '@cloudtrim/rightsizing/burstable-sizes';
import type { SizeOption, SizePrice, VmAnalysisInput } from '@cloudtrim/rightsizing/analysis.types';
import {
  scoreFleet,
  type MachineFuture,
  type MachineScore,
  type ScoringSize,
} from '@cloudtrim/rightsizing/backtest-scoring';
import { guardRule } from '@cloudtrim/rightsizing/guard-rule';
import { predictionMethodIds, type PredictionMethodId } from '@cloudtrim/rightsizing/prediction-methods';
import { printTable } from '../support/table';

const fleetSize = Number(process.env.BENCH_FLEET_SIZE ?? 600);
const seed = 42;
// The history ends and the future starts here (a Monday, 00:00 UTC).
const nowMs = Date.UTC(2026, 10, 16);
const days = 14;
const stepMinutes = 5;
const stepsPerHour = 60 / stepMinutes;
const steps = days * 24 * stepsPerHour;
const stepMs = stepMinutes * 60_000;
const defaultMethod: PredictionMethodId = 'cloudtrim-forecast';
const guard = { overloadPct: guardRule.overloadPct, consecutiveSteps: guardRule.consecutiveSteps };

const startedAt = performance.now();
const fleet = generateFleet({ seed, fleetSize });
const running = fleet
  .summarizeVirtualMachines(new Date(nowMs))
  .filter((machine) => machine.powerState === 'running');

interface RegionCatalogue {
  sizes: SizeOption[];
  prices: Map<string, SizePrice>;
  scoringSizes: ScoringSize[];
}
const catalogues = new Map<string, RegionCatalogue>();
function readCatalogue(region: string): RegionCatalogue {
  let catalogue = catalogues.get(region);
  if (catalogue) return catalogue;
  const offered = listSizesOfferedInRegion(region);
  catalogue = {
    sizes: offered.map(toSizeOption),
    prices: new Map(
      offered.map((size) => [
        size.name,
        {
          hourlyPrice: computeLinuxHourlyPrice(size, region),
          currencyCode: 'USD',
          readAt: new Date(nowMs).toISOString(),
          source: 'the emulator price list',
        },
      ]),
    ),
    scoringSizes: offered.map((size) => ({
      name: size.name,
      vcpus: size.vcpus,
      memoryGiB: size.memoryGiB,
      hourlyUsd: computeLinuxHourlyPrice(size, region),
      credits: readCreditTerms(size),
    })),
  };
  catalogues.set(region, catalogue);
  return catalogue;
}

function toSizeOption(size: VirtualMachineSize): SizeOption {
  return {
    name: size.name,
    family: size.family,
    vcpus: size.vcpus,
    memoryGiB: size.memoryGiB,
    maxDataDisks: size.maxDataDisks,
    maxNics: size.maxNetworkInterfaces,
    hasPremiumIo: size.isPremiumIoSupported,
    hasAcceleratedNetworking: size.isAcceleratedNetworkingEnabled,
    isAvailable: true,
  };
}

interface Machine {
  id: string;
  kind: string;
  region: string;
  size: VirtualMachineSize;
  input: VmAnalysisInput;
  future: MachineFuture;
}

// One pass over the ground truth per machine: the history folded into hours, the future kept at
// 5-minute steps (demand as a percent of the current size, not capped: the judge scales it). On a B
// size the history is what Azure Monitor shows: CPU held to what the credits allow, and the credits
// remaining (the hour's lowest as the series' value, as the server reads them).
const at = new Date(0);
const machines: Machine[] = running.map((summary) => {
  const size = findVirtualMachineSize(summary.size)!;
  const catalogue = readCatalogue(summary.location);
  const isBurstable = readCreditTerms(size) !== null;
  const hours = days * 24;
  const cpuAverage = new Float64Array(hours);
  const cpuMaximum = new Float64Array(hours);
  const memoryAverage = new Float64Array(hours);
  const memoryMaximum = new Float64Array(hours);
  const creditsLowest = new Float64Array(hours).fill(Number.POSITIVE_INFINITY);
  const creditsAverage = new Float64Array(hours);
  for (let step = 0; step < steps; step += 1) {
    at.setTime(nowMs - (steps - step) * stepMs);
    const demand = fleet.demandAt(summary.id, at);
    const cpuPct = isBurstable
      ? (fleet.cpuPercentAt(summary.id, at) ?? 0)
      : Math.min(100, (demand.cpuCores / size.vcpus) * 100);
    const memoryGiB = Math.min(size.memoryGiB, demand.memoryGiB);
    const hour = Math.floor(step / stepsPerHour);
    cpuAverage[hour] = cpuAverage[hour]! + cpuPct / stepsPerHour;
    cpuMaximum[hour] = Math.max(cpuMaximum[hour]!, cpuPct);
    memoryAverage[hour] = memoryAverage[hour]! + memoryGiB / stepsPerHour;
    memoryMaximum[hour] = Math.max(memoryMaximum[hour]!, memoryGiB);
    if (isBurstable) {
      const remaining = fleet.creditsAt(summary.id, at)?.remaining ?? 0;
      creditsLowest[hour] = Math.min(creditsLowest[hour]!, remaining);
      creditsAverage[hour] = creditsAverage[hour]! + remaining / stepsPerHour;
    }
  }
  const future = new Float64Array(steps);
  const futureMemory = new Float64Array(steps);
  for (let step = 0; step < steps; step += 1) {
    at.setTime(nowMs + step * stepMs);
    const demand = fleet.demandAt(summary.id, at);
    future[step] = (demand.cpuCores / size.vcpus) * 100;
    futureMemory[step] = demand.memoryGiB;
  }
  const historyStartMs = nowMs - steps * stepMs;
  return {
    id: summary.id,
    kind: summary.workloadKind,
    region: summary.location,
    size,
    input: {
      vmId: summary.name,
      currentSize: size.name,
      region: summary.location,
      osType: 'Linux',
      runningShare: 1,
      activeHours: null,
      requirements: {
        dataDiskCount: null,
        nicCount: null,
        usesPremiumDisk: null,
        usesAcceleratedNetworking: null,
      },
      cpu: { startMs: historyStartMs, stepMinutes: 60, average: cpuAverage, maximum: cpuMaximum },
      memoryUsedGiB: {
        startMs: historyStartMs,
        stepMinutes: 60,
        average: memoryAverage,
        maximum: memoryMaximum,
      },
      ...(isBurstable
        ? {
            cpuCreditsRemaining: {
              startMs: historyStartMs,
              stepMinutes: 60,
              average: creditsLowest,
              maximum: creditsAverage,
            },
          }
        : {}),
      sizes: catalogue.sizes,
      prices: catalogue.prices,
      now: nowMs,
    },
    future: {
      vm: summary.id,
      current: catalogue.scoringSizes.find((option) => option.name === size.name)!,
      future,
      memoryGiB: futureMemory,
      stepMinutes,
      ...(isBurstable
        ? { currentCredits: fleet.creditsAt(summary.id, new Date(nowMs - stepMs))?.remaining ?? 0 }
        : {}),
    },
  };
});
const sampledAt = performance.now();

// Each method's size per machine: its resize target, else the size it has (a shutdown or a
// schedule is not a size, and the ground truth knows no network to judge one by).
const decisions = new Map<PredictionMethodId, Map<string, string>>();
for (const method of predictionMethodIds) {
  const decided = new Map<string, string>();
  for (const machine of machines) {
    const analysis = analyseVm(machine.input, { method });
    const resize = analysis.proposals.find((proposal) => proposal.kind === 'resize');
    decided.set(machine.id, resize?.targetSize ?? machine.size.name);
  }
  decisions.set(method, decided);
}
const analysedAt = performance.now();

// Prices and the oracle's choices are per region, so each region is scored on its own and summed.
function scoreMethod(method: PredictionMethodId, isGuarded: boolean): MachineScore[] {
  const scores: MachineScore[] = [];
  for (const [region, catalogue] of catalogues) {
    const inRegion = machines.filter((machine) => machine.region === region);
    const decided = new Map(
      inRegion.map((machine) => [
        machine.id,
        catalogue.scoringSizes.find((size) => size.name === decisions.get(method)!.get(machine.id))!,
      ]),
    );
    const futures = inRegion.map((machine) => machine.future);
    scores.push(...scoreFleet(futures, decided, catalogue.scoringSizes, isGuarded ? guard : null).machines);
  }
  return scores;
}

function summarize(scores: readonly MachineScore[]): string[] {
  const sum = (pick: (score: MachineScore) => number) =>
    scores.reduce((total, score) => total + pick(score), 0);
  const oracle = sum((score) => score.oracleSaving);
  const worst = scores.reduce<MachineScore | null>(
    (found, score) => (!found || score.addedOverloadShare > found.addedOverloadShare ? score : found),
    null,
  );
  const resized = scores.filter((score) => score.isResizedDown).length;
  const rollbacks = scores.filter((score) => score.isRolledBack).length;
  // A negative oracle saving means the oracle grows machines the future overloads: no share then.
  return [
    oracle <= 0 ? '-' : (sum((score) => score.saving) / oracle).toFixed(3),
    `$${sum((score) => score.saving).toFixed(0)}`,
    `$${oracle.toFixed(0)}`,
    percent(
      sum((score) => score.overloadedSteps) /
        Math.max(
          1,
          sum((score) => score.steps),
        ),
    ),
    percent(Math.max(0, worst?.addedOverloadShare ?? 0)),
    String(resized),
    `${rollbacks} (${percent(resized === 0 ? 0 : rollbacks / resized)})`,
  ];
}

function percent(share: number): string {
  return `${(share * 100).toFixed(2)}%`;
}

const rows: string[][] = [];
for (const method of predictionMethodIds) {
  for (const isGuarded of [true, false]) {
    const label = `${method}${isGuarded ? ' + guard' : ''}${method === defaultMethod && isGuarded ? ' (default)' : ''}`;
    rows.push([label, ...summarize(scoreMethod(method, isGuarded))]);
  }
}
// The default (guarded) beside Advisor's rule (as Advisor runs it, unguarded), per workload model.
const kinds = [...new Set(machines.map((machine) => machine.kind))].sort();
for (const method of [defaultMethod, 'advisor-p95'] as const) {
  const scores = scoreMethod(method, method === defaultMethod);
  for (const kind of kinds) {
    const ids = new Set(machines.filter((machine) => machine.kind === kind).map((machine) => machine.id));
    rows.push([
      `  ${kind} (${ids.size}): ${method}`,
      ...summarize(scores.filter((score) => ids.has(score.vm))),
    ]);
  }
}

const header = [
  'method',
  'saving/oracle',
  'saving',
  'oracle saving',
  'overloaded steps',
  'worst added',
  'resized',
  'rollbacks',
];
console.log(
  `Emulator fleet (seed ${seed}): ${machines.length} running VMs in ${catalogues.size} regions, decided on ` +
    `${days} days of hourly CPU and memory, judged on the next ${days} days at ${stepMinutes}-minute steps ` +
    `(CPU or memory above 90% is overloaded); guard ${guard.overloadPct}% × ${guard.consecutiveSteps} steps`,
);
printTable(header, rows);
console.log(
  `ground truth read in ${((sampledAt - startedAt) / 1000).toFixed(1)} s; ` +
    `${predictionMethodIds.length} methods × ${machines.length} VMs analysed in ${((analysedAt - sampledAt) / 1000).toFixed(1)} s`,
);
