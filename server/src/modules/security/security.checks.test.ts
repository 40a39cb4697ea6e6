import { describe, expect, it } from 'vitest';
import { defenderServersCheck } from './checks/defender-servers.check';
import { defenderSqlCheck } from './checks/defender-sql.check';
import { diskCustomerKeyCheck } from './checks/disk-customer-key.check';
import { diskUnattachedCustomerKeyCheck } from './checks/disk-unattached-customer-key.check';
import { iamCustomOwnerRoleCheck } from './checks/iam-custom-owner-role.check';
import { keyVaultRecoverableCheck } from './checks/key-vault-recoverable.check';
import { monitorDiagnosticSettingCheck } from './checks/monitor-diagnostic-setting.check';
import { networkWatcherEnabledCheck } from './checks/network-watcher-enabled.check';
import { sqlAuditingCheck } from './checks/sql-auditing.check';
import { sqlTransparentEncryptionCheck } from './checks/sql-transparent-encryption.check';
import { sqlUnrestrictedInboundCheck } from './checks/sql-unrestricted-inbound.check';
import { storageBlobPublicAccessCheck } from './checks/storage-blob-public-access.check';
import { storageDefaultNetworkDenyCheck } from './checks/storage-default-network-deny.check';
import { storageKeysRotatedCheck } from './checks/storage-keys-rotated.check';
import { storageMinimumTlsCheck } from './checks/storage-minimum-tls.check';
import { storageSecureTransferCheck } from './checks/storage-secure-transfer.check';
import { vmManagedDisksCheck } from './checks/vm-managed-disks.check';
import { vmTrustedLaunchCheck } from './checks/vm-trusted-launch.check';
import { securityChecks } from './security.checks';
import { emptyInventory, resourceId, subscriptionId, vnet } from './security.fixtures';
import type {
  SecurityInventory,
  SqlServerSecurity,
  StorageAccountItem,
} from '../../cloud/security-inventory';

const now = new Date('2026-11-27T12:00:00Z');

function storage(properties: StorageAccountItem['properties']): SecurityInventory {
  return emptyInventory({
    storageAccounts: [
      {
        id: resourceId('Microsoft.Storage/storageAccounts', 'appdata'),
        name: 'appdata',
        type: 'Microsoft.Storage/storageAccounts',
        properties: {
          allowBlobPublicAccess: false,
          supportsHttpsTrafficOnly: true,
          minimumTlsVersion: 'TLS1_2',
          networkAcls: { defaultAction: 'Deny' },
          ...properties,
        },
      },
    ],
  });
}

function sqlServer(overrides: Partial<SqlServerSecurity>): SecurityInventory {
  const serverId = resourceId('Microsoft.Sql/servers', 'orders');
  return emptyInventory({
    sqlServers: [
      {
        server: { id: serverId, name: 'orders', properties: { publicNetworkAccess: 'Enabled' } },
        firewallRules: [
          {
            id: `${serverId}/firewallRules/AllowAllWindowsAzureIps`,
            name: 'AllowAllWindowsAzureIps',
            properties: { startIpAddress: '0.0.0.0', endIpAddress: '0.0.0.0' },
          },
        ],
        auditing: { name: 'default', properties: { state: 'Enabled' } },
        databases: [
          {
            database: { id: `${serverId}/databases/master`, name: 'master' },
            transparentDataEncryption: undefined,
          },
          {
            database: { id: `${serverId}/databases/orders`, name: 'orders' },
            transparentDataEncryption: { name: 'current', properties: { state: 'Enabled' } },
          },
        ],
        ...overrides,
      },
    ],
  });
}

