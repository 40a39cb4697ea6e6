// `npm run backtest` runs the engine's own analyseVm on the real traces of ../shared: decides a size
// per machine and method from the first days, and, when the traces hold later days, scores every
// method on them with the READMEs' rules (CPU, and memory where the traces carry it), the oracle
// beside them, how often each method's decision flips when replayed day by day, and the spread of
// each figure across folds of the machines (cross-validation). Without arguments it runs both
// folders: ../shared/backtest (Azure, CPU only; skus.csv and skus-burstable.csv) and
// ../shared/backtest-memory (Bitbrains, CPU and memory; skus-memory.csv).
// One set: `npm run backtest -- --trace FILE | --trace-dir DIR --fleet FILE --skus FILE
// --history-days 14 --decisions OUT.json`.
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { gunzipSync } from 'node:zlib';
import type { SizeOption, SizePrice, VmAnalysisInput } from '@cloudtrim/rightsizing/analysis.types';
import { analyseVm } from '@cloudtrim/rightsizing/analyse-vm';
import {
  scoreFleet,
  type FleetScore,
  type MachineScore,
  type MachineFuture,
  type ScoringSize,
} from '@cloudtrim/rightsizing/backtest-scoring';
import { readCreditTerms } from '@cloudtrim/rightsizing/burstable-sizes';
import { guardRule } from '@cloudtrim/rightsizing/guard-rule';
import { sizingConfig } from '@cloudtrim/rightsizing/sizing-methods';
import {
  isPredictionMethodId,
  predictionMethodIds,
  type PredictionMethodId,
} from '@cloudtrim/rightsizing/prediction-methods';
import { printTable } from '../support/table';
import { advisorStyleRule, decideAdvisorStyle } from './advisor-style';
import { parseBitbrainsTrace } from './bitbrains-trace';
import { crossValidate, dealFolds } from './cross-validation';

const defaultMethod: PredictionMethodId = 'cloudtrim-forecast';
const stepMinutes = 5;
const stepsPerDay = (24 * 60) / stepMinutes;
const advisorStyleLabel = `advisor-style (P95 CPU ≤ ${advisorStyleRule.cpuPct}%, memory ≤ ${advisorStyleRule.memoryPct}%)`;
// The machines are dealt into this many folds for cross-validation.
const crossValidationFolds = 5;

const { values: args } = parseArgs({
  options: {
    trace: { type: 'string' },
    'trace-dir': { type: 'string' },
    fleet: { type: 'string' },
    skus: { type: 'string' },
    'history-days': { type: 'string', default: '14' },
    decisions: { type: 'string' },
    folds: { type: 'string', default: String(crossValidationFolds) },
    'no-flips': { type: 'boolean', default: false },
  },
});
const usage =
  'Usage: npm run backtest [-- --trace FILE | --trace-dir DIR --fleet FILE --skus FILE [--history-days 14] [--decisions OUT.json] [--folds 5] [--no-flips]]';
const historyDays = Number(args['history-days']);
if (!Number.isInteger(historyDays) || historyDays < 7) {
  console.error('--history-days must be a whole number of days, at least 7');
  process.exit(2);
}
const folds = Number(args.folds);
if (!Number.isInteger(folds) || folds < 2) {
  console.error('--folds must be a whole number, at least 2');
  process.exit(2);
}

interface BacktestSet {
  label: string;
  trace?: string;
  traceDir?: string;
  fleet: string;
  skus: string;
  decisions?: string;
}

const shared = join(import.meta.dirname, '..', '..', '..', 'shared');
const defaultSets: BacktestSet[] = [
  {
    label: 'Azure 2017 (CPU only), Dsv5',
    trace: join(shared, 'backtest', 'azure-2017-a.csv.gz'),
    fleet: join(shared, 'backtest', 'fleet-a.csv'),
    skus: join(shared, 'backtest', 'skus.csv'),
  },
  {
    label: 'Azure 2017 (CPU only), Dsv5 and B-series',
    trace: join(shared, 'backtest', 'azure-2017-a.csv.gz'),
    fleet: join(shared, 'backtest', 'fleet-a.csv'),
    skus: join(shared, 'backtest', 'skus-burstable.csv'),
  },
  {
    label: 'Bitbrains Rnd 2013-8 (CPU and memory), Dsv5, Esv5, Fsv2 and B-series',
    traceDir: join(shared, 'backtest-memory', 'rnd-2013-8'),
    fleet: join(shared, 'backtest-memory', 'fleet.csv'),
    skus: join(shared, 'backtest-memory', 'skus-memory.csv'),
  },
];

