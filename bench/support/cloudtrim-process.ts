// Cloudtrim started from its own entry point (`node --import tsx server/src/main.ts`) as the
// README's scale-out path runs it: API processes and worker processes (ROLE=api, ROLE=worker) on one
// PostgreSQL, all signing and reading the same tokens and tenant secrets; or as `npm start` runs it,
// one process serving the API with the background work on its job thread (ROLE=all).
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { findFreePort } from '../../server/src/db/database';
import type { Secrets } from '../../server/src/config';
import { apiHeapFlags, backgroundHeapFlags } from '../../server/src/lib/heap';

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../server');

export interface CloudtrimProcess {
  role: CloudtrimRole;
  pid: number;
  url: string;
  output(): string;
  stop(): Promise<void>;
}

export type CloudtrimRole = 'api' | 'worker' | 'all';

export async function startCloudtrimProcess(
  role: CloudtrimRole,
  options: { databaseUrl: string; secrets: Secrets; environment: Record<string, string> },
): Promise<CloudtrimProcess> {
  const port = await findFreePort();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), `cloudtrim-bench-${role}-`));
  // As `npm start` and the README start them: a worker with the background work's heap (ROLE=all
  // gives it to its job thread itself), every role with the old generation's ceiling.
  const nodeFlags = role === 'worker' ? backgroundHeapFlags : apiHeapFlags;
  const child = spawn(process.execPath, [...nodeFlags, '--import', 'tsx', 'src/main.ts'], {
    cwd: serverDir,
    env: {
      ...process.env,
      ...options.environment,
      ROLE: role,
      PORT: String(port),
      DATA_DIR: dataDir,
      DATABASE_URL: options.databaseUrl,
      DEMO: '0',
      LOG_LEVEL: 'error',
      JWT_SECRET: options.secrets.jwtSecret,
      ENCRYPTION_KEY: options.secrets.encryptionKey.toString('hex'),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  await new Promise<void>((resolve, reject) => {
    const check = setInterval(() => {
      if (output.includes('Cloudtrim is running')) {
        clearInterval(check);
        resolve();
      } else if (child.exitCode !== null) {
        clearInterval(check);
        reject(new Error(`the ${role} process failed to start:\n${output}`));
      }
    }, 100);
  });
  return {
    role,
    pid: child.pid!,
    url: `http://127.0.0.1:${port}`,
    output: () => output,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
