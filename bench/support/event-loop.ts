// Event-loop delay as monitoring tools define it: how late a timer due every `resolution` ms fires.
// Node's histogram records the whole interval between firings, so an idle loop sampled every 10 ms
// reads 10 ms; the resolution is taken off, as @fastify/under-pressure does. Sampled every
// millisecond, so short stalls are seen too.
import { monitorEventLoopDelay } from 'node:perf_hooks';

const resolutionMs = 1;

export interface EventLoopDelay {
  p99Milliseconds: number;
  maxMilliseconds: number;
}

export function monitorEventLoop(): { stop(): EventLoopDelay } {
  const histogram = monitorEventLoopDelay({ resolution: resolutionMs });
  histogram.enable();
  const delay = (nanoseconds: number) => Math.max(0, nanoseconds / 1e6 - resolutionMs);
  return {
    stop: () => {
      histogram.disable();
      return { p99Milliseconds: delay(histogram.percentile(99)), maxMilliseconds: delay(histogram.max) };
    },
  };
}
