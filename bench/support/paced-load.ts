// A steady load in a process of its own, every request kept: sent at a fixed rate on a few
// keep-alive connections for as long as the bench runs, each request's latency counted from the time
// it was due (a request held back because every connection was busy counts its wait: no
// coordinated omission). A bench cuts the samples by the phases it measures, so a phase's p99 rests
// on every request sent in it and says how many, rather than on a handful of fixed-length runs
// straddling the phase's edges.
import { fork } from 'node:child_process';
import http from 'node:http';
import { fileURLToPath } from 'node:url';

export interface PacedLoadOptions {
  url: string;
  headers: Record<string, string>;
  ratePerSecond: number;
  connections: number;
}

// One request: when it was due (epoch ms), how long it took from then, and its status (0: failed).
export interface PacedSample {
  dueAtMs: number;
  latencyMs: number;
  status: number;
}

export interface PacedLoad {
  // Stops sending, waits for the requests in flight, and gives every sample.
  stop(): Promise<PacedSample[]>;
}

const isChild = process.env.CLOUDTRIM_BENCH_PACED_LOAD === '1' && process.send !== undefined;

if (isChild) {
  const options = JSON.parse(process.env.CLOUDTRIM_BENCH_PACED_LOAD_OPTIONS!) as PacedLoadOptions;
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.connections });
  // Kept as flat numbers: a long run at 50 req/s is hundreds of thousands of samples.
  const samples: number[] = [];
  let inFlight = 0;
  let isStopping = false;
  const intervalMs = 1000 / options.ratePerSecond;
  const startMs = performance.timeOrigin + performance.now();
  let sent = 0;
  const send = (dueAtMs: number) => {
    inFlight += 1;
    const request = http.get(options.url, { agent, headers: options.headers }, (response) => {
      response.resume();
      response.once('end', () => finish(response.statusCode ?? 0));
    });
    request.once('error', () => finish(0));
    let isFinished = false;
    function finish(status: number) {
      if (isFinished) return;
      isFinished = true;
      inFlight -= 1;
      samples.push(dueAtMs, performance.timeOrigin + performance.now() - dueAtMs, status);
    }
  };
  // Every request due by now is sent (the agent queues those beyond its connections).
  const tick = () => {
    if (isStopping) return;
    const nowMs = performance.timeOrigin + performance.now();
    while (startMs + sent * intervalMs <= nowMs) {
      send(startMs + sent * intervalMs);
      sent += 1;
    }
    setTimeout(tick, Math.max(1, startMs + sent * intervalMs - nowMs));
  };
  tick();
  process.on('message', async () => {
    isStopping = true;
    while (inFlight > 0) await new Promise((resolve) => setTimeout(resolve, 20));
    agent.destroy();
    process.send!(samples, undefined, {}, () => process.exit(0));
  });
  process.send!('ready');
}

export async function startPacedLoad(options: PacedLoadOptions): Promise<PacedLoad> {
  const child = fork(fileURLToPath(import.meta.url), {
    execArgv: ['--import', 'tsx'],
    env: {
      ...process.env,
      CLOUDTRIM_BENCH_PACED_LOAD: '1',
      CLOUDTRIM_BENCH_PACED_LOAD_OPTIONS: JSON.stringify(options),
    },
  });
  await new Promise<void>((resolve, reject) => {
    child.once('error', reject);
    child.once('message', () => resolve());
  });
  return {
    stop: () =>
      new Promise((resolve) => {
        child.once('message', (flat: number[]) => {
          const samples: PacedSample[] = [];
          for (let index = 0; index < flat.length; index += 3) {
            samples.push({ dueAtMs: flat[index]!, latencyMs: flat[index + 1]!, status: flat[index + 2]! });
          }
          resolve(samples);
        });
        child.send('stop');
      }),
  };
}

// The samples due in [fromMs, toMs): their count, p50, p99, worst, how many over `boundMs`, failures.
export function summarizeSamples(samples: PacedSample[], fromMs: number, toMs: number, boundMs: number) {
  const inPhase = samples.filter((sample) => sample.dueAtMs >= fromMs && sample.dueAtMs < toMs);
  const latencies = inPhase.map((sample) => sample.latencyMs).sort((a, b) => a - b);
  const at = (share: number) =>
    latencies[Math.min(latencies.length - 1, Math.ceil(share * latencies.length) - 1)];
  return {
    count: latencies.length,
    p50Ms: at(0.5),
    p99Ms: at(0.99),
    worstMs: latencies.at(-1),
    overBound: latencies.filter((latency) => latency > boundMs).length,
    failures: inPhase.filter((sample) => sample.status < 200 || sample.status >= 300).length,
  };
}
