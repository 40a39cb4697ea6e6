import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ArmRecord } from './security/security.estate';
import { startTestEmulator, type TestEmulator } from './testing/emulator.fixture';

const apiVersion = 'api-version=2024-05-01';

describe('security posture reads (NSGs, storage, vaults, SQL settings, Defender for Cloud)', () => {
  let kit: TestEmulator;
  let token: string;
  let subscriptionId: string;

  beforeAll(async () => {
    kit = await startTestEmulator({ fleetSize: 60, pageSize: 7 });
    token = await kit.readToken(0, 0);
    subscriptionId = kit.emulator.tenants[0]?.subscriptions[0]?.subscriptionId ?? '';
  });

  afterAll(async () => {
    await kit.stop();
  });

  async function listAll(path: string, callerToken = token): Promise<ArmRecord[]> {
    const items: ArmRecord[] = [];
    let next: string | undefined = `${path}?${apiVersion}`;
    while (next) {
      const answer = await kit.send('GET', next, { token: callerToken });
      expect(answer.status).toBe(200);
      const body = answer.body as { value: ArmRecord[]; nextLink?: string };
      items.push(...body.value);
      next = body.nextLink?.slice(kit.emulator.url.length);
    }
    return items;
  }

  it('pages NSGs with their rules and default rules, each NIC pointing at its NSG and VM', async () => {
    const groups = await listAll(
      `/subscriptions/${subscriptionId}/providers/Microsoft.Network/networkSecurityGroups`,
    );
    expect(groups.length).toBeGreaterThan(7);
    const interfaces = await listAll(
      `/subscriptions/${subscriptionId}/providers/Microsoft.Network/networkInterfaces`,
    );
    const groupIds = new Set(groups.map((group) => group.id));
    for (const item of interfaces) {
      const properties = item.properties as {
        networkSecurityGroup: { id: string };
        virtualMachine: { id: string };
      };
      expect(groupIds.has(properties.networkSecurityGroup.id)).toBe(true);
      expect(kit.emulator.fleet.findResource(properties.virtualMachine.id)).toBeDefined();
    }
    const defaults = groups[0]?.properties.defaultSecurityRules as ArmRecord[];
    expect(defaults.map((item) => item.name)).toContain('DenyAllInBound');
  });

  it('a principal without rights gets 403; Reader headers count the reads', async () => {
    const outsider = await kit.readToken(0, 1);
    const answer = await kit.send(
      'GET',
      `/subscriptions/${subscriptionId}/providers/Microsoft.Storage/storageAccounts?${apiVersion}`,
      { token: outsider },
    );
    expect(answer.status).toBe(403);
    expect((answer.body as { error: { code: string } }).error.code).toBe('AuthorizationFailed');
    const allowed = await kit.send(
      'GET',
      `/subscriptions/${subscriptionId}/providers/Microsoft.Security/pricings?${apiVersion}`,
      { token },
    );
    expect(allowed.headers['x-ms-ratelimit-remaining-subscription-reads']).toBeDefined();
  });

  it('one subscription has Defender off: every plan Free and no secure score', async () => {
    const tenant = kit.emulator.tenants[0];
    const off = tenant?.subscriptions[(tenant.subscriptions.length ?? 1) - 1]?.subscriptionId ?? '';
    const pricings = await listAll(`/subscriptions/${off}/providers/Microsoft.Security/pricings`);
    expect(pricings.every((item) => item.properties.pricingTier === 'Free')).toBe(true);
    expect(await listAll(`/subscriptions/${off}/providers/Microsoft.Security/secureScores`)).toEqual([]);
    const scores = await listAll(
      `/subscriptions/${subscriptionId}/providers/Microsoft.Security/secureScores`,
    );
    expect(scores[0]?.name).toBe('ascScore');
  });

  it('SQL servers answer firewall rules, auditing and each database TDE', async () => {
    const server = kit.emulator.fleet.sqlServers[0];
    const database = kit.emulator.fleet.sqlDatabases.find((item) =>
      item.id.startsWith(`${server?.id ?? ''}/`),
    );
    if (!server || !database) throw new Error('The fleet has a SQL server with a database');
    const rules = await kit.send('GET', `${server.id}/firewallRules?${apiVersion}`, {
      token: await kit.readToken(tenantOf(server.subscriptionId), 0),
    });
    expect((rules.body as { value: ArmRecord[] }).value.map((item) => item.name)).toContain(
      'AllowAllWindowsAzureIps',
    );
    const tde = await kit.send('GET', `${database.id}/transparentDataEncryption/current?${apiVersion}`, {
      token: await kit.readToken(tenantOf(server.subscriptionId), 0),
    });
    expect(['Enabled', 'Disabled']).toContain((tde.body as ArmRecord).properties.state);
  });

  it('deleting an NSG rule closes it for the next read', async () => {
    const groups = await listAll(
      `/subscriptions/${subscriptionId}/providers/Microsoft.Network/networkSecurityGroups`,
    );
    const group = groups.find((item) =>
      (item.properties.securityRules as ArmRecord[]).some((rule) => rule.name === 'allow-ssh'),
    );
    if (!group) throw new Error('Some NSG opens SSH');
    const ruleId = `${group.id}/securityRules/allow-ssh`;
    expect((await kit.send('DELETE', `${ruleId}?${apiVersion}`, { token })).status).toBe(200);
    expect((await kit.send('DELETE', `${ruleId}?${apiVersion}`, { token })).status).toBe(204);
    const after = await kit.send('GET', `${group.id}?${apiVersion}`, { token });
    const names = ((after.body as ArmRecord).properties.securityRules as ArmRecord[]).map(
      (rule) => rule.name,
    );
    expect(names).not.toContain('allow-ssh');
  });

  function tenantOf(subscription: string): number {
    return kit.emulator.tenants.findIndex((tenant) =>
      tenant.subscriptions.some((item) => item.subscriptionId === subscription),
    );
  }
});
