// The resident memory (VmRSS, from /proc/<pid>/status) of a set of processes, sampled every second
// while a benchmark runs: the highest seen per process is what a host must provide.
import { readFile } from 'node:fs/promises';

export interface MemorySampler {
  // The highest VmRSS seen per label, in bytes.
  stop(): Map<string, number>;
}

export function sampleMemory(processes: Array<{ label: string; pid: number }>): MemorySampler {
  const peaks = new Map<string, number>(processes.map(({ label }) => [label, 0]));
  const sample = async () => {
    for (const { label, pid } of processes) {
      const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
      const kilobytes = Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? 0);
      peaks.set(label, Math.max(peaks.get(label) ?? 0, kilobytes * 1024));
    }
  };
  void sample();
  const timer = setInterval(() => void sample(), 1000);
  return {
    stop: () => {
      clearInterval(timer);
      return peaks;
    },
  };
}
