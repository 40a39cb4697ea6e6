// The resident memory (VmRSS, from /proc/<pid>/status) of a set of processes, sampled every second
// while a benchmark runs: the highest seen per process is what a host must provide, and when it was
// seen says what the process was doing.
import { readFile } from 'node:fs/promises';

export interface MemoryPeak {
  bytes: number;
  // Epoch ms of the sample.
  atMs: number;
}

export interface MemorySampler {
  // The highest VmRSS seen per label.
  stop(): Map<string, MemoryPeak>;
}

// A resident size as the benches print it, in whole mebibytes.
export function formatResident(bytes: number): string {
  return `${(bytes / 2 ** 20).toFixed(0)} MiB`;
}

export function sampleMemory(processes: Array<{ label: string; pid: number }>): MemorySampler {
  const peaks = new Map<string, MemoryPeak>(processes.map(({ label }) => [label, { bytes: 0, atMs: 0 }]));
  const sample = async () => {
    for (const { label, pid } of processes) {
      const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
      const kilobytes = Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? 0);
      if (kilobytes * 1024 > (peaks.get(label)?.bytes ?? 0)) {
        peaks.set(label, { bytes: kilobytes * 1024, atMs: Date.now() });
      }
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
