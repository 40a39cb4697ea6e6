// Cloudtrim's own entry point (`node --import tsx src/main.ts`) as a child process on the test's
// database and emulator, for tests that need real processes: scale-out, crashes.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
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