interface Machine {
  vm: string;
  size: SizeOption;
  // Percent of the current size's vCPUs, at 5-minute steps.
  average: Float64Array;
  maximum: Float64Array;
  // Used GiB at the same steps, where the trace carries memory.
  memoryGiB: Float64Array | null;
}

interface Catalogue {
  sizes: SizeOption[];
  prices: Map<string, SizePrice>;
}

function runSet(set: BacktestSet): void {
  const startedAt = performance.now();
  const catalogue = readSkus(set.skus);
  const fleet = readCsv(set.fleet).map(([vm, size]) => ({ vm: vm!, size: size! }));
  const historySteps = historyDays * stepsPerDay;
  const findSize = (vm: string, size: string) => {
    const option = catalogue.sizes.find((candidate) => candidate.name === size);
    if (!option) throw new Error(`${vm} runs ${size}, which the size catalogue does not list`);
    return option;
  };
  let machines: Machine[];
  if (set.traceDir) {
    machines = fleet.map(({ vm, size }) => {
      const option = findSize(vm, size);
      const trace = parseBitbrainsTrace(readText(findTraceFile(set.traceDir!, vm)));
      const toPercent = Float64Array.from(trace.cpuVcpus, (vcpus) => (vcpus / option.vcpus) * 100);
      return { vm, size: option, average: toPercent, maximum: toPercent, memoryGiB: trace.memoryGiB };
    });
  } else {
    const traces = readTrace(set.trace!);
    machines = fleet.map(({ vm, size }) => {
      const trace = traces.get(vm);
      if (!trace) throw new Error(`${vm} is in the fleet but not in the trace`);
      return { vm, size: findSize(vm, size), ...trace, memoryGiB: null };
    });
  }

  const decisions = decideAll(machines, catalogue, historySteps);
  const guard = { overloadPct: guardRule.overloadPct, consecutiveSteps: guardRule.consecutiveSteps };
  if (set.decisions) {
    writeFileSync(
      set.decisions,
      `${JSON.stringify({ default: defaultMethod, methods: decisions, guard }, null, 2)}\n`,
    );
    console.log(`Decisions for ${machines.length} machines written to ${set.decisions}`);
  }

  const futureSteps = Math.min(...machines.map((machine) => machine.average.length)) - historySteps;
  // A trace cut after its history can still run a few steps past it on the grid (readings missed
  // within the history push the last ones later): less than a day of future is not judged.
  if (futureSteps < stepsPerDay) {
    console.log(`${set.label}: the traces hold only the history: decisions made, nothing to score.`);
    return;
  }

  const hasMemory = machines.some((machine) => machine.memoryGiB !== null);
  const scoringSizes: ScoringSize[] = catalogue.sizes.map((size) => ({
    name: size.name,
    vcpus: size.vcpus,
    hourlyUsd: catalogue.prices.get(size.name)!.hourlyPrice,
    ...(hasMemory ? { memoryGiB: size.memoryGiB } : {}),
    credits: readCreditTerms(size),
  }));
  const futures: MachineFuture[] = machines.map((machine) => ({
    vm: machine.vm,
    current: scoringSizes.find((size) => size.name === machine.size.name)!,
    future: machine.average.subarray(historySteps, historySteps + futureSteps),
    ...(machine.memoryGiB
      ? { memoryGiB: machine.memoryGiB.subarray(historySteps, historySteps + futureSteps) }
      : {}),
    stepMinutes,
  }));
  // Beside the engine's methods, the Advisor-style rule of ../shared/backtest-memory/README.md.
  const judged: Record<string, Record<string, string>> = {
    ...decisions,
    [advisorStyleLabel]: Object.fromEntries(
      machines.map((machine) => [
        machine.vm,
        decideAdvisorStyle(
          machine.size,
          catalogue.sizes,
          catalogue.prices,
          Float64Array.from(
            machine.average.subarray(0, historySteps),
            (pct) => (pct / 100) * machine.size.vcpus,
          ),
          machine.memoryGiB?.subarray(0, historySteps) ?? null,
          stepsPerDay,
        ),
      ]),
    ),
  };
  const toScoringSizes = (method: string) =>
    new Map(
      Object.entries(judged[method]!).map(([vm, size]) => [
        vm,
        scoringSizes.find((option) => option.name === size)!,
      ]),
    );

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
        const next = decide(machine, catalogue, method, to - historySteps, to, previous);
        if (next !== previous) machineFlips += 1;
        previous = next;
      }
      flips += machineFlips;
      if (machineFlips > 1) restless += 1;
    }
    return `${flips} (${restless} VMs > 1)`;
  }

  const rows: string[][] = [];
  for (const method of Object.keys(judged)) {
    // Every method with the guard the decisions declare (as the judge runs them) and without it (as
    // Advisor runs: nothing takes a resize back), so the guard's share of the result shows.
    for (const isGuarded of [true, false]) {
      const score = scoreFleet(futures, toScoringSizes(method), scoringSizes, isGuarded ? guard : null);
      rows.push([
        `${method}${isGuarded ? ' + guard' : ''}${method === defaultMethod && isGuarded ? ' (default)' : ''}`,
        ...describeScore(score),
        isGuarded ? (args['no-flips'] || !isPredictionMethodId(method) ? '-' : countFlips(method)) : '',
      ]);
    }
  }
  const oracle = scoreFleet(futures, new Map(), scoringSizes, null);
  console.log(
    `\n${set.label}: ${machines.length} machines, decided on days 0-${historyDays - 1}, judged on ${(futureSteps / stepsPerDay).toFixed(1)} later days` +
      `${hasMemory ? ' (CPU or memory above 90% is overloaded)' : ''}; ` +
      `oracle saving $${oracle.oracleSaving.toFixed(0)}; guard ${guard.overloadPct}% × ${guard.consecutiveSteps} steps`,
  );
  printTable([...scoreHeader, 'flips'], rows);

  // Cross-validation: the machines dealt into folds (by their order in the fleet file, every
  // `folds`-th to the same fold); each fold is judged on its own with the same rules, and each
  // method's fit on the other folds (the rule chosen on them, see chooseOnTraining) is judged on it.
  const foldRows: string[][] = [];
  const foldScores = new Map<string, FleetScore[]>();
  for (let fold = 0; fold < folds; fold += 1) {
    const { held } = dealFolds(futures, folds, fold);
    for (const method of Object.keys(judged)) {
      for (const isGuarded of [true, false]) {
        const key = `${method}${isGuarded ? ' + guard' : ''}`;
        const score = scoreFleet(held, toScoringSizes(method), scoringSizes, isGuarded ? guard : null);
        foldScores.set(key, [...(foldScores.get(key) ?? []), score]);
      }
    }
  }
  for (const [key, scores] of foldScores) foldRows.push([key, ...describeSpread(scores)]);
  console.log(
    `cross-validation: ${folds} folds of ${Math.floor(machines.length / folds)}-${Math.ceil(machines.length / folds)} machines, each figure as min / median / max across the folds`,
  );
  printTable(spreadHeader, foldRows);

  // The guard's two constants checked by cross-validation: on each fold, the guard is fitted on the
  // other folds (of the candidates, the one meeting the targets there that saves most; else the one
  // overloading least) and judged on the fold, beside the rule as it stands.
  const defaultDecisions = toScoringSizes(defaultMethod);
  const guardFolds = crossValidate(futures, folds, guardCandidates, (judged, candidate) =>
    scoreFleet(judged, defaultDecisions, scoringSizes, candidate),
  );
  const fitted = guardFolds.map(({ chosen }) => `${chosen.overloadPct}%×${chosen.consecutiveSteps}`);
  const fittedScores = guardFolds.map(({ held }) => held);
  const standingScores = Array.from({ length: folds }, (_, fold) =>
    scoreFleet(dealFolds(futures, folds, fold).held, defaultDecisions, scoringSizes, guard),
  );
  console.log(
    `guard fitted on the other folds, judged on each (candidates ${guardCandidates.map((candidate) => `${candidate.overloadPct}%×${candidate.consecutiveSteps}`).join(', ')}): chosen ${fitted.join(', ')}`,
  );
  printTable(
    [...spreadHeader, 'all held-out machines pooled'],
    [
      [`${defaultMethod} + fitted guard`, ...describeSpread(fittedScores), describePooled(fittedScores)],
      [`${defaultMethod} + guard as set`, ...describeSpread(standingScores), describePooled(standingScores)],
    ],
  );

  // The forecast's own constants checked the same way: the default re-decided with each candidate
  // (the regime drop ratio and the window), fitted on the other folds and judged on each, guard as
  // set; the values as set come first, so a tie keeps them. (The memory threshold is not among
  // them: the history's peak under the overload line is what binds memory.)
  const asSet = {
    regimeDropRatio: sizingConfig.forecast.regimeDropRatio,
    windowDays: sizingConfig.forecast.windowDays,
  };
  const tunables = [
    asSet,
    ...[0.3, 0.4, 0.5]
      .flatMap((regimeDropRatio) => [7, 14].map((windowDays) => ({ regimeDropRatio, windowDays })))
      .filter(
        (tunable) =>
          tunable.regimeDropRatio !== asSet.regimeDropRatio || tunable.windowDays !== asSet.windowDays,
      ),
  ];
  const decidedWith = tunables.map((tunable) => {
    const standing = { ...sizingConfig.forecast };
    Object.assign(sizingConfig.forecast, tunable);
    try {
      return new Map(
        machines.map((machine) => [
          machine.vm,
          scoringSizes.find(
            (size) => size.name === decide(machine, catalogue, defaultMethod, 0, historySteps, null),
          )!,
        ]),
      );
    } finally {
      Object.assign(sizingConfig.forecast, standing);
    }
  });
  const label = (tunable: (typeof tunables)[number]) =>
    `drop ${tunable.regimeDropRatio} window ${tunable.windowDays} d`;
  const tunedFolds = crossValidate(
    futures,
    folds,
    tunables.map((_, index) => index),
    (judged, index) => scoreFleet(judged, decidedWith[index]!, scoringSizes, guard),
  );
  const tunedFitted = tunedFolds.map(({ chosen }) => label(tunables[chosen]!));
  const tunedScores = tunedFolds.map(({ held }) => held);
  console.log(
    `forecast constants fitted on the other folds, judged on each (candidates ${tunables.map(label).join(', ')}; as set ${label(asSet)}): chosen ${tunedFitted.join(', ')}`,
  );
  console.log(
    `each candidate on all machines (saving/oracle, overloaded, worst, rollbacks): ${tunables
      .map((tunable, index) => {
        const score = scoreFleet(futures, decidedWith[index]!, scoringSizes, guard);
        return `${label(tunable)} ${score.savingShareOfOracle.toFixed(3)} ${percent(score.overloadedStepShare)} +${percent(score.worstAddedOverloadShare)} ${score.rollbacks}/${score.resizedDown}`;
      })
      .join('; ')}`,
  );
  printTable(
    [...spreadHeader, 'all held-out machines pooled'],
    [
      [`${defaultMethod} fitted + guard`, ...describeSpread(tunedScores), describePooled(tunedScores)],
      [`${defaultMethod} as set + guard`, ...describeSpread(standingScores), describePooled(standingScores)],
    ],
  );
  console.log(
    `targets for the default: saving/oracle ≥ 0.90, overloaded steps ≤ 0.50%, worst machine ≤ 2.00%, ` +
      `rollbacks ≤ 10% of resized, beat the advisor rules (as Advisor runs them, unguarded) on overload; ${((performance.now() - startedAt) / 1000).toFixed(1)} s`,
  );
}

