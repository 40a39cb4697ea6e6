// The analysis's pure input adapter: what the engine reads of one VM (its hours laid on a grid, its
// size's place in the region's catalogue and prices, what it must keep, the resize on offer) and of
// one resource the waste finders judge (its facts, its disk's VM, its use summarised), from the rows
// the repository reads.
import type {
  MetricSeries,
  SizeOption,
  SizePrice,
  VmAnalysisInput,
} from '@cloudtrim/rightsizing/analysis.types';
import { quantile } from '@cloudtrim/rightsizing/statistics';
import type { UsageSummary, WasteCandidate } from '@cloudtrim/rightsizing/waste/waste.types';
import type { RegionCatalogue } from '../pricing/pricing.service';
import { emptyHours, type HourlySeries } from './hourly-series';
import type { UsageSeries } from './usage-series';
import type { DueVm, OpenRecommendation, VmBillRow, WasteResourceRow } from './recommendations.repository';
import type { VmBill } from './own-rates';
import { hourMs } from '../../lib/time';

const gibibyte = 1024 ** 3;
const hoursPerDay = 24;
const usageQuantile = 0.95;

export function readOsType(osType: string | null): 'Linux' | 'Windows' {
  return osType === 'Windows' ? 'Windows' : 'Linux';
}

// What the engine reads of one VM: its hours, its size's place in the region's catalogue and prices,
// what it must keep (disks, NICs), its schedule and the resize already on offer.
export function buildVmInput(
  vm: DueVm,
  hourly: HourlySeries | undefined,
  catalogue: RegionCatalogue,
  openRows: OpenRecommendation[],
  since: Date,
  until: Date,
  at: Date,
): VmAnalysisInput | undefined {
  if (!vm.sku) return undefined;
  const current = findSize(catalogue, vm.sku);
  const { cpu, memoryUsedGiB, network, cpuCreditsRemaining, runningHours, firstStep } = readVmSeries(
    hourly,
    current,
    since,
    until,
  );
  const steps = cpu.average.length;
  const osType = readOsType(vm.osType);
  const previousResize = openRows.find((row) => row.kind === 'resize');
  return {
    vmId: vm.armId,
    currentSize: current?.name ?? vm.sku,
    region: vm.region,
    osType,
    // Of the hours since the VM was first seen: a VM created within the lookback was not "stopped"
    // before it existed.
    runningShare: runningHours > 0 ? runningHours / (steps - firstStep) : 0,
    activeHours:
      vm.activeHoursStart !== null && vm.activeHoursEnd !== null
        ? { start: vm.activeHoursStart, end: vm.activeHoursEnd }
        : null,
    requirements: {
      dataDiskCount: vm.dataDiskCount,
      nicCount: vm.nicCount,
      usesPremiumDisk: vm.hasPremiumDisk,
      usesAcceleratedNetworking: vm.hasAcceleratedNetworking,
    },
    cpu,
    ...(memoryUsedGiB ? { memoryUsedGiB } : {}),
    ...(network ? { network } : {}),
    ...(cpuCreditsRemaining ? { cpuCreditsRemaining } : {}),
    sizes: catalogue.sizes,
    prices: catalogue.pricesByOs[osType],
    previousTargetSize: previousResize?.targetSize ?? null,
    now: at.getTime(),
  };
}

const sizeIndexes = new WeakMap<RegionCatalogue, Map<string, SizeOption>>();

// A size by its name in any casing (inventory and catalogue may differ), from an index built once
// per catalogue: lower-casing every size of the region for each VM ran once per VM analysed.
export function findSize(catalogue: RegionCatalogue, name: string): SizeOption | undefined {
  let sizesByName = sizeIndexes.get(catalogue);
  if (!sizesByName) {
    sizesByName = new Map(catalogue.sizes.map((size) => [size.name.toLowerCase(), size]));
    sizeIndexes.set(catalogue, sizesByName);
  }
  return sizesByName.get(name.toLowerCase());
}

