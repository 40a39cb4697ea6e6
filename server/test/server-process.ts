// Cloudtrim's own entry point (`node --import tsx src/main.ts`) as a child process on the test's
// database and emulator, for tests that need real processes: scale-out, crashes.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AzureEmulator } from '@cloudtrim/azure-emulator/emulator';
import type { Secrets } from '../src/config';
import { findFreePort } from '../src/db/database';
import { createAzureEnvironment, waitFor, type CloudTestContext } from './azure-emulator';

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface ServerProcess {
  child: ChildProcess;
  port: number;
  url: string;
  output(): string;
  stop(): Promise<void>;
}

export async function startServerProcess(
  context: CloudTestContext,
  role: 'worker' | 'api',
  environment: Record<string, string> = {},
): Promise<ServerProcess> {
  const port = await findFreePort();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), `cloudtrim-${role}-`));
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: serverDir,
    env: {
      ...process.env,
      ...createAzureEnvironment(context.emulator),
      ROLE: role,
      PORT: String(port),
      DATA_DIR: dataDir,
      DATABASE_URL: context.databaseUrl,
      DEMO: '0',
      LOG_LEVEL: 'error',
      PUBLIC_URL: 'http://cloudtrim.test',
      // Every process signs and reads the same tokens and tenant secrets.
      JWT_SECRET: context.secrets.jwtSecret,
      ENCRYPTION_KEY: context.secrets.encryptionKey.toString('hex'),
      ...environment,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
  };
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  await waitFor(async () => output.includes('Cloudtrim is running') || child.exitCode !== null, 90_000);
  if (child.exitCode !== null) throw new Error(`the ${role} process failed to start:\n${output}`);
  return {
    child,
    port,
    url: `http://127.0.0.1:${port}`,
    output: () => output,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

// A round-robin reverse proxy: each request goes to the next backend in turn, as a load balancer
// without session affinity would send it.
export async function startRoundRobinProxy(
  ports: number[],
): Promise<{ url: string; close(): Promise<void> }> {
  let next = 0;
  const server = http.createServer((request, response) => {
    const port = ports[next++ % ports.length]!;
    const upstream = http.request(
      { host: '127.0.0.1', port, method: request.method, path: request.url, headers: request.headers },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    upstream.on('error', () => {
      response.writeHead(502);
      response.end();
    });
    request.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

export interface WorkerScriptOptions {
  emulator: AzureEmulator;
  databaseUrl: string;
  secrets: Secrets;
  // The container's clock, and the wall-clock time at which the work starts (so two processes act
  // at the same instant).
  clockMs: number;
  startAt: number;
  // A script body with `container` in scope that returns a number, e.g. `return container.x.y();`.
  work: string;
  environment?: Record<string, string>;
}

// A worker process of its own for the proofs that something happens once across processes: the
// app's container on the test's database and clock, which waits until `startAt`, runs `work`, and
// answers the number it returned.
export async function runWorkerScript(options: WorkerScriptOptions): Promise<number> {
  const script = `
const { loadConfig } = await import('./src/config.ts');
const { createContainer } = await import('./src/container.ts');
const { openDatabase } = await import('./src/db/database.ts');
const { createJobDefinitions } = await import('./src/jobs/definitions.ts');
const { JobQueue } = await import('./src/queue/queue.ts');
const config = loadConfig(process.env);
const database = await openDatabase(config.databaseUrl, { maxConnections: 4 });
const log = { info() {}, warn() {}, error() {} };
const queue = new JobQueue(database.url, log, { isSendOnly: true });
const secrets = { jwtSecret: process.env.JWT_SECRET, encryptionKey: Buffer.from(process.env.ENCRYPTION_KEY, 'hex') };
const container = createContainer({ config, secrets, database, queue, now: () => new Date(Number(process.env.CLOCK_MS)) });
await queue.start(createJobDefinitions(container));
await new Promise((resolve) => setTimeout(resolve, Math.max(0, Number(process.env.START_AT) - Date.now())));
const result = await (async () => { ${options.work} })();
console.log('result=' + result);
await queue.stop();
await database.close();
process.exit(0);
`;
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'cloudtrim-worker-script-'));
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: serverDir,
    env: {
      ...process.env,
      ...createAzureEnvironment(options.emulator),
      ROLE: 'worker',
      DATA_DIR: dataDir,
      DATABASE_URL: options.databaseUrl,
      DEMO: '0',
      LOG_LEVEL: 'silent',
      PUBLIC_URL: 'http://cloudtrim.test',
      JWT_SECRET: options.secrets.jwtSecret,
      ENCRYPTION_KEY: options.secrets.encryptionKey.toString('hex'),
      CLOCK_MS: String(options.clockMs),
      START_AT: String(options.startAt),
      ...options.environment,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  const match = /result=(\d+)/.exec(output);
  if (code !== 0 || !match) throw new Error(`the worker script failed (${code}):\n${output}`);
  return Number(match[1]);
}