// Guards to fit among: the hot line from Advisor's 80% target to the judge's 90%, one to three hours.
// The rule as set first, so a tie keeps it.
const guardCandidates = [
  { overloadPct: guardRule.overloadPct, consecutiveSteps: guardRule.consecutiveSteps },
  ...[70, 80, 90]
    .flatMap((overloadPct) => [12, 24, 36].map((consecutiveSteps) => ({ overloadPct, consecutiveSteps })))
    .filter(
      (candidate) =>
        candidate.overloadPct !== guardRule.overloadPct ||
        candidate.consecutiveSteps !== guardRule.consecutiveSteps,
    ),
];

function decideAll(
  machines: readonly Machine[],
  catalogue: Catalogue,
  historySteps: number,
): Record<PredictionMethodId, Record<string, string>> {
  return Object.fromEntries(
    predictionMethodIds.map((method) => [
      method,
      Object.fromEntries(
        machines.map((machine) => [machine.vm, decide(machine, catalogue, method, 0, historySteps, null)]),
      ),
    ]),
  ) as Record<PredictionMethodId, Record<string, string>>;
}

function buildInput(
  machine: Machine,
  catalogue: Catalogue,
  from: number,
  to: number,
  previousTargetSize: string | null,
): VmAnalysisInput {
  const series = (average: Float64Array, maximum: Float64Array) => ({
    startMs: from * stepMinutes * 60_000,
    stepMinutes,
    average: average.subarray(from, to),
    maximum: maximum.subarray(from, to),
  });
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
    cpu: series(machine.average, machine.maximum),
    ...(machine.memoryGiB ? { memoryUsedGiB: series(machine.memoryGiB, machine.memoryGiB) } : {}),
    sizes: catalogue.sizes,
    prices: catalogue.prices,
    previousTargetSize,
    now: to * stepMinutes * 60_000,
  };
}

