import { hashToUnit, computeSmoothNoise } from './noise.hash';

// A workload says how much of a machine a service really needs at any minute. Levels are
// fractions of the machine's reference (original) size, turned into absolute cores and GiB, so a
// later resize changes utilisation but never the demand itself.

export const workloadKinds = ['idle', 'steady', 'businessHours', 'weeklyBatch', 'growing', 'spiky'] as const;
export type WorkloadKind = (typeof workloadKinds)[number];

export interface WorkloadProfile {
  readonly kind: WorkloadKind;
  /** Share of the reference vCPUs used at rest. */
  readonly baseLevel: number;
  /** Share of the reference vCPUs used at the busiest moments (office hours, batch run, spike). */
  readonly peakLevel: number;
  /** Relative amplitude of the slow random wander around the level. */
  readonly noiseAmplitude: number;
  readonly utcOffsetHours: number;
  readonly batchStartMinuteOfWeek: number;
  readonly batchDurationMinutes: number;
  /** Relative growth of the load per day after the anchor minute. */
  readonly growthPerDay: number;
  readonly growthAnchorMinute: number;
  /** Chance that any five-minute block holds a spike. */
  readonly spikeProbability: number;
  readonly memoryBaseLevel: number;
  /** How much memory use follows CPU use. */
  readonly memoryCpuCoupling: number;
  readonly referenceVcpus: number;
  readonly referenceMemoryGiB: number;
}

export interface Demand {
  cpuCores: number;
  memoryGiB: number;
}

const minutesPerDay = 1440;
const minutesPerWeek = 10080;
// Minute zero of the Unix epoch fell on a Thursday; this shift makes day zero a Sunday.
const epochWeekdayShift = 4;
const spikeBlockMinutes = 5;
const spikeStreamSalt = 0x5bd1e995;
const memoryStreamSalt = 0x27d4eb2f;
const jitterStreamSalt = 0x165667b1;
const maximumLevel = 2;

export function readDayOfWeek(minute: number): number {
  return (((Math.floor(minute / minutesPerDay) + epochWeekdayShift) % 7) + 7) % 7;
}

export function readMinuteOfWeek(minute: number): number {
  const sundayAligned = minute + epochWeekdayShift * minutesPerDay;
  return ((sundayAligned % minutesPerWeek) + minutesPerWeek) % minutesPerWeek;
}

function computeRamp(value: number, start: number, end: number): number {
  if (value <= start) return 0;
  if (value >= end) return 1;
  const fraction = (value - start) / (end - start);
  return fraction * fraction * (3 - 2 * fraction);
}

function computeDailyWave(minute: number, utcOffsetHours: number, amplitude: number): number {
  const localMinute = minute + utcOffsetHours * 60;
  const phase = ((localMinute % minutesPerDay) / minutesPerDay) * 2 * Math.PI;
  // Peaks mid-afternoon local time, lowest before dawn.
  return 1 + amplitude * Math.sin(phase - Math.PI * 0.6);
}

function computeBusinessHoursShare(minute: number, utcOffsetHours: number): number {
  const localMinute = minute + utcOffsetHours * 60;
  const dayOfWeek = readDayOfWeek(localMinute);
  if (dayOfWeek === 0 || dayOfWeek === 6) return 0;
  const minuteOfDay = ((localMinute % minutesPerDay) + minutesPerDay) % minutesPerDay;
  return computeRamp(minuteOfDay, 7 * 60, 9 * 60) * (1 - computeRamp(minuteOfDay, 17 * 60, 19 * 60));
}

function computeShapeLevel(
  profile: WorkloadProfile,
  seedKey: number,
  streamKey: number,
  minute: number,
): number {
  switch (profile.kind) {
    case 'idle':
      return profile.baseLevel;
    case 'steady':
      return profile.baseLevel * computeDailyWave(minute, profile.utcOffsetHours, 0.08);
    case 'businessHours': {
      const share = computeBusinessHoursShare(minute, profile.utcOffsetHours);
      return profile.baseLevel + (profile.peakLevel - profile.baseLevel) * share;
    }
    case 'weeklyBatch': {
      const sinceStart =
        (readMinuteOfWeek(minute) - profile.batchStartMinuteOfWeek + minutesPerWeek) % minutesPerWeek;
      if (sinceStart >= profile.batchDurationMinutes) return profile.baseLevel;
      const share =
        computeRamp(sinceStart, 0, 15) *
        (1 - computeRamp(sinceStart, profile.batchDurationMinutes - 15, profile.batchDurationMinutes));
      return profile.baseLevel + (profile.peakLevel - profile.baseLevel) * share;
    }
    case 'growing': {
      const days = Math.max(0, (minute - profile.growthAnchorMinute) / minutesPerDay);
      return (
        profile.baseLevel *
        (1 + profile.growthPerDay * days) *
        computeDailyWave(minute, profile.utcOffsetHours, 0.12)
      );
    }
    case 'spiky': {
      const block = Math.floor(minute / spikeBlockMinutes);
      const draw = hashToUnit(seedKey, streamKey ^ spikeStreamSalt, block);
      if (draw >= profile.spikeProbability) return profile.baseLevel;
      return profile.peakLevel * (0.7 + 0.3 * (draw / profile.spikeProbability));
    }
  }
}

