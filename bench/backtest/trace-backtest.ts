// `npm run backtest -- --trace FILE --fleet FILE --skus FILE --history-days 14 --decisions OUT.json`
// Runs the engine's own analyseVm on real Azure VM traces (../shared/backtest): decides a size per
// machine and method from the first days, writes the decisions, and, when the trace holds later
// days, scores every method on them with the README's rules, the oracle beside them, and counts how
// often each method's decision flips when replayed day by day.
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { gunzipSync } from 'node:zlib';
import type { SizeOption, SizePrice, VmAnalysisInput } from '@cloudtrim/rightsizing/analysis.types';
import { analyseVm } from '@cloudtrim/rightsizing/analyse-vm';
import { scoreFleet, type MachineFuture, type ScoringSize } from '@cloudtrim/rightsizing/backtest-scoring';
import { readCreditTerms } from '@cloudtrim/rightsizing/burstable-sizes';
import { guardRule } from '@cloudtrim/rightsizing/guard-rule';
import { predictionMethodIds, type PredictionMethodId } from '@cloudtrim/rightsizing/prediction-methods';
import { printTable } from '../support/table';

const defaultMethod: PredictionMethodId = 'cloudtrim-forecast';
const stepMinutes = 5;
const stepsPerDay = (24 * 60) / stepMinutes;

const { values: args } = parseArgs({
  options: {
    trace: { type: 'string' },
    fleet: { type: 'string' },
    skus: { type: 'string' },
    'history-days': { type: 'string', default: '14' },
    decisions: { type: 'string' },
    'no-flips': { type: 'boolean', default: false },
  },
});
if (!args.trace || !args.fleet || !args.skus) {
  console.error(
    'Usage: npm run backtest -- --trace FILE --fleet FILE --skus FILE [--history-days 14] [--decisions OUT.json]',
  );
  process.exit(2);
}
const historyDays = Number(args['history-days']);
if (!Number.isInteger(historyDays) || historyDays < 7) {
  console.error('--history-days must be a whole number of days, at least 7');
  process.exit(2);
}

const startedAt = performance.now();
const catalogue = readSkus(args.skus);
const fleet = readCsv(args.fleet).map(([vm, size]) => ({ vm: vm!, size: size! }));
const traces = readTrace(args.trace);
const historySteps = historyDays * stepsPerDay;

interface Machine {
  vm: string;
  size: SizeOption;
  average: Float64Array;
  maximum: Float64Array;
}

const machines: Machine[] = fleet.map(({ vm, size }) => {
  const trace = traces.get(vm);
  const option = catalogue.sizes.find((candidate) => candidate.name === size);
  if (!trace) throw new Error(`${vm} is in the fleet but not in the trace`);
  if (!option) throw new Error(`${vm} runs ${size}, which the size catalogue does not list`);
  return { vm, size: option, ...trace };
});

function buildInput(
  machine: Machine,
  from: number,
  to: number,
  previousTargetSize: string | null,
): VmAnalysisInput {
  return {
    vmId: machine.vm,
    currentSize: machine.size.name,
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
    cpu: {
      startMs: from * stepMinutes * 60_000,
      stepMinutes,
      average: machine.average.subarray(from, to),
      maximum: machine.maximum.subarray(from, to),
    },
    sizes: catalogue.sizes,
    prices: catalogue.prices,
    previousTargetSize,
    now: to * stepMinutes * 60_000,
  };
}

function decide(
  machine: Machine,
  method: PredictionMethodId,
  from: number,
  to: number,
  previous: string | null,
): string {
  const analysis = analyseVm(buildInput(machine, from, to, previous), { method });
  return (
    analysis.proposals.find((proposal) => proposal.kind === 'resize')?.targetSize ??
    previous ??
    machine.size.name
  );
}

const decisions = Object.fromEntries(
  predictionMethodIds.map((method) => [
    method,
    Object.fromEntries(
      machines.map((machine) => [machine.vm, decide(machine, method, 0, historySteps, null)]),
    ),
  ]),
) as Record<PredictionMethodId, Record<string, string>>;
const guard = { overloadPct: guardRule.overloadPct, consecutiveSteps: guardRule.consecutiveSteps };
if (args.decisions) {
  writeFileSync(
    args.decisions,
    `${JSON.stringify({ default: defaultMethod, methods: decisions, guard }, null, 2)}\n`,
  );
  console.log(`Decisions for ${machines.length} machines written to ${args.decisions}`);
}

const futureSteps = Math.min(...machines.map((machine) => machine.average.length)) - historySteps;
if (futureSteps <= 0) {
  console.log('The trace holds only the history: decisions made, nothing to score.');
  process.exit(0);
}

const scoringSizes: ScoringSize[] = catalogue.sizes.map((size) => ({
  name: size.name,
  vcpus: size.vcpus,
  hourlyUsd: catalogue.prices.get(size.name)!.hourlyPrice,
  credits: readCreditTerms(size),
}));
const futures: MachineFuture[] = machines.map((machine) => ({
  vm: machine.vm,
  current: scoringSizes.find((size) => size.name === machine.size.name)!,
  future: machine.average.subarray(historySteps, historySteps + futureSteps),
  stepMinutes,
}));

