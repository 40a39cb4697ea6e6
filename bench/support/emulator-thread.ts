// The Azure emulator on a thread of its own: its work (10,000 machines' metrics computed on demand)
// must not count against the server's event loop, which the benchmarks measure.
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import {
  startAzureEmulator,
  type EmulatorStats,
  type EmulatorTenant,
  type StartAzureEmulatorOptions,
} from '@cloudtrim/azure-emulator/emulator';

export interface EmulatorThreadHandle {
  url: string;
  caCertificatePath: string;
  tenants: EmulatorTenant[];
  readStats(): Promise<EmulatorStats>;
  resetStats(): Promise<void>;
  stop(): Promise<void>;
}

type Request = { id: number; kind: 'stats' | 'resetStats' | 'stop' };

if (!isMainThread && parentPort) {
  const port = parentPort;
  const emulator = await startAzureEmulator((workerData as { options: StartAzureEmulatorOptions }).options);
  port.postMessage({
    kind: 'ready',
    url: emulator.url,
    caCertificatePath: emulator.caCertificatePath,
    tenants: emulator.tenants,
  });
  port.on('message', async (request: Request) => {
    if (request.kind === 'stats')
      port.postMessage({ id: request.id, value: structuredClone(emulator.stats) });
    if (request.kind === 'resetStats') {
      emulator.resetStats();
      port.postMessage({ id: request.id });
    }
    if (request.kind === 'stop') {
      await emulator.stop();
      port.postMessage({ id: request.id });
      port.close();
    }
  });
}

export function startEmulatorThread(options: StartAzureEmulatorOptions): Promise<EmulatorThreadHandle> {
  const worker = new Worker(new URL('./typescript-worker.mjs', import.meta.url), {
    workerData: { entry: import.meta.url, options },
  });
  let nextId = 0;
  const pending = new Map<number, (value: unknown) => void>();
  const ask = <T>(kind: Request['kind']) =>
    new Promise<T>((resolve) => {
      nextId += 1;
      pending.set(nextId, resolve as (value: unknown) => void);
      worker.postMessage({ id: nextId, kind });
    });
  return new Promise((resolve, reject) => {
    worker.once('error', reject);
    worker.on(
      'message',
      (message: { kind?: string; id?: number; value?: unknown } & Record<string, unknown>) => {
        if (message.kind === 'ready') {
          resolve({
            url: message.url as string,
            caCertificatePath: message.caCertificatePath as string,
            tenants: message.tenants as EmulatorThreadHandle['tenants'],
            readStats: () => ask('stats'),
            resetStats: () => ask('resetStats'),
            stop: async () => {
              await ask('stop');
              await worker.terminate();
            },
          });
          return;
        }
        const resolveRequest = message.id === undefined ? undefined : pending.get(message.id);
        if (resolveRequest) {
          pending.delete(message.id!);
          resolveRequest(message.value);
        }
      },
    );
  });
}

export function azureEnvironment(emulator: Pick<EmulatorThreadHandle, 'url' | 'caCertificatePath'>) {
  return {
    AZURE_AUTHORITY_HOST: emulator.url,
    AZURE_RESOURCE_MANAGER_URL: emulator.url,
    AZURE_METRICS_URL: emulator.url,
    AZURE_PRICES_URL: emulator.url,
    AZURE_CA_FILE: emulator.caCertificatePath,
  };
}
