// autocannon in a process of its own: a load generator sharing the server's event loop would count
// its own work (sending, parsing answers) against the server's latency.
import autocannon from 'autocannon';
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export interface LoadResult {
  requestsPerSecond: number;
  p99Milliseconds: number;
  errors: number;
  non2xx: number;
  // Answers by status code, for loads whose refusals are expected (a login flood's 401 and 429).
  statusCounts: Record<string, number>;
}

const isChild = process.env.CLOUDTRIM_BENCH_LOAD === '1' && process.send !== undefined;

if (isChild) {
  // Asked for once listening, as a message: a flood's list of requests outgrows what an
  // environment variable may hold.
  const receivedOptions = new Promise<autocannon.Options>((resolve) =>
    process.once('message', (message) => resolve(message as autocannon.Options)),
  );
  process.send!('ready');
  // autocannon appends every body chunk to a string, a UTF-8 decode of each byte: with a compressed
  // (binary) answer that decode, not the server, bounds the run (29 KiB of random bytes: about
  // 1,500 req/s, against 21,000 for the same length of ASCII). Nothing here reads the bodies, so
  // they are dropped unread; autocannon still counts their bytes from the parser.
  const { default: PipelinedRequestsQueue } = (await import(
    // @ts-expect-error: an internal module of autocannon, without types.
    'autocannon/lib/pipelinedRequestsQueue.js'
  )) as { default: { prototype: { addBody(data: Buffer): void } } };
  PipelinedRequestsQueue.prototype.addBody = () => {};
  const result = await autocannon(await receivedOptions);
  const summary: LoadResult = {
    requestsPerSecond: result.requests.average,
    p99Milliseconds: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
    statusCounts: Object.fromEntries(
      Object.entries(result.statusCodeStats ?? {}).map(([code, stats]) => [code, stats.count ?? 0]),
    ),
  };
  process.send!(summary, undefined, {}, () => process.exit(0));
}

export function runLoad(options: autocannon.Options): Promise<LoadResult> {
  const child = fork(fileURLToPath(import.meta.url), {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, CLOUDTRIM_BENCH_LOAD: '1' },
  });
  return new Promise((resolve, reject) => {
    child.on('message', (message) => {
      if (message === 'ready') child.send(options);
      else resolve(message as LoadResult);
    });
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code !== 0) reject(new Error(`the load process exited with ${code}`));
    });
  });
}