// A VM size's list price for its OS in its region's catalogue, whatever the casing.
export function findSizePrice(
  catalogue: RegionCatalogue,
  sku: string,
  osType: string | null,
): SizePrice | undefined {
  const size = findSize(catalogue, sku);
  return size ? catalogue.pricesByOs[readOsType(osType)].get(size.name) : undefined;
}

// The VM's hours laid on a dense hourly grid from `since` (NaN where nothing was read). Memory in
// GiB used = the size's memory − available memory: the mean from the hour's mean, the peak from the
// hour's lowest minute where it was rolled up from 1-minute points and, for back-filled hours, from
// the hour's spread mirrored below its mean (mean − (p95 − mean)), which errs towards keeping
// capacity. Without the size, memory cannot be read. A B-series VM's credits remaining are read by
// the hour's lowest minute where known (else its mean): the analysis asks whether the bank ran out.
// The hourly series is consumed: its arrays become the metric series, rewritten in place, so a
// 10,000-VM analysis copies none of its 14 days.
export function readVmSeries(
  hourly: HourlySeries | undefined,
  current: SizeOption | undefined,
  since: Date,
  until: Date,
): {
  cpu: MetricSeries;
  memoryUsedGiB?: MetricSeries;
  network?: MetricSeries;
  cpuCreditsRemaining?: MetricSeries;
  runningHours: number;
  firstStep: number;
} {
  const startMs = since.getTime();
  const steps = Math.round((until.getTime() - startMs) / hourMs);
  if (hourly && hourly.steps !== steps) {
    throw new Error(`hourly series of ${hourly.steps} hours read over ${steps}`);
  }
  const cpuAverage = hourly?.cpuAverage ?? emptyHours(steps);
  const cpuMaximum = hourly?.cpuMaximum ?? emptyHours(steps);
  let runningHours = 0;
  let firstStep = steps;
  for (let step = 0; step < steps; step += 1) {
    const average = cpuAverage[step]!;
    if (Number.isNaN(average)) {
      cpuMaximum[step] = Number.NaN;
      continue;
    }
    if (Number.isNaN(cpuMaximum[step]!)) cpuMaximum[step] = average;
    runningHours += 1;
    firstStep = Math.min(firstStep, step);
  }
  const memoryUsedGiB = hourly && current ? readMemoryUsed(hourly, current) : undefined;
  const network = hourly?.networkAverage && readNetwork(hourly.networkAverage);
  const credits = hourly?.creditsAverage && readCredits(hourly.creditsAverage, hourly.creditsMinimum);
  const onGrid = (series: { average: Float64Array; maximum: Float64Array }): MetricSeries => ({
    startMs,
    stepMinutes: 60,
    ...series,
  });
  return {
    cpu: onGrid({ average: cpuAverage, maximum: cpuMaximum }),
    ...(memoryUsedGiB ? { memoryUsedGiB: onGrid(memoryUsedGiB) } : {}),
    ...(network ? { network: onGrid(network) } : {}),
    ...(credits ? { cpuCreditsRemaining: onGrid(credits) } : {}),
    runningHours,
    firstStep,
  };
}

// GiB used, in the hourly series' memory arrays: the mean over the mean's, the peak over the lowest
// minute's. Undefined where no hour has memory.
function readMemoryUsed(
  hourly: HourlySeries,
  current: SizeOption,
): { average: Float64Array; maximum: Float64Array } | undefined {
  const average = hourly.memoryAverage;
  if (!average) return undefined;
  const maximum = hourly.memoryMinimum ?? emptyHours(average.length);
  const p95 = hourly.memoryP95;
  let hasMemory = false;
  for (let step = 0; step < average.length; step += 1) {
    const available = average[step]!;
    if (Number.isNaN(available)) {
      maximum[step] = Number.NaN;
      continue;
    }
    const minimum = maximum[step]!;
    const p95Available = p95 ? p95[step]! : Number.NaN;
    const lowest = !Number.isNaN(minimum)
      ? minimum
      : !Number.isNaN(p95Available)
        ? Math.max(0, 2 * available - p95Available)
        : available;
    const used = Math.max(0, current.memoryGiB - available / gibibyte);
    average[step] = used;
    maximum[step] = Math.max(used, current.memoryGiB - lowest / gibibyte);
    hasMemory = true;
  }
  return hasMemory ? { average, maximum } : undefined;
}

