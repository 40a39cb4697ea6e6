import type {
  AppServicePlanRecord,
  Fleet,
  FleetResource,
  SqlDatabaseRecord,
  VirtualMachineRecord,
} from '../fleet/fleet.model';
import { findBurstableCredits, stepCreditMinute, type CreditMinute } from '../fleet/credit-bank';
import { combineHash, hashToUnit } from '../fleet/noise.hash';
import { computeCpuPercent, computeDemandInto, type Demand } from '../fleet/workload.model';
import type { MetricNamespace } from './metric.catalog';

export interface SeriesWindow {
  /** First minute (since the Unix epoch), aligned to the interval. */
  readonly startMinute: number;
  /** First minute after the window. */
  readonly endMinute: number;
  readonly intervalMinutes: number;
  /** Minutes after this one have no data yet. */
  readonly lastCompleteMinute: number;
}

export interface MetricSeries {
  readonly sum: Float64Array;
  readonly minimum: Float64Array;
  readonly maximum: Float64Array;
  readonly count: Uint32Array;
}

/**
 * Writes one minute of every metric of a resource into `values` (in catalog order; NaN for a metric
 * the resource does not report) and two uniform draws into `noise` for the minute's minimum and
 * maximum; false when there is no data. Minutes must be asked in ascending order: samplers walk the
 * size and power histories once.
 */
type MinuteSampler = (minute: number, values: Float64Array, noise: Float64Array) => boolean;

const gibibyte = 1024 ** 3;
const minutesPerDay = 1440;
const minuteNoiseSalt = 0x51ed27;

function createVirtualMachineSampler(fleet: Fleet, machine: VirtualMachineRecord): MinuteSampler {
  const { seedKey } = fleet;
  const { streamKey, sizeHistory, powerHistory, workload } = machine;
  const createdMinute = Math.floor(machine.createdMs / 60000);
  const demand: Demand = { cpuCores: 0, memoryGiB: 0 };
  // Per-machine traffic and disk habits, fixed by the seed.
  const networkBytesPerCoreMinute = (200_000 + 2_800_000 * hashToUnit(seedKey, streamKey, 11)) * 60;
  const outboundRatio = 0.2 + 2.3 * hashToUnit(seedKey, streamKey, 12);
  const readsPerCore = 5 + 145 * hashToUnit(seedKey, streamKey, 13);
  const writesPerCore = 3 + 80 * hashToUnit(seedKey, streamKey, 14);
  let sizeIndex = 0;
  let powerIndex = 0;
  // On a B size the walk carries the bank from minute to minute, read afresh (Fleet.creditBanks) at
  // its first minute and at each day's start, where the banks' rule starts its replays.
  const creditStep: CreditMinute = { ranCores: 0, bank: 0, isThrottled: false };
  let bankMinute = Number.NaN;
  let bankSizeIndex = -1;
  let bank = 0;
  return (minute, values, noise) => {
    if (minute < createdMinute) return false;
    while ((powerHistory[powerIndex + 1]?.fromMinute ?? Number.POSITIVE_INFINITY) <= minute) powerIndex += 1;
    if (powerHistory[powerIndex]?.state !== 'running') return false;
    while ((sizeHistory[sizeIndex + 1]?.fromMinute ?? Number.POSITIVE_INFINITY) <= minute) sizeIndex += 1;
    const size = sizeHistory[sizeIndex]?.size;
    if (!size) return false;
    computeDemandInto(workload, seedKey, streamKey, minute, demand);
    const hash = combineHash(seedKey, streamKey ^ minuteNoiseSalt, minute);
    const first = (hash & 0xffff) / 65536;
    const second = (hash >>> 16) / 65536;
    noise[0] = first;
    noise[1] = second;
    let cores = demand.cpuCores;
    const credits = findBurstableCredits(size);
    if (credits) {
      // Read afresh after a gap (minutes not running keep the bank), a resize (a new bank) or at a
      // day's start.
      if (bankMinute !== minute || bankSizeIndex !== sizeIndex || minute % minutesPerDay === 0) {
        bank = fleet.creditBanks.readBank(machine, minute);
        bankSizeIndex = sizeIndex;
      }
      stepCreditMinute(bank, cores, size, credits, creditStep);
      bank = creditStep.bank;
      bankMinute = minute + 1;
      fleet.creditBanks.remember(machine, bankMinute, bank);
      cores = creditStep.ranCores;
      values[6] = bank;
      values[7] = cores;
    } else {
      values[6] = Number.NaN;
      values[7] = Number.NaN;
    }
    values[0] = computeCpuPercent(cores, size.vcpus);
    values[1] = Math.max(size.memoryGiB * 0.02, size.memoryGiB - demand.memoryGiB) * gibibyte;
    const inbound = (0.05 + cores) * networkBytesPerCoreMinute * (0.85 + 0.3 * first);
    values[2] = inbound;
    values[3] = inbound * outboundRatio;
    values[4] = Math.min(size.uncachedDiskIops, (0.2 + cores * readsPerCore) * (0.8 + 0.4 * second));
    values[5] = Math.min(size.uncachedDiskIops, (0.5 + cores * writesPerCore) * (0.8 + 0.4 * first));
    return true;
  };
}

