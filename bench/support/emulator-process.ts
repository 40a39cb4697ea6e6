// The Azure emulator in a process of its own, at the lowest CPU priority: it stands in for Azure,
// so its work (10,000 machines' metrics computed on demand) must not compete with the server the
// benchmarks measure for this machine's cores.
import { fork } from 'node:child_process';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import {
  startAzureEmulator,
  type EmulatorStats,
  type EmulatorTenant,
  type StartAzureEmulatorOptions,
} from '@cloudtrim/azure-emulator/emulator';

export interface EmulatorProcessHandle {
  pid: number;
  url: string;
  caCertificatePath: string;
  tenants: EmulatorTenant[];
  readStats(): Promise<EmulatorStats>;
  resetStats(): Promise<void>;
  stop(): Promise<void>;
}

type Request = { id: number; kind: 'stats' | 'resetStats' | 'stop' };
type Message = { kind?: 'ready'; id?: number; value?: unknown } & Record<string, unknown>;

const isChild = process.env.CLOUDTRIM_BENCH_EMULATOR === '1' && process.send !== undefined;

if (isChild) {
  os.setPriority(19);
  const options = JSON.parse(process.env.CLOUDTRIM_BENCH_EMULATOR_OPTIONS!) as StartAzureEmulatorOptions;
  const emulator = await startAzureEmulator(options);
  process.send!({
    kind: 'ready',
    url: emulator.url,
    caCertificatePath: emulator.caCertificatePath,
    tenants: emulator.tenants,
  });
  process.on('message', async (request: Request) => {
    if (request.kind === 'stats') process.send!({ id: request.id, value: emulator.stats });
    if (request.kind === 'resetStats') {
      emulator.resetStats();
      process.send!({ id: request.id });
    }
    if (request.kind === 'stop') {
      await emulator.stop();
      process.send!({ id: request.id }, undefined, {}, () => process.exit(0));
    }
  });
}

// `heapMebibytes` raises V8's heap limit for a fleet larger than its default fits.
export function startEmulatorProcess(
  options: StartAzureEmulatorOptions,
  processOptions: { heapMebibytes?: number } = {},
): Promise<EmulatorProcessHandle> {
  const child = fork(fileURLToPath(import.meta.url), {
    execArgv: [
      '--import',
      'tsx',
      ...(processOptions.heapMebibytes ? [`--max-old-space-size=${processOptions.heapMebibytes}`] : []),
    ],
    env: {
      ...process.env,
      CLOUDTRIM_BENCH_EMULATOR: '1',
      CLOUDTRIM_BENCH_EMULATOR_OPTIONS: JSON.stringify(options),
    },
  });
  let nextId = 0;
  const pending = new Map<number, (value: unknown) => void>();
  const ask = <T>(kind: Request['kind']) =>
    new Promise<T>((resolve) => {
      nextId += 1;
      pending.set(nextId, resolve as (value: unknown) => void);
      child.send({ id: nextId, kind });
    });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the emulator process exited with ${code}`)));
    child.on('message', (message: Message) => {
      if (message.kind === 'ready') {
        child.removeAllListeners('exit');
        resolve({
          pid: child.pid!,
          url: message.url as string,
          caCertificatePath: message.caCertificatePath as string,
          tenants: message.tenants as EmulatorTenant[],
          readStats: () => ask('stats'),
          resetStats: () => ask('resetStats'),
          stop: async () => {
            const exited = new Promise((done) => child.once('exit', done));
            await ask('stop');
            await exited;
          },
        });
        return;
      }
      const resolveRequest = message.id === undefined ? undefined : pending.get(message.id);
      if (resolveRequest) {
        pending.delete(message.id!);
        resolveRequest(message.value);
      }
    });
  });
}

export function azureEnvironment(emulator: Pick<EmulatorProcessHandle, 'url' | 'caCertificatePath'>) {
  return {
    AZURE_AUTHORITY_HOST: emulator.url,
    AZURE_RESOURCE_MANAGER_URL: emulator.url,
    AZURE_METRICS_URL: emulator.url,
    AZURE_PRICES_URL: emulator.url,
    AZURE_CA_FILE: emulator.caCertificatePath,
  };
}