function decide(
  machine: Machine,
  catalogue: Catalogue,
  method: PredictionMethodId,
  from: number,
  to: number,
  previous: string | null,
): string {
  const analysis = analyseVm(buildInput(machine, catalogue, from, to, previous), { method });
  return (
    analysis.proposals.find((proposal) => proposal.kind === 'resize')?.targetSize ??
    previous ??
    machine.size.name
  );
}

const percent = (share: number) => `${(share * 100).toFixed(2)}%`;
const scoreHeader = [
  'method',
  'saving/oracle',
  'saving',
  'overloaded steps',
  'worst machine added',
  'resized down',
  'rollbacks',
];
function describeScore(score: FleetScore): string[] {
  return [
    score.savingShareOfOracle.toFixed(3),
    `$${score.saving.toFixed(0)}`,
    percent(score.overloadedStepShare),
    `${percent(score.worstAddedOverloadShare)} (${score.worstVm})`,
    String(score.resizedDown),
    `${score.rollbacks} (${percent(rollbackShare(score))})`,
  ];
}

const spreadHeader = ['method', 'saving/oracle', 'overloaded steps', 'worst machine added', 'rollbacks'];
function describeSpread(scores: readonly FleetScore[]): string[] {
  const spread = (pick: (score: FleetScore) => number, format: (value: number) => string) => {
    const values = scores.map(pick).sort((left, right) => left - right);
    const median = values[Math.floor(values.length / 2)]!;
    return `${format(values[0]!)} / ${format(median)} / ${format(values.at(-1)!)}`;
  };
  return [
    spread(
      (score) => score.savingShareOfOracle,
      (value) => value.toFixed(3),
    ),
    spread((score) => score.overloadedStepShare, percent),
    spread((score) => score.worstAddedOverloadShare, percent),
    spread(rollbackShare, percent),
  ];
}

