import type https from 'node:https';
import { request } from 'node:https';
import os from 'node:os';
import path from 'node:path';
import type { ClientSecretCredential } from '@azure/identity';
import { startAzureEmulator, type AzureEmulator, type StartAzureEmulatorOptions } from '../emulator';
import {
  createArmClientOptions,
  createEmulatorAgent,
  createEmulatorCredential,
  createMetricsClientOptions,
} from './sdk-options';

export interface RawAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: unknown;
}

export interface TestEmulator {
  readonly emulator: AzureEmulator;
  readonly agent: https.Agent;
  /** The credential of a tenant's principal, by positions in `emulator.tenants`. */
  createCredential(tenantIndex: number, principalIndex: number): ClientSecretCredential;
  readonly armOptions: ReturnType<typeof createArmClientOptions>;
  readonly metricsOptions: ReturnType<typeof createMetricsClientOptions>;
  /** A plain HTTPS call to the emulator, for what no SDK client covers. */
  send(
    method: string,
    pathAndQuery: string,
    options?: { token?: string; body?: string; contentType?: string },
  ): Promise<RawAnswer>;
  /** An access token for Resource Manager, as the SDK would get it. */
  readToken(tenantIndex: number, principalIndex: number): Promise<string>;
  stop(): Promise<void>;
}

// Tests share one data directory so the CA is created once per machine, not once per test.
export const testDataDirectory = path.join(os.tmpdir(), 'cloudtrim-azure-emulator-tests');

export async function startTestEmulator(
  options: Partial<StartAzureEmulatorOptions> = {},
): Promise<TestEmulator> {
  const emulator = await startAzureEmulator({
    dataDir: testDataDirectory,
    operationDurationMs: 200,
    ...options,
  });
  const agent = createEmulatorAgent(emulator.caCertificatePem);
  const createCredential = (tenantIndex: number, principalIndex: number) => {
    const tenant = emulator.tenants[tenantIndex];
    const principal = tenant?.principals[principalIndex];
    if (!tenant || !principal) throw new Error(`No principal ${tenantIndex}/${principalIndex}`);
    return createEmulatorCredential(
      emulator,
      agent,
      tenant.tenantId,
      principal.applicationId,
      principal.secret,
    );
  };
  const send: TestEmulator['send'] = (method, pathAndQuery, sendOptions = {}) =>
    new Promise((resolve, reject) => {
      const target = new URL(emulator.url);
      const headers: Record<string, string> = {};
      if (sendOptions.token) headers.authorization = `Bearer ${sendOptions.token}`;
      if (sendOptions.body !== undefined) {
        headers['content-type'] = sendOptions.contentType ?? 'application/json';
        headers['content-length'] = String(Buffer.byteLength(sendOptions.body));
      }
      const outgoing = request(
        { host: target.hostname, port: target.port, method, path: pathAndQuery, agent, headers },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            let body: unknown = text;
            try {
              body = text ? JSON.parse(text) : undefined;
            } catch {
              body = text;
            }
            resolve({ status: response.statusCode ?? 0, headers: response.headers, body });
          });
        },
      );
      outgoing.on('error', reject);
      outgoing.end(sendOptions.body);
    });
  return {
    emulator,
    agent,
    createCredential,
    armOptions: createArmClientOptions(emulator, agent),
    metricsOptions: createMetricsClientOptions(agent),
    send,
    readToken: async (tenantIndex, principalIndex) => {
      const token = await createCredential(tenantIndex, principalIndex).getToken(`${emulator.url}/.default`);
      return token.token;
    },
    stop: async () => {
      agent.destroy();
      await emulator.stop();
    },
  };
}