describe('the checks list', () => {
  it('has at least 20 checks with unique ids, each with remediation and an az command', () => {
    expect(securityChecks.length).toBeGreaterThanOrEqual(20);
    expect(new Set(securityChecks.map((check) => check.id)).size).toBe(securityChecks.length);
    for (const check of securityChecks) {
      expect(check.remediation.command.startsWith('az ')).toBe(true);
      expect(['critical', 'high', 'medium', 'low']).toContain(check.severity);
    }
  });

  // Each control as CIS Microsoft Azure Foundations Benchmark v2.0.0 numbers it (checked against
  // Prowler's cis_2.0_azure mapping); Trusted Launch has none in 2.0.0 (2.1.0 added it as 7.9).
  it('maps each check to its CIS Azure Foundations 2.0.0 control', () => {
    expect(Object.fromEntries(securityChecks.map((check) => [check.id, check.cis]))).toEqual({
      'network-rdp-internet': '6.1',
      'network-ssh-internet': '6.2',
      'network-udp-internet': '6.3',
      'network-http-internet': '6.4',
      'network-watcher-enabled': '6.6',
      'storage-secure-transfer': '3.1',
      'storage-keys-rotated': '3.4',
      'storage-blob-public-access': '3.7',
      'storage-default-network-deny': '3.8',
      'storage-minimum-tls': '3.15',
      'sql-auditing': '4.1.1',
      'sql-unrestricted-inbound': '4.1.2',
      'sql-transparent-encryption': '4.1.5',
      'key-vault-recoverable': '8.5',
      'vm-managed-disks': '7.2',
      'disk-customer-key': '7.3',
      'disk-unattached-customer-key': '7.4',
      'vm-trusted-launch': '',
      'defender-servers': '2.1.1',
      'defender-sql': '2.1.4',
      'defender-storage': '2.1.7',
      'defender-key-vault': '2.1.10',
      'iam-custom-owner-role': '1.23',
      'monitor-diagnostic-setting': '5.1.1',
    });
  });

  it('a well-kept inventory fails nothing but the plans it has off', () => {
    const findings = securityChecks.flatMap((check) => check.evaluate(storage({}), now));
    expect(
      findings.every(
        (finding) => finding.resourceName.startsWith('Defender') || finding.resourceName === 'Activity log',
      ),
    ).toBe(true);
  });
});

describe('storage checks', () => {
  it('secure transfer: false fails, true passes', () => {
    expect(
      storageSecureTransferCheck.evaluate(storage({ supportsHttpsTrafficOnly: false }), now),
    ).toHaveLength(1);
    expect(storageSecureTransferCheck.evaluate(storage({}), now)).toEqual([]);
  });

  it('public blob access: true fails; false or absent (Azure default since 2023) passes', () => {
    expect(storageBlobPublicAccessCheck.evaluate(storage({ allowBlobPublicAccess: true }), now)).toHaveLength(
      1,
    );
    expect(storageBlobPublicAccessCheck.evaluate(storage({ allowBlobPublicAccess: undefined }), now)).toEqual(
      [],
    );
  });

  it('default network rule Allow fails, Deny passes', () => {
    const allow = storage({ networkAcls: { defaultAction: 'Allow' } });
    expect(storageDefaultNetworkDenyCheck.evaluate(allow, now)[0]?.evidence).toContain('Allow');
    expect(storageDefaultNetworkDenyCheck.evaluate(storage({}), now)).toEqual([]);
  });

  it('TLS 1.0 and 1.1 fail; 1.2 and 1.3 are fine; unset means 1.0', () => {
    expect(storageMinimumTlsCheck.evaluate(storage({ minimumTlsVersion: 'TLS1_0' }), now)).toHaveLength(1);
    expect(storageMinimumTlsCheck.evaluate(storage({ minimumTlsVersion: 'TLS1_1' }), now)).toHaveLength(1);
    expect(storageMinimumTlsCheck.evaluate(storage({ minimumTlsVersion: 'TLS1_3' }), now)).toEqual([]);
    expect(
      storageMinimumTlsCheck.evaluate(storage({ minimumTlsVersion: undefined }), now)[0]?.evidence,
    ).toContain('not set');
  });

  it('an old key fails; an account without shared keys or without key times is not "not rotated"', () => {
    const old = { key1: '2026-01-01T00:00:00Z', key2: '2026-11-01T00:00:00Z' };
    expect(storageKeysRotatedCheck.evaluate(storage({ keyCreationTime: old }), now)[0]?.evidence).toBe(
      'key1 is 330 days old (at most 90).',
    );
    expect(
      storageKeysRotatedCheck.evaluate(storage({ keyCreationTime: old, allowSharedKeyAccess: false }), now),
    ).toEqual([]);
    expect(
      storageKeysRotatedCheck.evaluate(storage({ keyCreationTime: { key1: null, key2: null } }), now),
    ).toEqual([]);
  });
});

