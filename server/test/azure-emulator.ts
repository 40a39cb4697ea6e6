// The Azure emulator in-process for integration tests: the app under test points every Azure
// endpoint and its trusted CA at it through the same settings production uses.
import os from 'node:os';
import path from 'node:path';
import {
  startAzureEmulator,
  type AzureEmulator,
  type StartAzureEmulatorOptions,
} from '@cloudtrim/azure-emulator/emulator';
import { parseQueryDefinition, runQuery } from '@cloudtrim/azure-emulator/costs/cost.query';
import type { AddTenantRequest } from '@cloudtrim/contracts/tenants';
import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../src/db/database';
import { resources } from '../src/db/schema';
import { createJobDefinitions } from '../src/jobs/definitions';
import { createTestContext, type TestContext, type TestContextOptions } from './helper';

// One data directory for every test file, so the emulator's CA is made once.
const emulatorDataDir = path.join(os.tmpdir(), 'cloudtrim-server-tests-azure');

export interface CloudTestContext extends TestContext {
  emulator: AzureEmulator;
  // Stops the emulator and starts another on the same address (the app keeps its settings).
  restartEmulator(options: Partial<StartAzureEmulatorOptions>): Promise<AzureEmulator>;
}

export interface CloudTestContextOptions extends Omit<TestContextOptions, 'environment'> {
  emulator?: Partial<StartAzureEmulatorOptions>;
}

export function startTestEmulator(options: Partial<StartAzureEmulatorOptions> = {}): Promise<AzureEmulator> {
  return startAzureEmulator({ dataDir: emulatorDataDir, fleetSize: 12, seed: 42, ...options });
}

export function createAzureEnvironment(emulator: AzureEmulator): Record<string, string> {
  return {
    AZURE_AUTHORITY_HOST: emulator.url,
    AZURE_RESOURCE_MANAGER_URL: emulator.url,
    AZURE_METRICS_URL: emulator.url,
    AZURE_PRICES_URL: emulator.url,
    AZURE_CA_FILE: emulator.caCertificatePath,
    AZURE_TIMEOUT_SECONDS: '30',
  };
}

// The app against a fresh database and emulator. Without workers the queue is still started, so
// services can enqueue; the test then runs the job's service call itself.
export async function createCloudTestContext(
  options: CloudTestContextOptions = {},
): Promise<CloudTestContext> {
  let emulator = await startTestEmulator(options.emulator);
  const context = await createTestContext({ ...options, environment: createAzureEnvironment(emulator) });
  if (!options.hasWorkers) await context.container.queue.start(createJobDefinitions(context.container));
  return {
    ...context,
    get emulator() {
      return emulator;
    },
    restartEmulator: async (restartOptions) => {
      const port = emulator.port;
      await emulator.stop();
      emulator = await startTestEmulator({ ...options.emulator, ...restartOptions, port });
      return emulator;
    },
    close: async () => {
      await context.close();
      await emulator.stop();
    },
  };
}

// The add-tenant body for an emulator tenant's principal, by their positions.
export function createTenantRequest(
  emulator: AzureEmulator,
  tenantIndex: number,
  principalIndex: number,
  friendlyName?: string,
): AddTenantRequest {
  const tenant = emulator.tenants[tenantIndex]!;
  const principal = tenant.principals[principalIndex]!;
  return {
    Type: 'Azure',
    TenantId: tenant.tenantId,
    ApplicationId: principal.applicationId,
    ServicePrincipalSecret: principal.secret,
    FriendlyName: friendlyName ?? tenant.displayName,
  };
}

// Connects an emulator tenant to a team as the API would, and answers our tenant id.
export async function connectTenant(
  context: CloudTestContext,
  teamId: string,
  tenantIndex = 0,
  principalIndex = 0,
): Promise<string> {
  const request = createTenantRequest(context.emulator, tenantIndex, principalIndex);
  await context.container.tenants.addTenant(teamId, request);
  const tenants = await context.container.tenants.listTenants(teamId);
  return tenants.find((tenant) => tenant.TenantId === request.TenantId)!.Id;
}

// Polls until `check` answers a value, for work the job workers do in the background.
export async function waitFor<Value>(
  check: () => Promise<Value | undefined | false>,
  timeoutMs = 30_000,
): Promise<Value> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error('waitFor: condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

// The tenant's VMs inventory last saw running, by name.
export function listRunningVms(db: Db, tenantId: string): Promise<(typeof resources.$inferSelect)[]> {
  return db
    .select()
    .from(resources)
    .where(
      and(
        eq(resources.tenantId, tenantId),
        eq(resources.type, 'Microsoft.Compute/virtualMachines'),
        eq(resources.powerState, 'running'),
      ),
    )
    .orderBy(asc(resources.name));
}

// Azure's total for a subscription, cost type and days (both included), from the emulator's own
// Cost Management query as it answers at `now`: what a read of the bill must add up to.
export function readAzureCostTotal(
  emulator: AzureEmulator,
  query: { subscriptionId: string; type: 'ActualCost' | 'AmortizedCost'; from: string; to: string },
  now: Date,
): number {
  const ledger = emulator.costs;
  const definition = parseQueryDefinition(
    {
      type: query.type,
      timeframe: 'Custom',
      timePeriod: { from: `${query.from}T00:00:00Z`, to: `${query.to}T23:59:59Z` },
      dataset: { granularity: 'None', aggregation: { total: { name: 'Cost', function: 'Sum' } } },
    },
    now,
    ledger.firstDay,
  );
  return Number(runQuery(ledger, ledger.listItems(query.subscriptionId), definition).rows[0]?.[0] ?? 0);
}
