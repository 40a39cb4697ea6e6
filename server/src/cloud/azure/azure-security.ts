// Resource Manager reads for the security checks: one paged list per type and subscription (NSGs,
// NICs, virtual networks, VMs, disks, storage, vaults, SQL servers, Network Watchers, diagnostic
// settings, role definitions, Defender's pricings and secure scores), then per SQL server its
// firewall rules, auditing and each database's TDE, which Azure lists only per server. The VMs and
// disks an inventory sync has just read are taken from it, their lists not read again. Read as
// JSON, as azure-resources does, for the same event-loop reason.
import { createPipelineRequest } from '@azure/core-rest-pipeline';
import { setMaxListeners } from 'node:events';
import type { ArmItem } from '../arm-records';
import type {
  SecurityInventory,
  SqlFirewallRuleItem,
  SqlServerSecurity,
  SyncedSecurityRecords,
} from '../security-inventory';
import { readArmPages, type ArmPipelineClient } from './azure-arm';
import { readArmError } from './azure-errors';

const listApiVersions = {
  networkSecurityGroups: ['Microsoft.Network/networkSecurityGroups', '2024-05-01'],
  networkInterfaces: ['Microsoft.Network/networkInterfaces', '2024-05-01'],
  virtualNetworks: ['Microsoft.Network/virtualNetworks', '2024-05-01'],
  networkWatchers: ['Microsoft.Network/networkWatchers', '2024-05-01'],
  virtualMachines: ['Microsoft.Compute/virtualMachines', '2024-07-01'],
  disks: ['Microsoft.Compute/disks', '2024-03-02'],
  storageAccounts: ['Microsoft.Storage/storageAccounts', '2023-05-01'],
  keyVaults: ['Microsoft.KeyVault/vaults', '2023-07-01'],
  diagnosticSettings: ['Microsoft.Insights/diagnosticSettings', '2021-05-01-preview'],
  roleDefinitions: ['Microsoft.Authorization/roleDefinitions', '2022-04-01'],
  pricings: ['Microsoft.Security/pricings', '2024-01-01'],
  secureScores: ['Microsoft.Security/secureScores', '2020-01-01'],
} as const;

const sqlApiVersion = '2023-08-01';

type ListName = keyof typeof listApiVersions;

/** How many Resource Manager calls a read made, for the bench's floor. */
export interface SecurityReadCount {
  calls: number;
}

async function readList<Item>(
  client: ArmPipelineClient,
  firstUrl: string,
  abortSignal: AbortSignal,
  count: SecurityReadCount,
): Promise<Item[]> {
  const items: Item[] = [];
  try {
    await readArmPages<Item>(client, firstUrl, abortSignal, (page) => {
      count.calls += 1;
      items.push(...page);
    });
  } catch (error) {
    // A resource provider the subscription never registered has nothing to list.
    if ((error as { statusCode?: number }).statusCode === 404) return [];
    throw error;
  }
  return items;
}

async function readOne<Item>(
  client: ArmPipelineClient,
  url: string,
  abortSignal: AbortSignal,
  count: SecurityReadCount,
): Promise<Item | undefined> {
  count.calls += 1;
  const response = await client.sendRequest(createPipelineRequest({ url, method: 'GET', abortSignal }));
  if (response.status === 404) return undefined;
  if (response.status !== 200) throw readArmError(response.status, response.bodyAsText ?? undefined);
  return JSON.parse(response.bodyAsText ?? '{}') as Item;
}

export async function readSecurityInventory(
  client: ArmPipelineClient,
  resourceManagerUrl: string,
  tenantId: string,
  subscriptionId: string,
  abortSignal: AbortSignal,
  count: SecurityReadCount = { calls: 0 },
  synced?: SyncedSecurityRecords,
): Promise<SecurityInventory> {
  const subscriptionUrl = `${resourceManagerUrl}/subscriptions/${encodeURIComponent(subscriptionId)}`;
  // Every list and SQL read in flight listens on the one deadline; more than Node's default ten.
  setMaxListeners(256, abortSignal);
  const names = (Object.keys(listApiVersions) as ListName[]).filter(
    (name) => !synced || (name !== 'virtualMachines' && name !== 'disks'),
  );
  const lists = await Promise.all(
    names.map((name) => {
      const [type, apiVersion] = listApiVersions[name];
      return readList<never>(
        client,
        `${subscriptionUrl}/providers/${type}?api-version=${apiVersion}`,
        abortSignal,
        count,
      );
    }),
  );
  const byName = Object.fromEntries(names.map((name, index) => [name, lists[index] ?? []])) as Record<
    ListName,
    never[]
  >;
  const servers = await readList<ArmItem<{ publicNetworkAccess?: string }>>(
    client,
    `${subscriptionUrl}/providers/Microsoft.Sql/servers?api-version=${sqlApiVersion}`,
    abortSignal,
    count,
  );
  const sqlServers = await Promise.all(
    servers
      .filter((server) => server.id)
      .map((server) => readSqlServer(client, resourceManagerUrl, server, abortSignal, count)),
  );
  return {
    tenantId,
    subscriptionId,
    networkSecurityGroups: byName.networkSecurityGroups,
    networkInterfaces: byName.networkInterfaces,
    virtualNetworks: byName.virtualNetworks,
    virtualMachines: synced?.virtualMachines ?? byName.virtualMachines,
    disks: synced?.disks ?? byName.disks,
    storageAccounts: byName.storageAccounts,
    sqlServers,
    keyVaults: byName.keyVaults,
    networkWatchers: byName.networkWatchers,
    diagnosticSettings: byName.diagnosticSettings,
    roleDefinitions: byName.roleDefinitions,
    pricings: byName.pricings,
    secureScores: byName.secureScores,
  };
}

async function readSqlServer(
  client: ArmPipelineClient,
  resourceManagerUrl: string,
  server: ArmItem<{ publicNetworkAccess?: string }>,
  abortSignal: AbortSignal,
  count: SecurityReadCount,
): Promise<SqlServerSecurity> {
  const serverUrl = `${resourceManagerUrl}${server.id ?? ''}`;
  const [firewallRules, auditing, databases] = await Promise.all([
    readList<SqlFirewallRuleItem>(
      client,
      `${serverUrl}/firewallRules?api-version=${sqlApiVersion}`,
      abortSignal,
      count,
    ),
    readOne<ArmItem<{ state?: string }>>(
      client,
      `${serverUrl}/auditingSettings/default?api-version=${sqlApiVersion}`,
      abortSignal,
      count,
    ),
    readList<ArmItem<unknown>>(
      client,
      `${serverUrl}/databases?api-version=${sqlApiVersion}`,
      abortSignal,
      count,
    ),
  ]);
  const withEncryption = await Promise.all(
    databases.map(async (database) => ({
      database,
      transparentDataEncryption: database.id
        ? await readOne<ArmItem<{ state?: string }>>(
            client,
            `${resourceManagerUrl}${database.id}/transparentDataEncryption/current?api-version=${sqlApiVersion}`,
            abortSignal,
            count,
          )
        : undefined,
    })),
  );
  return { server, firewallRules, auditing, databases: withEncryption };
}