/** The share of the reference vCPUs in use at `minute` (minutes since the Unix epoch). */
export function computeCpuLevel(
  profile: WorkloadProfile,
  seedKey: number,
  streamKey: number,
  minute: number,
): number {
  const shape = computeShapeLevel(profile, seedKey, streamKey, minute);
  const wander =
    (computeSmoothNoise(seedKey, streamKey, minute, 60) - 0.5) * 1.2 +
    (computeSmoothNoise(seedKey, streamKey + 1, minute, 15) - 0.5) * 0.8;
  const jitter = (hashToUnit(seedKey, streamKey ^ jitterStreamSalt, minute) - 0.5) * 0.06;
  const level = shape * (1 + profile.noiseAmplitude * wander + jitter);
  return Math.min(maximumLevel, Math.max(0.002, level));
}

/** The share of the reference memory in use, following CPU use in part. */
export function computeMemoryLevel(
  profile: WorkloadProfile,
  seedKey: number,
  streamKey: number,
  minute: number,
  cpuLevel: number,
): number {
  const wander = (computeSmoothNoise(seedKey, streamKey ^ memoryStreamSalt, minute, 240) - 0.5) * 0.06;
  const level = profile.memoryBaseLevel + profile.memoryCpuCoupling * Math.min(1, cpuLevel) + wander;
  return Math.min(1.5, Math.max(0.04, level));
}

/** Fills `target` with the true demand at `minute`; allocation-free for hot loops. */
export function computeDemandInto(
  profile: WorkloadProfile,
  seedKey: number,
  streamKey: number,
  minute: number,
  target: Demand,
): Demand {
  const cpuLevel = computeCpuLevel(profile, seedKey, streamKey, minute);
  target.cpuCores = cpuLevel * profile.referenceVcpus;
  target.memoryGiB =
    computeMemoryLevel(profile, seedKey, streamKey, minute, cpuLevel) * profile.referenceMemoryGiB;
  return target;
}

export function computeDemand(
  profile: WorkloadProfile,
  seedKey: number,
  streamKey: number,
  minute: number,
): Demand {
  return computeDemandInto(profile, seedKey, streamKey, minute, { cpuCores: 0, memoryGiB: 0 });
}

/** CPU use in percent of `vcpus`, capped at 100: what Percentage CPU reports, and the ground truth. */
export function computeCpuPercent(cpuCores: number, vcpus: number): number {
  return Math.min(100, (cpuCores / vcpus) * 100);
}

export interface WorkloadReference {
  readonly vcpus: number;
  readonly memoryGiB: number;
  readonly utcOffsetHours: number;
}

function drawBetween(random: () => number, low: number, high: number): number {
  return low + (high - low) * random();
}

// The anchor for growing workloads: growth is measured from a fixed date so the same seed gives
// the same demand whenever it is asked.
const growthEpochMinute = Date.UTC(2026, 0, 1) / 60000;

/** Draws the parameters of a workload of the given kind. */
export function createWorkloadProfile(
  kind: WorkloadKind,
  reference: WorkloadReference,
  random: () => number,
): WorkloadProfile {
  const common = {
    kind,
    utcOffsetHours: reference.utcOffsetHours,
    referenceVcpus: reference.vcpus,
    referenceMemoryGiB: reference.memoryGiB,
    batchStartMinuteOfWeek: 0,
    batchDurationMinutes: 0,
    growthPerDay: 0,
    growthAnchorMinute: growthEpochMinute,
    spikeProbability: 0,
    memoryBaseLevel: drawBetween(random, 0.2, 0.5),
    memoryCpuCoupling: drawBetween(random, 0.05, 0.3),
  };
  switch (kind) {
    case 'idle':
      return { ...common, baseLevel: drawBetween(random, 0.01, 0.04), peakLevel: 0.05, noiseAmplitude: 0.5 };
    case 'steady':
      return { ...common, baseLevel: drawBetween(random, 0.12, 0.55), peakLevel: 0.6, noiseAmplitude: 0.25 };
    case 'businessHours':
      return {
        ...common,
        baseLevel: drawBetween(random, 0.03, 0.12),
        peakLevel: drawBetween(random, 0.35, 0.85),
        noiseAmplitude: 0.3,
      };
    case 'weeklyBatch':
      return {
        ...common,
        baseLevel: drawBetween(random, 0.02, 0.08),
        peakLevel: drawBetween(random, 0.7, 0.95),
        noiseAmplitude: 0.2,
        batchStartMinuteOfWeek:
          Math.floor(drawBetween(random, 0, 7)) * minutesPerDay + Math.floor(drawBetween(random, 0, 6)) * 60,
        batchDurationMinutes: Math.floor(drawBetween(random, 3, 8)) * 60,
      };
    case 'growing':
      return {
        ...common,
        baseLevel: drawBetween(random, 0.15, 0.3),
        peakLevel: 1,
        noiseAmplitude: 0.2,
        growthPerDay: drawBetween(random, 0.001, 0.003),
        growthAnchorMinute: growthEpochMinute + Math.floor(drawBetween(random, 0, 240)) * minutesPerDay,
      };
    case 'spiky':
      return {
        ...common,
        baseLevel: drawBetween(random, 0.04, 0.15),
        peakLevel: drawBetween(random, 0.6, 1),
        noiseAmplitude: 0.35,
        spikeProbability: drawBetween(random, 0.02, 0.06),
      };
  }
}