describe('SQL checks', () => {
  it('the any-address rule fails; "Allow Azure services" (0.0.0.0–0.0.0.0) is not the internet', () => {
    expect(sqlUnrestrictedInboundCheck.evaluate(sqlServer({}), now)).toEqual([]);
    const open = sqlServer({
      firewallRules: [
        { name: 'all', properties: { startIpAddress: '0.0.0.0', endIpAddress: '255.255.255.255' } },
      ],
    });
    expect(sqlUnrestrictedInboundCheck.evaluate(open, now)[0]?.evidence).toContain("'all'");
  });

  it('the any-address rule on a server without public network access is not a finding', () => {
    const closed = sqlServer({
      server: {
        id: resourceId('Microsoft.Sql/servers', 'orders'),
        properties: { publicNetworkAccess: 'Disabled' },
      },
      firewallRules: [
        { name: 'all', properties: { startIpAddress: '0.0.0.0', endIpAddress: '255.255.255.255' } },
      ],
    });
    expect(sqlUnrestrictedInboundCheck.evaluate(closed, now)).toEqual([]);
  });

  it('auditing Disabled fails', () => {
    expect(sqlAuditingCheck.evaluate(sqlServer({}), now)).toEqual([]);
    expect(
      sqlAuditingCheck.evaluate(sqlServer({ auditing: { properties: { state: 'Disabled' } } }), now),
    ).toHaveLength(1);
  });

  it('TDE Disabled fails on a user database; master is never judged', () => {
    expect(sqlTransparentEncryptionCheck.evaluate(sqlServer({}), now)).toEqual([]);
    const serverId = resourceId('Microsoft.Sql/servers', 'orders');
    const off = sqlServer({
      databases: [
        {
          database: { id: `${serverId}/databases/orders`, name: 'orders' },
          transparentDataEncryption: { properties: { state: 'Disabled' } },
        },
      ],
    });
    expect(sqlTransparentEncryptionCheck.evaluate(off, now)[0]?.resourceName).toBe('orders');
  });
});

describe('key vault, compute, disks', () => {
  const vault = (properties: object) =>
    emptyInventory({
      keyVaults: [{ id: resourceId('Microsoft.KeyVault/vaults', 'kv'), name: 'kv', properties }],
    });

  it('a vault needs purge protection; soft delete absent counts as on', () => {
    expect(keyVaultRecoverableCheck.evaluate(vault({ enablePurgeProtection: true }), now)).toEqual([]);
    expect(keyVaultRecoverableCheck.evaluate(vault({ enableSoftDelete: true }), now)[0]?.evidence).toContain(
      'enablePurgeProtection',
    );
    expect(keyVaultRecoverableCheck.evaluate(vault({ enableSoftDelete: false }), now)[0]?.evidence).toContain(
      'enableSoftDelete',
    );
  });

  const machine = (properties: object) =>
    emptyInventory({
      virtualMachines: [
        { id: resourceId('Microsoft.Compute/virtualMachines', 'vm1'), name: 'vm1', properties },
      ],
    });

  it('an unmanaged OS disk fails, a managed one passes', () => {
    const unmanaged = machine({
      storageProfile: { osDisk: { vhd: { uri: 'https://x.blob.core.windows.net/vhds/os.vhd' } } },
    });
    expect(vmManagedDisksCheck.evaluate(unmanaged, now)).toHaveLength(1);
    expect(
      vmManagedDisksCheck.evaluate(
        machine({ storageProfile: { osDisk: { managedDisk: { id: 'd' } } } }),
        now,
      ),
    ).toEqual([]);
  });

  it('Trusted Launch needs both secure boot and vTPM; a confidential VM passes', () => {
    const trusted = {
      securityType: 'TrustedLaunch',
      uefiSettings: { secureBootEnabled: true, vTpmEnabled: true },
    };
    expect(vmTrustedLaunchCheck.evaluate(machine({ securityProfile: trusted }), now)).toEqual([]);
    expect(
      vmTrustedLaunchCheck.evaluate(
        machine({ securityProfile: { ...trusted, securityType: 'ConfidentialVM' } }),
        now,
      ),
    ).toEqual([]);
    const noBoot = {
      securityType: 'TrustedLaunch',
      uefiSettings: { secureBootEnabled: false, vTpmEnabled: true },
    };
    expect(vmTrustedLaunchCheck.evaluate(machine({ securityProfile: noBoot }), now)).toHaveLength(1);
    expect(vmTrustedLaunchCheck.evaluate(machine({}), now)[0]?.evidence).toBe(
      'securityProfile.securityType is Standard.',
    );
  });

  const disk = (managedBy: string | undefined, type: string) =>
    emptyInventory({
      disks: [
        {
          id: resourceId('Microsoft.Compute/disks', 'd1'),
          name: 'd1',
          ...(managedBy ? { managedBy } : {}),
          properties: { diskState: managedBy ? 'Attached' : 'Unattached', encryption: { type } },
        },
      ],
    });

  it('disk keys: platform key fails, customer or double key passes, attached and unattached judged apart', () => {
    expect(diskCustomerKeyCheck.evaluate(disk('vm', 'EncryptionAtRestWithPlatformKey'), now)).toHaveLength(1);
    expect(diskCustomerKeyCheck.evaluate(disk('vm', 'EncryptionAtRestWithCustomerKey'), now)).toEqual([]);
    expect(
      diskCustomerKeyCheck.evaluate(disk('vm', 'EncryptionAtRestWithPlatformAndCustomerKeys'), now),
    ).toEqual([]);
    expect(diskCustomerKeyCheck.evaluate(disk(undefined, 'EncryptionAtRestWithPlatformKey'), now)).toEqual(
      [],
    );
    expect(
      diskUnattachedCustomerKeyCheck.evaluate(disk(undefined, 'EncryptionAtRestWithPlatformKey'), now),
    ).toHaveLength(1);
  });
});