// The hourly aggregate is the mean per-minute total; the hour moved 60 of them. Its peak is its mean.
function readNetwork(perMinute: Float64Array): { average: Float64Array; maximum: Float64Array } | undefined {
  let hasNetwork = false;
  for (let step = 0; step < perMinute.length; step += 1) {
    const value = perMinute[step]!;
    if (Number.isNaN(value)) continue;
    perMinute[step] = value * 60;
    hasNetwork = true;
  }
  return hasNetwork ? { average: perMinute, maximum: perMinute } : undefined;
}

// Credits remaining: the lowest minute where known (else the mean) as the level, the mean as the peak.
function readCredits(
  average: Float64Array,
  minimum: Float64Array | undefined,
): { average: Float64Array; maximum: Float64Array } | undefined {
  const lowest = minimum ?? emptyHours(average.length);
  let hasCredits = false;
  for (let step = 0; step < average.length; step += 1) {
    const mean = average[step]!;
    if (Number.isNaN(mean)) {
      lowest[step] = Number.NaN;
      continue;
    }
    if (Number.isNaN(lowest[step]!)) lowest[step] = mean;
    hasCredits = true;
  }
  return hasCredits ? { average: lowest, maximum: average } : undefined;
}

export function toBill(row: VmBillRow): VmBill {
  return { amortizedCost: row.amortizedCost, actualCost: row.actualCost, usageHours: row.usageHours };
}

// What a waste finder reads of one resource: its facts as inventory keeps them, the state of the VM
// a disk belongs to, a stopped VM's list price an hour, and a plan's or database's use.
export function buildWasteCandidate(
  row: WasteResourceRow,
  usage: UsageSeries | undefined,
  vmHourly: number | null,
): WasteCandidate {
  return {
    armId: row.armId,
    name: row.name,
    type: row.type,
    region: row.region,
    sku: row.sku,
    details: row.details,
    stateSince: row.stateSince,
    isStateSeenOnly: !row.isStateDated,
    tags: row.tags,
    powerState: row.powerState,
    owner: row.hasOwner
      ? {
          powerState: row.ownerPowerState,
          stateSince: row.ownerStateSince,
        }
      : null,
    vmHourly,
    usage: usage ? summariseUsage(usage, readMaxSizeBytes(row.details)) : null,
  };
}

function readMaxSizeBytes(details: Readonly<Record<string, unknown>>): number | null {
  const value = details.maxSizeBytes;
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

// The hours' means at their 95th percentile, and the days of hours the use is read from (the CPU's,
// or a DTU database's DTU). Storage used is the largest reading: Azure's `storage` in bytes, else
// `storage_percent` of the database's maximum size.
export function summariseUsage(usage: UsageSeries, maxSizeBytes: number | null): UsageSummary {
  const p95 = (series: Float64Array | undefined) => {
    if (!series) return null;
    const value = quantile(series, usageQuantile);
    return Number.isNaN(value) ? null : value;
  };
  const presentHours = Math.max(countPresent(usage.cpuAverage), countPresent(usage.dtuAverage));
  const storagePeak = largest(usage.storageMaximum);
  const storagePercentPeak = largest(usage.storagePercentMaximum);
  return {
    days: presentHours / hoursPerDay,
    cpuP95Pct: p95(usage.cpuAverage),
    memoryP95Pct: p95(usage.memoryAverage),
    dtuP95Pct: p95(usage.dtuAverage),
    storageUsedBytes:
      storagePeak ??
      (storagePercentPeak !== null && maxSizeBytes !== null
        ? (storagePercentPeak / 100) * maxSizeBytes
        : null),
  };
}

function countPresent(series: Float64Array | undefined): number {
  let present = 0;
  if (series) for (const value of series) if (!Number.isNaN(value)) present += 1;
  return present;
}

function largest(series: Float64Array | undefined): number | null {
  let peak: number | null = null;
  if (series)
    for (const value of series) if (!Number.isNaN(value) && (peak === null || value > peak)) peak = value;
  return peak;
}