// Flips: decide again each day with the last `historyDays` days, the previous decision as the
// starting point, as the product re-analyses after each collection.
function countFlips(method: PredictionMethodId): string {
  let flips = 0;
  let restless = 0;
  const replayDays = Math.floor(futureSteps / stepsPerDay);
  for (const machine of machines) {
    let previous = decisions[method][machine.vm]!;
    let machineFlips = 0;
    for (let day = 1; day <= replayDays; day += 1) {
      const to = historySteps + day * stepsPerDay;
      const next = decide(machine, method, to - historySteps, to, previous);
      if (next !== previous) machineFlips += 1;
      previous = next;
    }
    flips += machineFlips;
    if (machineFlips > 1) restless += 1;
  }
  return `${flips} (${restless} VMs > 1)`;
}

const percent = (share: number) => `${(share * 100).toFixed(2)}%`;
const rows: string[][] = [];
for (const method of predictionMethodIds) {
  const decided = new Map(
    Object.entries(decisions[method]).map(([vm, size]) => [
      vm,
      scoringSizes.find((option) => option.name === size)!,
    ]),
  );
  // Every method with the guard the decisions declare (as the judge runs them) and without it (as
  // Advisor runs: nothing takes a resize back), so the guard's share of the result shows.
  for (const isGuarded of [true, false]) {
    const score = scoreFleet(futures, decided, scoringSizes, isGuarded ? guard : null);
    rows.push([
      `${method}${isGuarded ? ' + guard' : ''}${method === defaultMethod && isGuarded ? ' (default)' : ''}`,
      score.savingShareOfOracle.toFixed(3),
      `$${score.saving.toFixed(0)}`,
      percent(score.overloadedStepShare),
      `${percent(score.worstAddedOverloadShare)} (${score.worstVm})`,
      String(score.resizedDown),
      `${score.rollbacks} (${percent(score.resizedDown === 0 ? 0 : score.rollbacks / score.resizedDown)})`,
      isGuarded ? (args['no-flips'] ? '-' : countFlips(method)) : '',
    ]);
  }
}
const oracle = scoreFleet(futures, new Map(), scoringSizes, null);
const header = [
  'method',
  'saving/oracle',
  'saving',
  'overloaded steps',
  'worst machine added',
  'resized down',
  'rollbacks',
  'flips',
];
console.log(
  `\n${machines.length} machines, decided on days 0-${historyDays - 1}, judged on ${(futureSteps / stepsPerDay).toFixed(1)} later days; ` +
    `oracle saving $${oracle.oracleSaving.toFixed(0)}; guard ${guard.overloadPct}% × ${guard.consecutiveSteps} steps`,
);
printTable(header, rows);
console.log(
  `targets for the default: saving/oracle ≥ 0.90, overloaded steps ≤ 0.50%, worst machine ≤ 2.00%, ` +
    `rollbacks ≤ 10% of resized, beat advisor-p95 on saving and overload; ${((performance.now() - startedAt) / 1000).toFixed(1)} s`,
);

function readText(file: string): string {
  const bytes = readFileSync(file);
  return (file.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8');
}

function readCsv(file: string): string[][] {
  const [, ...lines] = readText(file).trim().split(/\r?\n/);
  return lines.map((line) => line.split(','));
}

function readTrace(file: string): Map<string, { average: Float64Array; maximum: Float64Array }> {
  const byVm = new Map<string, { average: number[]; maximum: number[] }>();
  for (const [vm, step, average, maximum] of readCsv(file)) {
    let series = byVm.get(vm!);
    if (!series) byVm.set(vm!, (series = { average: [], maximum: [] }));
    series.average[Number(step)] = Number(average);
    series.maximum[Number(step)] = Number(maximum);
  }
  // A step the file skips is a missing reading.
  const toArray = (values: number[]) =>
    Float64Array.from(values, (value) => (value === undefined ? Number.NaN : value));
  return new Map(
    [...byVm].map(([vm, series]) => [
      vm,
      { average: toArray(series.average), maximum: toArray(series.maximum) },
    ]),
  );
}

function readSkus(file: string): { sizes: SizeOption[]; prices: Map<string, SizePrice> } {
  const sizes: SizeOption[] = [];
  const prices = new Map<string, SizePrice>();
  for (const [name, vcpus, memoryGiB, hourlyUsd, baseCpuPct, maxBankedCredits, initialCredits] of readCsv(
    file,
  )) {
    // skus-burstable.csv's credit columns, set on the B sizes only (percent of one vCPU for the base).
    const credits = baseCpuPct
      ? {
          baseVcpus: Number(baseCpuPct) / 100,
          maxBankedCredits: Number(maxBankedCredits),
          initialCredits: Number(initialCredits),
        }
      : null;
    sizes.push({
      name: name!,
      family: name!.replace(/^Standard_[A-Z]+\d+/, 'Standard_D'),
      vcpus: Number(vcpus),
      memoryGiB: Number(memoryGiB),
      maxDataDisks: null,
      maxNics: null,
      hasPremiumIo: true,
      hasAcceleratedNetworking: true,
      isAvailable: true,
      credits,
    });
    prices.set(name!, {
      hourlyPrice: Number(hourlyUsd),
      currencyCode: 'USD',
      readAt: '2017-01-01',
      source: 'the backtest size catalogue',
    });
  }
  return { sizes, prices };
}
