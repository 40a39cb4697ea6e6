import { describe, expect, it } from 'vitest';
import type { AzureConfig } from '../../config';
import { isCloudError, type CloudCredentials } from '../cloud-provider';
import { AzureClients, readPrincipalKey } from './azure-clients';

// Nothing here sends a request: clients and credentials are made on first use, and no call is made.
const config: AzureConfig = {
  authorityHost: 'https://login.example',
  resourceManagerUrl: 'https://arm.example',
  metricsUrlTemplate: 'https://{region}.metrics.example',
  pricesUrl: 'https://prices.example',
  caFile: undefined,
  timeoutMs: 30_000,
};
const alice: CloudCredentials = { tenantId: 'TENANT-1', applicationId: 'APP-1', secret: 'first secret' };

describe('readPrincipalKey', () => {
  it('ignores letter case in the ids and never holds the secret itself', () => {
    const key = readPrincipalKey(alice);
    expect(readPrincipalKey({ ...alice, tenantId: 'tenant-1', applicationId: 'app-1' })).toBe(key);
    expect(key).not.toContain('first secret');
  });

  it('tells a changed secret from the old one', () => {
    expect(readPrincipalKey({ ...alice, secret: 'second secret' })).not.toBe(readPrincipalKey(alice));
  });
});

describe('AzureClients', () => {
  it('makes one client per principal and subscription, and reuses it', () => {
    const clients = new AzureClients(config);
    const first = clients.getComputeClient(alice, 'sub-1');
    expect(clients.getComputeClient({ ...alice, tenantId: 'tenant-1' }, 'sub-1')).toBe(first);
    expect(clients.getComputeClient(alice, 'sub-2')).not.toBe(first);
    expect(clients.getComputeClient({ ...alice, secret: 'second secret' }, 'sub-1')).not.toBe(first);
    expect(clients.getResourceClient(alice, 'sub-1')).toBe(clients.getResourceClient(alice, 'sub-1'));
    expect(clients.getMonitorClient(alice, 'sub-1')).toBe(clients.getMonitorClient(alice, 'sub-1'));
  });

  it('finds the compute client of the subscription a resource path names, and refuses a path naming none', () => {
    const clients = new AzureClients(config);
    const vmPath = '/subscriptions/sub-1/resourceGroups/rg/providers/Microsoft.Compute/virtualMachines/vm-1';
    expect(clients.getComputeClientFor(alice, vmPath)).toBe(clients.getComputeClient(alice, 'sub-1'));
    expect(() => clients.getComputeClientFor(alice, '/providers/Microsoft.Compute/operations/1')).toThrow(
      expect.toSatisfy(isCloudError),
    );
  });

  it('addresses each region its own metrics endpoint', () => {
    const clients = new AzureClients(config);
    expect(clients.getMetricsClient(alice, 'eastus').endpoint).toBe('https://eastus.metrics.example');
    expect(clients.getMetricsClient(alice, 'west europe').endpoint).toBe(
      'https://west%20europe.metrics.example',
    );
    expect(clients.getMetricsClient(alice, 'eastus')).toBe(clients.getMetricsClient(alice, 'eastus'));
  });

  it('forgets the least recently used principal beyond its bound', () => {
    const clients = new AzureClients(config, undefined, { maxCachedPrincipals: 2 });
    const bob = { ...alice, applicationId: 'APP-2' };
    const carol = { ...alice, applicationId: 'APP-3' };
    const aliceClient = clients.getComputeClient(alice, 'sub-1');
    const bobClient = clients.getComputeClient(bob, 'sub-1');
    // Alice in use again: Bob is now the least recently used, and Carol's arrival drops him.
    expect(clients.getComputeClient(alice, 'sub-1')).toBe(aliceClient);
    clients.getComputeClient(carol, 'sub-1');
    expect(clients.getComputeClient(alice, 'sub-1')).toBe(aliceClient);
    expect(clients.getComputeClient(bob, 'sub-1')).not.toBe(bobClient);
  });

  it('forgets every credential of a principal, whatever its secret, and keeps the others', () => {
    const clients = new AzureClients(config);
    const renewed = { ...alice, secret: 'second secret' };
    const bob = { ...alice, applicationId: 'APP-2' };
    const aliceClient = clients.getComputeClient(alice, 'sub-1');
    clients.getMetricsClient(renewed, 'eastus');
    const bobClient = clients.getComputeClient(bob, 'sub-1');
    clients.forgetPrincipal({ tenantId: 'tenant-1', applicationId: 'app-1' });
    expect(clients.hasPrincipal(alice)).toBe(false);
    expect(clients.hasPrincipal(renewed)).toBe(false);
    expect(clients.hasPrincipal(bob)).toBe(true);
    expect(clients.getComputeClient(bob, 'sub-1')).toBe(bobClient);
    // Used again, the principal signs in afresh.
    expect(clients.getComputeClient(alice, 'sub-1')).not.toBe(aliceClient);
  });

  it('drops a principal unused for its idle time, and keeps one in use', () => {
    let now = 0;
    const clients = new AzureClients(config, undefined, { idleMilliseconds: 60_000, now: () => now });
    const bob = { ...alice, applicationId: 'APP-2' };
    const aliceClient = clients.getComputeClient(alice, 'sub-1');
    clients.getComputeClient(bob, 'sub-1');
    now = 59_000;
    expect(clients.getComputeClient(alice, 'sub-1')).toBe(aliceClient);
    now = 60_000;
    expect(clients.hasPrincipal(bob)).toBe(false);
    expect(clients.hasPrincipal(alice)).toBe(true);
    now = 119_000;
    clients.forgetIdle();
    expect(clients.hasPrincipal(alice)).toBe(false);
    expect(clients.getComputeClient(alice, 'sub-1')).not.toBe(aliceClient);
  });
});