// Plans and databases: demand in cores and GiB over the capacity of the SKU in force that minute,
// so a change of tier shows from the next minute on, as a VM's resize does.
function createPlanSampler(fleet: Fleet, plan: AppServicePlanRecord): MinuteSampler {
  const { seedKey } = fleet;
  const { streamKey, workload, skuHistory } = plan;
  const createdMinute = Math.floor(plan.createdMs / 60000);
  const demand: Demand = { cpuCores: 0, memoryGiB: 0 };
  let skuIndex = 0;
  return (minute, values, noise) => {
    if (minute < createdMinute) return false;
    while ((skuHistory[skuIndex + 1]?.fromMinute ?? Number.POSITIVE_INFINITY) <= minute) skuIndex += 1;
    const sku = skuHistory[skuIndex]?.sku ?? plan.sku;
    computeDemandInto(workload, seedKey, streamKey, minute, demand);
    writeNoise(seedKey, streamKey, minute, noise);
    values[0] = computeCpuPercent(demand.cpuCores, sku.vcpusPerWorker * sku.capacity);
    values[1] = Math.min(100, (demand.memoryGiB / (sku.memoryGiBPerWorker * sku.capacity)) * 100);
    return true;
  };
}

// A DTU is a blend of CPU, memory and I/O; the emulator counts 25 DTUs per busy core.
const dtusPerCore = 25;

function createDatabaseSampler(fleet: Fleet, database: SqlDatabaseRecord): MinuteSampler {
  const { seedKey } = fleet;
  const { streamKey, workload, skuHistory } = database;
  const createdMinute = Math.floor(database.createdMs / 60000);
  const demand: Demand = { cpuCores: 0, memoryGiB: 0 };
  let skuIndex = 0;
  return (minute, values, noise) => {
    if (minute < createdMinute) return false;
    while ((skuHistory[skuIndex + 1]?.fromMinute ?? Number.POSITIVE_INFINITY) <= minute) skuIndex += 1;
    const sku = skuHistory[skuIndex]?.sku ?? database.sku;
    computeDemandInto(workload, seedKey, streamKey, minute, demand);
    writeNoise(seedKey, streamKey, minute, noise);
    const cores = sku.family ? sku.capacity : sku.capacity / dtusPerCore;
    const percent = computeCpuPercent(demand.cpuCores, cores);
    values[0] = percent;
    values[1] = Math.min(100, (database.usedSizeBytes / database.maxSizeBytes) * 100);
    values[2] = sku.family ? Number.NaN : percent;
    values[3] = database.usedSizeBytes;
    return true;
  };
}

function writeNoise(seedKey: number, streamKey: number, minute: number, noise: Float64Array): void {
  const hash = combineHash(seedKey, streamKey ^ minuteNoiseSalt, minute);
  noise[0] = (hash & 0xffff) / 65536;
  noise[1] = (hash >>> 16) / 65536;
}

function createSampler(fleet: Fleet, resource: FleetResource): MinuteSampler | undefined {
  switch (resource.type) {
    case 'Microsoft.Compute/virtualMachines':
      return createVirtualMachineSampler(fleet, resource);
    case 'Microsoft.Web/serverfarms':
      return createPlanSampler(fleet, resource);
    case 'Microsoft.Sql/servers/databases':
      return createDatabaseSampler(fleet, resource);
    default:
      return undefined;
  }
}

export function countIntervals(window: SeriesWindow): number {
  return Math.max(0, Math.ceil((window.endMinute - window.startMinute) / window.intervalMinutes));
}

/** Aggregates the requested metrics of one resource over the window, minute by minute. */
export function computeSeries(
  fleet: Fleet,
  resource: FleetResource,
  namespace: MetricNamespace,
  metricIndexes: readonly number[],
  window: SeriesWindow,
): MetricSeries[] {
  const intervalCount = countIntervals(window);
  const series: MetricSeries[] = metricIndexes.map(() => ({
    sum: new Float64Array(intervalCount),
    minimum: new Float64Array(intervalCount).fill(Number.POSITIVE_INFINITY),
    maximum: new Float64Array(intervalCount).fill(Number.NEGATIVE_INFINITY),
    count: new Uint32Array(intervalCount),
  }));
  const sampler = createSampler(fleet, resource);
  if (!sampler) return series;
  const values = new Float64Array(namespace.metrics.length);
  const noise = new Float64Array(2);
  const definitions = metricIndexes.map((index) => namespace.metrics[index]);
  const lastMinute = Math.min(window.endMinute - 1, window.lastCompleteMinute);
  for (let minute = window.startMinute; minute <= lastMinute; minute += 1) {
    if (!sampler(minute, values, noise)) continue;
    const interval = Math.floor((minute - window.startMinute) / window.intervalMinutes);
    const low = noise[0] ?? 0;
    const high = noise[1] ?? 0;
    for (let position = 0; position < metricIndexes.length; position += 1) {
      const definition = definitions[position];
      const target = series[position];
      if (!definition || !target) continue;
      const value = values[metricIndexes[position] ?? 0] ?? 0;
      if (Number.isNaN(value)) continue;
      const minuteMinimum = value * (1 - definition.spread * low);
      const minuteMaximum = Math.min(definition.ceiling, value * (1 + definition.spread * high));
      target.sum[interval] = (target.sum[interval] ?? 0) + value;
      if (minuteMinimum < (target.minimum[interval] ?? 0)) target.minimum[interval] = minuteMinimum;
      if (minuteMaximum > (target.maximum[interval] ?? 0)) target.maximum[interval] = minuteMaximum;
      target.count[interval] = (target.count[interval] ?? 0) + 1;
    }
  }
  return series;
}
