// Idle VMs and idle hours. A VM is idle when its CPU peaks stay under Azure Advisor's shutdown
// line and it moves next to no bytes; an hour of the day is idle when that holds in it on nearly
// every day seen. Without network data nothing is called idle: CPU alone cannot tell a quiet
// server that still answers requests from one nobody uses.
import type { Demand } from './demand';
import { stepsPerDay } from './demand';
import { quantile } from './statistics';

export const idleRule = {
  // Advisor's shutdown rule: P95 of the CPU peaks below 3%.
  cpuPeakQuantile: 0.95,
  cpuPeakPct: 3,
  // Heartbeats and monitoring agents only.
  networkBytesPerSecond: 100_000,
  // Idle hours: the hour's CPU peak under this on at least `dayShare` of the days seen.
  hourCpuPeakPct: 5,
  dayShare: 0.9,
  minimumDays: 7,
  minimumHours: 6,
} as const;

export function isIdle(demand: Demand): boolean {
  const { networkBytes } = demand;
  if (!networkBytes) return false;
  // The bytes first: a VM in use moves more than a heartbeat within its first hours, which ends the
  // test before any quantile is taken.
  const stepSeconds = demand.stepMinutes * 60;
  for (let step = 0; step < networkBytes.length; step += 1) {
    if (networkBytes[step]! / stepSeconds >= idleRule.networkBytesPerSecond) return false;
  }
  // The peaks' quantile as a share of the VM's vCPUs: the same reading as the quantile of the
  // shares (the share grows with the peak), without a copy of the series.
  const peakPct = (quantile(demand.cpuPeakVcpus, idleRule.cpuPeakQuantile) / demand.currentVcpus) * 100;
  return peakPct < idleRule.cpuPeakPct;
}

export interface IdleHours {
  // Hours of the day in UTC: idle from `start` (inclusive) to `end` (exclusive), wrapping at midnight.
  start: number;
  end: number;
  share: number;
  days: number;
}

export function findIdleHours(demand: Demand): IdleHours | null {
  const perDay = stepsPerDay(demand);
  const perHour = Math.max(1, Math.round(60 / demand.stepMinutes));
  const days = Math.floor(demand.steps / perDay);
  if (days < idleRule.minimumDays) return null;
  const idleDays = new Float64Array(24);
  const seenDays = new Float64Array(24);
  const stepSeconds = demand.stepMinutes * 60;
  const busyBytes = idleRule.networkBytesPerSecond * stepSeconds;
  const busyVcpus = (idleRule.hourCpuPeakPct / 100) * demand.currentVcpus;
  const { cpuPeakVcpus, networkBytes } = demand;
  const firstMinuteOfDay = Math.floor(demand.startMs / 60_000) % 1440;
  for (let hourStart = 0; hourStart + perHour <= demand.steps; hourStart += perHour) {
    const hour = Math.floor(((firstMinuteOfDay + hourStart * demand.stepMinutes) % 1440) / 60);
    let peak = -1;
    let isQuiet = true;
    for (let step = hourStart; step < hourStart + perHour; step += 1) {
      const value = cpuPeakVcpus[step]!;
      if (value > peak) peak = value;
      if (networkBytes !== null && networkBytes[step]! >= busyBytes) isQuiet = false;
    }
    // No reading in the hour (NaN never compares greater): not seen.
    if (peak < 0) continue;
    seenDays[hour] = seenDays[hour]! + 1;
    if (isQuiet && peak < busyVcpus) idleDays[hour] = idleDays[hour]! + 1;
  }
  const shares = Array.from({ length: 24 }, (_, hour) =>
    seenDays[hour]! > 0 ? idleDays[hour]! / seenDays[hour]! : 0,
  );
  const isIdleHour = shares.map((share) => share >= idleRule.dayShare);
  if (isIdleHour.every(Boolean) || !isIdleHour.some(Boolean)) return null;
  // The longest run of idle hours, wrapping over midnight: start the scan after a busy hour.
  const firstBusy = isIdleHour.indexOf(false);
  let best: { start: number; length: number } | null = null;
  let runStart = -1;
  for (let offset = 1; offset <= 24; offset += 1) {
    const hour = (firstBusy + offset) % 24;
    if (isIdleHour[hour]) {
      if (runStart < 0) runStart = hour;
      continue;
    }
    if (runStart >= 0) {
      const length = (hour - runStart + 24) % 24;
      if (!best || length > best.length) best = { start: runStart, length };
      runStart = -1;
    }
  }
  if (!best || best.length < idleRule.minimumHours) return null;
  let share = 1;
  for (let index = 0; index < best.length; index += 1)
    share = Math.min(share, shares[(best.start + index) % 24]!);
  return { start: best.start, end: (best.start + best.length) % 24, share, days };
}
