// The VM's load in absolute units (vCPUs busy, GiB used, bytes moved), so it can be laid on any
// size: a reading of p% on c vCPUs is p × c / 100 vCPUs of work.
import type { SizeOption, VmAnalysisInput } from './analysis.types';

export interface Demand {
  startMs: number;
  stepMinutes: number;
  steps: number;
  currentVcpus: number;
  // Busy vCPUs: the step's average, and its peak.
  cpuVcpus: Float64Array;
  cpuPeakVcpus: Float64Array;
  // Used memory in GiB (average and peak); null when the VM reports none.
  memoryGiB: Float64Array | null;
  memoryPeakGiB: Float64Array | null;
  // Bytes in and out per step (average); null when unknown.
  networkBytes: Float64Array | null;
}

export function readDemand(
  input: Pick<VmAnalysisInput, 'cpu' | 'memoryUsedGiB' | 'network'>,
  current: SizeOption,
): Demand {
  const { cpu } = input;
  const steps = cpu.average.length;
  // A plain loop: typed-array map with a closure is several times slower, and this runs per VM.
  const toVcpus = (series: Float64Array) => {
    const vcpus = new Float64Array(series.length);
    const scale = current.vcpus / 100;
    for (let step = 0; step < series.length; step += 1) vcpus[step] = series[step]! * scale;
    return vcpus;
  };
  const memory = input.memoryUsedGiB;
  return {
    startMs: cpu.startMs,
    stepMinutes: cpu.stepMinutes,
    steps,
    currentVcpus: current.vcpus,
    cpuVcpus: toVcpus(cpu.average),
    cpuPeakVcpus: toVcpus(cpu.maximum),
    memoryGiB: memory ? memory.average : null,
    memoryPeakGiB: memory ? memory.maximum : null,
    networkBytes: input.network ? input.network.average : null,
  };
}

export function stepsPerDay(demand: Pick<Demand, 'stepMinutes'>): number {
  return Math.round(1440 / demand.stepMinutes);
}