describe('subscription-wide checks', () => {
  it('Defender plans: Free or missing fails, Standard passes', () => {
    const pricing = (name: string, pricingTier: string) => ({
      id: `/subscriptions/${subscriptionId}/providers/Microsoft.Security/pricings/${name}`,
      name,
      properties: { pricingTier },
    });
    expect(defenderServersCheck.evaluate(emptyInventory(), now)[0]?.evidence).toBe(
      'The VirtualMachines pricing tier is Free.',
    );
    const on = emptyInventory({
      pricings: [pricing('VirtualMachines', 'Standard'), pricing('SqlServers', 'Free')],
    });
    expect(defenderServersCheck.evaluate(on, now)).toEqual([]);
    expect(defenderSqlCheck.evaluate(on, now)).toHaveLength(1);
  });

  it('custom Owner: a custom role with * and no notActions over a subscription fails; built-in Owner and narrowed roles pass', () => {
    const role = (type: string, actions: string[], notActions: string[]) => ({
      id: `/subscriptions/${subscriptionId}/providers/Microsoft.Authorization/roleDefinitions/${type}${actions.length}`,
      name: 'r',
      properties: {
        roleName: 'Super',
        type,
        assignableScopes: [`/subscriptions/${subscriptionId}`],
        permissions: [{ actions, notActions }],
      },
    });
    const inventory = emptyInventory({
      roleDefinitions: [
        role('CustomRole', ['*'], []),
        role('BuiltInRole', ['*'], []),
        role('CustomRole', ['*', 'x'], ['Microsoft.Authorization/*/write']),
      ],
    });
    expect(iamCustomOwnerRoleCheck.evaluate(inventory, now)).toHaveLength(1);
  });

  it('diagnostic settings: none fails; allLogs passes; missing categories are named', () => {
    expect(monitorDiagnosticSettingCheck.evaluate(emptyInventory(), now)[0]?.evidence).toContain(
      'no diagnostic setting',
    );
    const allLogs = emptyInventory({
      diagnosticSettings: [
        { name: 'a', properties: { logs: [{ categoryGroup: 'allLogs', enabled: true }] } },
      ],
    });
    expect(monitorDiagnosticSettingCheck.evaluate(allLogs, now)).toEqual([]);
    const some = emptyInventory({
      diagnosticSettings: [
        {
          name: 'a',
          properties: {
            logs: [
              { category: 'Administrative', enabled: true },
              { category: 'Security', enabled: false },
            ],
          },
        },
      ],
    });
    expect(monitorDiagnosticSettingCheck.evaluate(some, now)[0]?.evidence).toBe(
      'No diagnostic setting keeps the Security, Policy, Alert categories.',
    );
  });

  it('Network Watcher: a region with networks and no watcher fails', () => {
    const inventory = emptyInventory({ virtualNetworks: [vnet(undefined)] });
    expect(networkWatcherEnabledCheck.evaluate(inventory, now)[0]?.resourceName).toBe(
      'Network Watcher (westeurope)',
    );
    inventory.networkWatchers.push({ name: 'NetworkWatcher_westeurope', location: 'westeurope' });
    expect(networkWatcherEnabledCheck.evaluate(inventory, now)).toEqual([]);
  });
});
