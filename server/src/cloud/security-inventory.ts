// What the security checks read: one subscription's resources as Resource Manager answers them
// (the fields the checks use, every one optional as ARM may leave it out).
import type { ArmItem, DiskItem, VirtualMachineItem } from './arm-records';
import type { CloudCallOptions, CloudCredentials } from './cloud-provider';

export interface SecurityRuleProperties {
  protocol?: string;
  access?: string;
  direction?: string;
  priority?: number;
  sourceAddressPrefix?: string;
  sourceAddressPrefixes?: string[];
  destinationPortRange?: string;
  destinationPortRanges?: string[];
}

export type SecurityRuleItem = ArmItem<SecurityRuleProperties>;

export type NetworkSecurityGroupItem = ArmItem<{
  securityRules?: SecurityRuleItem[];
  defaultSecurityRules?: SecurityRuleItem[];
}>;

export type NetworkInterfaceItem = ArmItem<{
  networkSecurityGroup?: { id?: string };
  virtualMachine?: { id?: string };
  ipConfigurations?: ArmItem<{ subnet?: { id?: string }; publicIPAddress?: { id?: string } }>[];
}>;

export type VirtualNetworkItem = ArmItem<{
  subnets?: ArmItem<{ networkSecurityGroup?: { id?: string } }>[];
}>;

export type StorageAccountItem = ArmItem<{
  allowBlobPublicAccess?: boolean;
  supportsHttpsTrafficOnly?: boolean;
  minimumTlsVersion?: string;
  allowSharedKeyAccess?: boolean;
  keyCreationTime?: { key1?: string | null; key2?: string | null };
  networkAcls?: { defaultAction?: string };
}>;

export type SqlFirewallRuleItem = ArmItem<{ startIpAddress?: string; endIpAddress?: string }>;

export interface SqlServerSecurity {
  server: ArmItem<{ publicNetworkAccess?: string }>;
  firewallRules: SqlFirewallRuleItem[];
  auditing: ArmItem<{ state?: string }> | undefined;
  databases: {
    database: ArmItem<unknown>;
    transparentDataEncryption: ArmItem<{ state?: string }> | undefined;
  }[];
}

export type KeyVaultItem = ArmItem<{ enableSoftDelete?: boolean; enablePurgeProtection?: boolean }>;

export type NetworkWatcherItem = ArmItem<{ provisioningState?: string }>;

export type DiagnosticSettingItem = ArmItem<{
  logs?: { category?: string; categoryGroup?: string; enabled?: boolean }[];
}>;

export type RoleDefinitionItem = ArmItem<{
  roleName?: string;
  type?: string;
  assignableScopes?: string[];
  permissions?: { actions?: string[]; notActions?: string[] }[];
}>;

export type PricingItem = ArmItem<{ pricingTier?: string }>;

export type SecureScoreItem = ArmItem<{
  displayName?: string;
  score?: { max?: number; current?: number; percentage?: number };
}>;

export interface SecurityInventory {
  tenantId: string;
  subscriptionId: string;
  networkSecurityGroups: NetworkSecurityGroupItem[];
  networkInterfaces: NetworkInterfaceItem[];
  virtualNetworks: VirtualNetworkItem[];
  virtualMachines: VirtualMachineItem[];
  disks: DiskItem[];
  storageAccounts: StorageAccountItem[];
  sqlServers: SqlServerSecurity[];
  keyVaults: KeyVaultItem[];
  networkWatchers: NetworkWatcherItem[];
  diagnosticSettings: DiagnosticSettingItem[];
  roleDefinitions: RoleDefinitionItem[];
  /** Microsoft.Security pricings; empty where Defender for Cloud was never turned on. */
  pricings: PricingItem[];
  secureScores: SecureScoreItem[];
}

/** The VMs and disks of a subscription the inventory sync has just read, so the scan reads them no more. */
export type SyncedSecurityRecords = Pick<SecurityInventory, 'virtualMachines' | 'disks'>;

// Reads one subscription's security inventory; AzureGateway implements it. With `synced`, the
// VMs and disks are those and their lists are not read.
export interface SecurityInventoryReader {
  readSecurityInventory(
    credentials: CloudCredentials,
    subscriptionId: string,
    options?: CloudCallOptions,
    synced?: SyncedSecurityRecords,
  ): Promise<SecurityInventory>;
}

const virtualMachineType = 'microsoft.compute/virtualmachines';
const diskType = 'microsoft.compute/disks';

/** The VMs' and disks' records among a subscription's resources as the inventory sync read them. */
export function readSyncedSecurityRecords(
  resources: readonly { type: string; armRecord?: VirtualMachineItem | DiskItem }[],
): SyncedSecurityRecords {
  const records: SyncedSecurityRecords = { virtualMachines: [], disks: [] };
  for (const resource of resources) {
    if (!resource.armRecord) continue;
    const type = resource.type.toLowerCase();
    if (type === virtualMachineType) records.virtualMachines.push(resource.armRecord as VirtualMachineItem);
    else if (type === diskType) records.disks.push(resource.armRecord as DiskItem);
  }
  return records;
}
