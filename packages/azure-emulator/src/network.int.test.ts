import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readWriteCount } from './emulator.stats';
import type { PublicIpAddressRecord } from './fleet/fleet.model';
import { startTestEmulator, type TestEmulator } from './testing/emulator.fixture';

const apiVersion = 'api-version=2024-05-01';

interface PublicIpView {
  readonly id: string;
  readonly name: string;
  readonly sku: { readonly name: string };
  readonly properties: {
    readonly ipAddress?: string;
    readonly publicIPAllocationMethod: string;
    readonly ipConfiguration?: { readonly id: string };
  };
}

describe('Public IP addresses (Microsoft.Network, raw calls)', () => {
  let kit: TestEmulator;
  let token: string;
  let subscriptionId: string;

  function pickAddress(predicate: (address: PublicIpAddressRecord) => boolean): PublicIpAddressRecord {
    const address = kit.emulator.fleet.publicIpAddresses.find(
      (candidate) =>
        candidate.subscriptionId === subscriptionId &&
        candidate.deletedMs === undefined &&
        predicate(candidate),
    );
    if (!address) throw new Error('The fleet has a fitting public IP');
    return address;
  }

  async function waitForOperation(url: string): Promise<string> {
    for (;;) {
      const status = await kit.send('GET', url.slice(kit.emulator.url.length), { token });
      const body = status.body as { status: string };
      if (body.status !== 'InProgress') return body.status;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  beforeAll(async () => {
    kit = await startTestEmulator({ fleetSize: 120 });
    token = await kit.readToken(0, 0);
    subscriptionId = kit.emulator.tenants[0]?.subscriptions[0]?.subscriptionId ?? '';
  });

  afterAll(async () => {
    await kit.stop();
  });

  it('lists Standard and Basic addresses, most on a NIC, a few idle', async () => {
    const list = await kit.send(
      'GET',
      `/subscriptions/${subscriptionId}/providers/Microsoft.Network/publicIPAddresses?${apiVersion}`,
      { token },
    );
    expect(list.status).toBe(200);
    const addresses = (list.body as { value: PublicIpView[] }).value;
    const idle = addresses.filter((address) => !address.properties.ipConfiguration);
    expect(idle.length).toBeGreaterThan(0);
    expect(idle.length).toBeLessThan(addresses.length / 2);
    expect(new Set(addresses.map((address) => address.sku.name))).toEqual(new Set(['Standard', 'Basic']));
    const associated = addresses.find((address) => address.properties.ipConfiguration);
    expect(associated?.properties.ipConfiguration?.id).toMatch(
      /\/providers\/Microsoft\.Network\/networkInterfaces\/[^/]+-nic\/ipConfigurations\/ipconfig1$/,
    );
    expect(
      addresses
        .filter((address) => address.sku.name === 'Standard')
        .every(
          (address) =>
            address.properties.publicIPAllocationMethod === 'Static' && address.properties.ipAddress,
        ),
    ).toBe(true);

    const one = idle[0]!;
    const group = one.id.split('/')[4];
    const fetched = await kit.send('GET', `${one.id}?${apiVersion}`, { token });
    expect(fetched.body).toMatchObject({
      id: one.id,
      name: one.name,
      type: 'Microsoft.Network/publicIPAddresses',
    });
    const inGroup = await kit.send(
      'GET',
      `/subscriptions/${subscriptionId}/resourceGroups/${group}/providers/Microsoft.Network/publicIPAddresses?${apiVersion}`,
      { token },
    );
    expect((inGroup.body as { value: PublicIpView[] }).value.map((address) => address.id)).toContain(one.id);
  });

  it('refuses to delete an address in use with 400 PublicIPAddressInUse, and deletes an idle one', async () => {
    const associated = pickAddress((address) => address.ipConfigurationId !== undefined);
    kit.emulator.resetStats();
    const refused = await kit.send('DELETE', `${associated.id}?${apiVersion}`, { token });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ error: { code: 'PublicIPAddressInUse' } });
    expect(readWriteCount(kit.emulator.stats, associated.id)).toBe(0);

    const idle = pickAddress((address) => address.ipConfigurationId === undefined);
    const accepted = await kit.send('DELETE', `${idle.id}?${apiVersion}`, { token });
    expect(accepted.status).toBe(202);
    expect(accepted.headers['location']).toBeDefined();
    expect(await waitForOperation(String(accepted.headers['azure-asyncoperation']))).toBe('Succeeded');
    const gone = await kit.send('GET', `${idle.id}?${apiVersion}`, { token });
    expect(gone.status).toBe(404);
    expect(readWriteCount(kit.emulator.stats, idle.id)).toBe(1);
    const again = await kit.send('DELETE', `${idle.id}?${apiVersion}`, { token });
    expect(again.status).toBe(204);
    expect(readWriteCount(kit.emulator.stats, idle.id)).toBe(1);
  });

  it('serves the public IP meters of the Retail Prices API', async () => {
    const filter =
      "serviceName eq 'Virtual Network' and productName eq 'IP Addresses' and armRegionName eq 'eastus'";
    const answer = await kit.send('GET', `/api/retail/prices?$filter=${encodeURIComponent(filter)}`);
    const items = (
      answer.body as {
        Items: { skuName: string; meterName: string; retailPrice: number; unitOfMeasure: string }[];
      }
    ).Items;
    expect(
      items.map((item) => [item.skuName, item.meterName, item.retailPrice, item.unitOfMeasure]).sort(),
    ).toEqual([
      ['Basic', 'Basic IPv4 Static Public IP', 0.0036, '1 Hour'],
      ['Standard', 'Standard IPv4 Static Public IP', 0.005, '1 Hour'],
    ]);
  });
});
