// The gateway against the emulator through the real SDK, for what the service tests do not reach:
// VM sizes, retail prices, the batch limit, a merge of tags and the deadline every call carries.
import type { AzureEmulator } from '@cloudtrim/azure-emulator/emulator';
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEmulator } from '../../../test/azure-emulator';
import { isCloudError, type CloudCredentials } from '../cloud-provider';
import { AzureGateway } from './azure-gateway';

let emulator: AzureEmulator;
let credentials: CloudCredentials;

function createGateway(timeoutMs = 30_000, caPem?: string): AzureGateway {
  const url = emulator.url;
  return new AzureGateway(
    {
      authorityHost: url,
      resourceManagerUrl: url,
      metricsUrlTemplate: url,
      pricesUrl: url,
      caFile: emulator.caCertificatePath,
      timeoutMs,
    },
    caPem ?? emulator.caCertificatePem,
  );
}

beforeAll(async () => {
  emulator = await startTestEmulator({ fleetSize: 10 });
  const tenant = emulator.tenants[0]!;
  const principal = tenant.principals[0]!;
  credentials = {
    tenantId: tenant.tenantId,
    applicationId: principal.applicationId,
    secret: principal.secret,
  };
});
afterAll(() => emulator.stop());

describe('AzureGateway', () => {
  it('trusts the configured CA file, and refuses an endpoint whose certificate it cannot verify', async () => {
    const trusting = createGateway(30_000, await readFile(emulator.caCertificatePath, 'utf8'));
    expect(await trusting.listSubscriptions(credentials)).toHaveLength(2);
    const untrusting = new AzureGateway({
      authorityHost: emulator.url,
      resourceManagerUrl: emulator.url,
      metricsUrlTemplate: emulator.url,
      pricesUrl: emulator.url,
      caFile: undefined,
      timeoutMs: 10_000,
    });
    await expect(untrusting.listSubscriptions(credentials)).rejects.toSatisfy((error) => isCloudError(error));
  });

  it("lists a region's VM sizes with cores and memory", async () => {
    const subscriptionId = emulator.tenants[0]!.subscriptions[0]!.subscriptionId;
    const sizes = await createGateway().listVmSkus(credentials, subscriptionId, 'eastus');
    expect(sizes.find((size) => size.name === 'Standard_D4s_v5')).toMatchObject({
      name: 'Standard_D4s_v5',
      vcpus: 4,
      memoryGiB: 16,
      maxDataDisks: 8,
    });
    const westEurope = await createGateway().listVmSkus(credentials, subscriptionId, 'westeurope');
    expect(westEurope.filter((size) => size.isAvailable).map((size) => size.name)).not.toContain(
      'Standard_F64s_v2',
    );
  });

  it('reads hourly retail prices of VM sizes in a region, following every page', async () => {
    const prices = await createGateway().listRetailPrices({
      serviceName: 'Virtual Machines',
      region: 'eastus',
      skuNames: ['Standard_D2s_v5', 'Standard_D4s_v5'],
    });
    expect(new Set(prices.map((price) => price.armSkuName))).toEqual(
      new Set(['Standard_D2s_v5', 'Standard_D4s_v5']),
    );
    expect(prices.every((price) => price.region === 'eastus' && price.currencyCode === 'USD')).toBe(true);
    expect(prices.every((price) => price.retailPrice > 0 && price.unitOfMeasure === '1 Hour')).toBe(true);
    const everyRegion = await createGateway().listRetailPrices({ serviceName: 'Virtual Machines' });
    expect(everyRegion.length).toBeGreaterThan(100);
  });

  it('refuses a batch of more than 50 resources without calling Azure', async () => {
    emulator.resetStats();
    const resourceIds = Array.from({ length: 51 }, (_unused, index) => `/subscriptions/s/vm-${index}`);
    const window = {
      metricNames: ['Percentage CPU'],
      resourceType: 'Microsoft.Compute/virtualMachines',
      start: new Date(Date.now() - 600_000),
      end: new Date(Date.now() - 120_000),
      interval: 'PT1M' as const,
      aggregations: ['average' as const],
    };
    await expect(
      createGateway().getMetricBatch(
        credentials,
        { subscriptionId: 's', region: 'eastus', resourceIds },
        window,
      ),
    ).rejects.toSatisfy((error) => isCloudError(error, 'invalidRequest'));
    expect(emulator.stats.calls.getBatch).toBe(0);
  });

  it("merges tags into a VM's with the Tags API, keeping the others, and refuses a VM not there", async () => {
    const machine = emulator.fleet.virtualMachines[0]!;
    const before = { ...machine.tags };
    const gateway = createGateway();
    expect(await gateway.mergeTags(credentials, machine.id, { owner: 'ops' })).toEqual({
      ...before,
      owner: 'ops',
    });
    expect(await gateway.mergeTags(credentials, machine.id, { owner: 'ops' })).toEqual({
      ...before,
      owner: 'ops',
    });
    expect(emulator.fleet.findVirtualMachine(machine.id)!.tags).toEqual({ ...before, owner: 'ops' });
    await expect(
      gateway.mergeTags(credentials, `${machine.id.replace(/\/[^/]+$/, '')}/no-such-vm`, { owner: 'ops' }),
    ).rejects.toSatisfy((error) => isCloudError(error, 'notFound'));
  });

  it('gives up on an operation that outlives its deadline, retries included', async () => {
    const gateway = createGateway(1500);
    await gateway.listSubscriptions(credentials);
    emulator.setFaults({ delayMs: 3000, kinds: ['arm-read'] });
    try {
      const started = Date.now();
      const subscriptionId = emulator.tenants[0]!.subscriptions[0]!.subscriptionId;
      await expect(gateway.listResources(credentials, subscriptionId)).rejects.toSatisfy((error) =>
        isCloudError(error, 'timeout'),
      );
      expect(Date.now() - started).toBeLessThan(2900);
    } finally {
      emulator.setFaults();
    }
  });

  it('retries server errors and succeeds when Azure recovers', async () => {
    emulator.resetStats();
    emulator.setFaults({ errorCount: 2, errorStatus: 503, kinds: ['arm-read'] });
    try {
      const subscriptionId = emulator.tenants[0]!.subscriptions[0]!.subscriptionId;
      const resources = await createGateway().listResources(credentials, subscriptionId);
      expect(resources.length).toBeGreaterThan(0);
      expect(emulator.stats.faultsInjected).toBe(2);
    } finally {
      emulator.setFaults();
    }
  });
});