// The folds' machines judged together: each machine as its own fold judged it.
function describePooled(scores: readonly FleetScore[]): string {
  const machines = scores.flatMap((score) => score.machines);
  const sum = (pick: (machine: MachineScore) => number) =>
    machines.reduce((total, machine) => total + pick(machine), 0);
  const resized = machines.filter((machine) => machine.isResizedDown).length;
  const rollbacks = machines.filter((machine) => machine.isRolledBack).length;
  const worst = Math.max(0, ...machines.map((machine) => machine.addedOverloadShare));
  return (
    `${(sum((machine) => machine.saving) / sum((machine) => machine.oracleSaving)).toFixed(3)}, ` +
    `${percent(sum((machine) => machine.overloadedSteps) / sum((machine) => machine.steps))}, ` +
    `+${percent(worst)}, ${rollbacks} of ${resized} (${percent(resized === 0 ? 0 : rollbacks / resized)})`
  );
}

function rollbackShare(score: FleetScore): number {
  return score.resizedDown === 0 ? 0 : score.rollbacks / score.resizedDown;
}

function findTraceFile(dir: string, vm: string): string {
  for (const name of [`${vm}.csv`, `${vm}.csv.gz`]) {
    if (existsSync(join(dir, name))) return join(dir, name);
  }
  const listed = readdirSync(dir).length;
  throw new Error(`${vm} is in the fleet but ${dir} (${listed} files) holds no ${vm}.csv or ${vm}.csv.gz`);
}

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

// Run last: everything above is defined by then.
const given = args.trace ?? args['trace-dir'];
if (given !== undefined || args.fleet || args.skus) {
  if (!given || !args.fleet || !args.skus || (args.trace && args['trace-dir'])) {
    console.error(usage);
    process.exit(2);
  }
  runSet({
    label: given,
    ...(args.trace ? { trace: args.trace } : { traceDir: args['trace-dir']! }),
    fleet: args.fleet,
    skus: args.skus,
    ...(args.decisions ? { decisions: args.decisions } : {}),
  });
} else {
  for (const set of defaultSets) runSet(set);
}
