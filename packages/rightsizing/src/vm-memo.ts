// What a VM's Recommendation and Memo say: the wording only, every number passed in (the
// burstable sizes' sentences are credit-memo.ts).
import type { ActiveHours } from './analysis.types';

export function formatVcpus(vcpus: number): string {
  return `${vcpus.toFixed(vcpus < 10 ? 2 : 1)} vCPUs`;
}

export function formatPrice(hourly: number): string {
  return `$${hourly.toFixed(4).replace(/0{1,2}$/, '')}`;
}

function formatHour(hour: number): string {
  return `${String(hour).padStart(2, '0')}:00`;
}

// The VM as people call it: the last segment of an ARM id, the whole id otherwise.
export function describeVm(vmId: string): string {
  return vmId.split('/').filter(Boolean).at(-1) ?? vmId;
}

export function describeAdvisorObserved(figures: {
  lookbackDays: number;
  cpuP95Vcpus: number;
  isUserFacing: boolean;
  cpuThresholdPct: number;
}): string {
  return (
    `P95 CPU over ${figures.lookbackDays} days: ${formatVcpus(figures.cpuP95Vcpus)} busy ` +
    `(${figures.isUserFacing ? 'user-facing' : 'not user-facing'} workload, so ≤ ${figures.cpuThresholdPct}% after resize)`
  );
}

export function describeForecastObserved(figures: {
  levelVcpus: number;
  days: number;
  windowDays: number;
  isHourlyPeaks: boolean;
  margin: number;
}): string {
  const window =
    figures.days < figures.windowDays
      ? `read from the last ${figures.days} days: the load dropped to a new level then`
      : `read from the last ${figures.windowDays} days`;
  return (
    `forecast P99.5 CPU for the next 14 days: ${formatVcpus(figures.levelVcpus)} busy ` +
    `(${window}${figures.isHourlyPeaks ? ', hourly peaks' : ''}), ` +
    `×${figures.margin.toFixed(2)} for this VM's own forecast error`
  );
}

export function describePickObserved(figures: {
  observed: string;
  winner: string;
  overloadShare: number;
  overloadThresholdPct: number;
}): string {
  return (
    `${figures.observed}; ${figures.winner} chosen by replaying this VM's own history ` +
    `(${(figures.overloadShare * 100).toFixed(2)}% of its later steps would have run above ${figures.overloadThresholdPct}%)`
  );
}

export function describeResize(vmId: string, currentSize: string, targetSize: string): string {
  return `Resize ${describeVm(vmId)} from ${currentSize} to ${targetSize}.`;
}

export function describeResizeMemo(figures: {
  observed: string;
  targetSize: string;
  projectedCpuPct: number;
  projectedMemoryPct: number | null;
  cpuThresholdPct: number;
  targetHourly: number;
  currentHourly: number;
  priceSource: string;
  priceReadAt: string;
  confidence: number;
  // The burstable sentences (credit-memo.ts), or none.
  credits: string;
  restart: { isDeallocation: boolean; targetFamily: string; currentSize: string };
}): string {
  const restart = figures.restart.isDeallocation
    ? ` ${figures.targetSize} is in another family (${figures.restart.targetFamily}) than ${figures.restart.currentSize}, so the change needs a deallocation: the VM restarts.`
    : ' Same family: Azure resizes it in place, with one reboot.';
  return (
    `Seen: ${figures.observed}. ` +
    `Projected peak on ${figures.targetSize}: ${figures.projectedCpuPct.toFixed(0)}% CPU` +
    (figures.projectedMemoryPct === null ? '' : `, ${figures.projectedMemoryPct.toFixed(0)}% memory`) +
    ` (limit ${figures.cpuThresholdPct}%). ` +
    `Price: ${formatPrice(figures.targetHourly)}/h instead of ${formatPrice(figures.currentHourly)}/h, ` +
    `${figures.priceSource}, read ${figures.priceReadAt.slice(0, 10)}. ` +
    `Confidence ${Math.round(figures.confidence * 100)}%.` +
    figures.credits +
    restart
  );
}

// Memory chose the size: a cheaper size had the CPU but not the memory, by the highest reading seen
// (over the overload line) or by the forecast (over the memory threshold).
export function describeMemoryDecided(figures: {
  cheaperSize: string;
  cheaperMemoryGiB: number;
  isPeak: boolean;
  memoryGiB: number;
  limitPct: number;
}): string {
  return (
    ` Memory decided the size: ${figures.cheaperSize} has the CPU, but ` +
    `${figures.isPeak ? 'the highest memory in use seen' : 'the memory forecast'}, ${figures.memoryGiB.toFixed(1)} GiB, ` +
    `would be ${((figures.memoryGiB / figures.cheaperMemoryGiB) * 100).toFixed(0)}% of its ` +
    `${figures.cheaperMemoryGiB} GiB (limit ${figures.limitPct}%).`
  );
}

export function describeShutdown(vmId: string): string {
  return `Shut down ${describeVm(vmId)} (deallocate it): it has been idle.`;
}

export function describeShutdownMemo(figures: {
  peakCpuPct: number;
  days: number;
  currentSize: string;
  currentHourly: number;
  priceSource: string;
  priceReadAt: string;
  confidence: number;
}): string {
  return (
    `Seen: CPU never above ${figures.peakCpuPct.toFixed(1)}% and almost no network traffic over ` +
    `${figures.days.toFixed(0)} days. Deallocated, ${figures.currentSize} costs nothing ` +
    `instead of ${formatPrice(figures.currentHourly)}/h (${figures.priceSource}, read ${figures.priceReadAt.slice(0, 10)}); ` +
    `disks are still billed. Confidence ${Math.round(figures.confidence * 100)}%.`
  );
}

export function describeActiveHours(vmId: string, schedule: ActiveHours, offHours: number): string {
  return `Run ${describeVm(vmId)} from ${formatHour(schedule.start)} to ${formatHour(schedule.end)} UTC every day, deallocated the other ${offHours} hours.`;
}

export function describeActiveHoursMemo(figures: {
  idle: { start: number; end: number; share: number; days: number };
  offHours: number;
  hourly: number;
}): string {
  const { idle } = figures;
  return (
    `Seen: idle from ${formatHour(idle.start)} to ${formatHour(idle.end)} UTC on ${Math.round(idle.share * 100)}% of ` +
    `${idle.days} days. Saves ${figures.offHours} h a day at ${formatPrice(figures.hourly)}/h. ` +
    `Confidence ${Math.round(idle.share * 100)}%.`
  );
}
