// What Cloudtrim's security checks read, seeded beside the fleet and deterministic by its seed:
// network security groups with their rules and the NICs and subnets that use them, storage
// accounts, key vaults, SQL servers' firewall rules, auditing and TDE, Network Watchers, the
// activity log's diagnostic settings, role definitions and Microsoft.Security's pricings and
// secure scores. Most resources are fine; each bad setting is placed by a resource's position in
// its tenant so that every check fails somewhere in both tenants. Records are Resource Manager's
// own JSON, so routes send them as they are.
import type {
  Fleet,
  ManagedDiskRecord,
  SqlServerRecord,
  SubscriptionRecord,
  VirtualMachineRecord,
} from '../fleet/fleet.model';
import { deriveGuid, hashToUnit, hashText } from '../fleet/noise.hash';
import { dayMs } from '../time';

export interface ArmRecord {
  id: string;
  name: string;
  type: string;
  location?: string;
  tags?: Record<string, string>;
  properties: Record<string, unknown>;
}

export interface SqlServerSecurityRecord {
  readonly serverId: string;
  readonly firewallRules: ArmRecord[];
  readonly auditing: ArmRecord;
  /** TDE per database name (lower case). */
  readonly transparentDataEncryption: Map<string, ArmRecord>;
}

export type SecurityListType =
  | 'Microsoft.Network/networkSecurityGroups'
  | 'Microsoft.Network/networkInterfaces'
  | 'Microsoft.Network/virtualNetworks'
  | 'Microsoft.Network/networkWatchers'
  | 'Microsoft.Storage/storageAccounts'
  | 'Microsoft.KeyVault/vaults'
  | 'Microsoft.Insights/diagnosticSettings'
  | 'Microsoft.Authorization/roleDefinitions'
  | 'Microsoft.Security/pricings'
  | 'Microsoft.Security/secureScores'
  | 'Microsoft.Security/secureScoreControls'
  | 'Microsoft.Security/assessments';

const defenderPlans = ['VirtualMachines', 'SqlServers', 'StorageAccounts', 'KeyVaults', 'Arm'];

function rule(
  groupId: string,
  name: string,
  priority: number,
  properties: Record<string, unknown>,
): ArmRecord {
  return {
    id: `${groupId}/securityRules/${name}`,
    name,
    type: 'Microsoft.Network/networkSecurityGroups/securityRules',
    properties: {
      provisioningState: 'Succeeded',
      protocol: 'Tcp',
      sourcePortRange: '*',
      destinationAddressPrefix: '*',
      access: 'Allow',
      direction: 'Inbound',
      priority,
      ...properties,
    },
  };
}

// Azure's default rules, listed by every NSG.
function defaultRules(groupId: string): ArmRecord[] {
  const any = { protocol: '*', destinationPortRange: '*' };
  return [
    rule(groupId, 'AllowVnetInBound', 65000, { ...any, sourceAddressPrefix: 'VirtualNetwork' }),
    rule(groupId, 'AllowAzureLoadBalancerInBound', 65001, {
      ...any,
      sourceAddressPrefix: 'AzureLoadBalancer',
    }),
    rule(groupId, 'DenyAllInBound', 65500, { ...any, sourceAddressPrefix: '*', access: 'Deny' }),
    rule(groupId, 'AllowVnetOutBound', 65000, {
      ...any,
      sourceAddressPrefix: 'VirtualNetwork',
      destinationAddressPrefix: 'VirtualNetwork',
      direction: 'Outbound',
    }),
    rule(groupId, 'AllowInternetOutBound', 65001, {
      ...any,
      sourceAddressPrefix: '*',
      destinationAddressPrefix: 'Internet',
      direction: 'Outbound',
    }),
    rule(groupId, 'DenyAllOutBound', 65500, {
      ...any,
      sourceAddressPrefix: '*',
      access: 'Deny',
      direction: 'Outbound',
    }),
  ].map((item) => ({ ...item, id: item.id.replace('/securityRules/', '/defaultSecurityRules/') }));
}

// A VM's inbound rules by its position among its tenant's VMs: one in twenty of each kind of
// exposure, and one whose Deny above the Allow keeps SSH closed.
function machineRules(groupId: string, position: number): ArmRecord[] {
  const office = rule(groupId, 'allow-ssh-office', 100, {
    sourceAddressPrefix: '203.0.113.0/24',
    destinationPortRange: '22',
  });
  const internet = { sourceAddressPrefix: 'Internet' };
  switch (position % 20) {
    case 0:
      return [office, rule(groupId, 'allow-ssh', 300, { ...internet, destinationPortRange: '22' })];
    case 1:
      return [
        office,
        rule(groupId, 'allow-rdp', 310, { sourceAddressPrefix: '*', destinationPortRange: '3389' }),
      ];
    case 7:
      return [
        office,
        rule(groupId, 'allow-game-udp', 320, {
          protocol: 'Udp',
          sourceAddressPrefix: '0.0.0.0/0',
          destinationPortRange: '27015-27030',
        }),
      ];
    case 13:
      return [office, rule(groupId, 'allow-web', 330, { ...internet, destinationPortRanges: ['80', '443'] })];
    case 17:
      return [
        office,
        rule(groupId, 'deny-ssh-internet', 200, { ...internet, access: 'Deny', destinationPortRange: '22' }),
        rule(groupId, 'allow-ssh', 300, { ...internet, destinationPortRange: '22' }),
      ];
    default:
      return [office];
  }
}

export class SecurityEstate {
  private readonly lists = new Map<string, ArmRecord[]>();
  private readonly sqlByServerId = new Map<string, SqlServerSecurityRecord>();
  private readonly rulesById = new Map<string, { group: ArmRecord; rule: ArmRecord }>();
  // Storage accounts placed so far in the tenant being built: each bad setting falls on a position.
  private storageCount = 0;

  constructor(
    private readonly fleet: Fleet,
    private readonly nowMs: number,
  ) {
    for (const tenant of fleet.tenants) {
      this.storageCount = 0;
      const machines = fleet.virtualMachines
        .filter((machine) => tenant.subscriptions.some((s) => s.subscriptionId === machine.subscriptionId))
        .sort((left, right) => left.id.localeCompare(right.id));
      machines.forEach((machine, position) => this.addMachine(machine, position));
      const servers = fleet.sqlServers
        .filter((server) => tenant.subscriptions.some((s) => s.subscriptionId === server.subscriptionId))
        .sort((left, right) => left.id.localeCompare(right.id));
      servers.forEach((server, position) => this.addSqlServer(server, position));
      tenant.subscriptions.forEach((subscription, position) =>
        this.addSubscription(
          subscription,
          position,
          tenant.subscriptions.length,
          tenant === fleet.tenants[0],
        ),
      );
    }
  }

  /** Records of one type in one subscription, in a stable order. */
  list(subscriptionId: string, type: SecurityListType): readonly ArmRecord[] {
    return this.lists.get(`${subscriptionId.toLowerCase()}|${type.toLowerCase()}`) ?? [];
  }

  findSqlServer(serverId: string): SqlServerSecurityRecord | undefined {
    return this.sqlByServerId.get(serverId.toLowerCase());
  }

  findNetworkSecurityGroup(groupId: string): ArmRecord | undefined {
    const subscriptionId = /\/subscriptions\/([^/]+)/i.exec(groupId)?.[1] ?? '';
    return this.list(subscriptionId, 'Microsoft.Network/networkSecurityGroups').find(
      (group) => group.id.toLowerCase() === groupId.toLowerCase(),
    );
  }

  findSecurityRule(ruleId: string): { group: ArmRecord; rule: ArmRecord } | undefined {
    return this.rulesById.get(ruleId.toLowerCase());
  }

  /** Creates or replaces a rule of an NSG, as a PUT of the rule does; undefined when the NSG is not there. */
  putSecurityRule(groupId: string, name: string, properties: Record<string, unknown>): ArmRecord | undefined {
    const group = this.findNetworkSecurityGroup(groupId);
    if (!group) return undefined;
    const created = rule(group.id, name, Number(properties.priority ?? 4096), properties);
    const rules = (group.properties.securityRules as ArmRecord[]).filter(
      (item) => item.name.toLowerCase() !== name.toLowerCase(),
    );
    group.properties.securityRules = [...rules, created];
    this.rulesById.set(created.id.toLowerCase(), { group, rule: created });
    return created;
  }

  /** Removes a rule from its NSG, as a DELETE of the rule does. */
  deleteSecurityRule(ruleId: string): boolean {
    const found = this.rulesById.get(ruleId.toLowerCase());
    if (!found) return false;
    const rules = found.group.properties.securityRules as ArmRecord[];
    found.group.properties.securityRules = rules.filter((item) => item !== found.rule);
    this.rulesById.delete(ruleId.toLowerCase());
    return true;
  }

  private push(subscriptionId: string, type: SecurityListType, record: ArmRecord): void {
    const key = `${subscriptionId.toLowerCase()}|${type.toLowerCase()}`;
    const list = this.lists.get(key);
    if (list) list.push(record);
    else this.lists.set(key, [record]);
  }

  private groupPath(subscriptionId: string, resourceGroupName: string): string {
    return `/subscriptions/${subscriptionId}/resourceGroups/${resourceGroupName}`;
  }

  private ensureNetwork(machine: VirtualMachineRecord): string {
    const groupPath = this.groupPath(machine.subscriptionId, machine.resourceGroupName);
    const networkId = `${groupPath}/providers/Microsoft.Network/virtualNetworks/${machine.resourceGroupName}-vnet`;
    const subnetId = `${networkId}/subnets/default`;
    const existing = this.list(machine.subscriptionId, 'Microsoft.Network/virtualNetworks').find(
      (network) => network.id === networkId,
    );
    if (existing) return subnetId;
    // Half the groups guard their subnet too: SMB is closed there, the rest left to each NIC's NSG.
    let subnetGroupId: string | undefined;
    if (hashToUnit(this.fleet.seedKey, hashText(networkId)) < 0.5) {
      subnetGroupId = `${groupPath}/providers/Microsoft.Network/networkSecurityGroups/${machine.resourceGroupName}-subnet-nsg`;
      this.addGroup(
        machine.subscriptionId,
        machine.location,
        subnetGroupId,
        [
          rule(subnetGroupId, 'deny-smb-internet', 100, {
            sourceAddressPrefix: 'Internet',
            destinationPortRange: '445',
            access: 'Deny',
          }),
          rule(subnetGroupId, 'allow-to-nics', 4000, {
            protocol: '*',
            sourceAddressPrefix: '*',
            destinationPortRange: '*',
          }),
        ],
        { subnets: [{ id: subnetId }] },
      );
    }
    this.push(machine.subscriptionId, 'Microsoft.Network/virtualNetworks', {
      id: networkId,
      name: `${machine.resourceGroupName}-vnet`,
      type: 'Microsoft.Network/virtualNetworks',
      location: machine.location,
      properties: {
        provisioningState: 'Succeeded',
        addressSpace: { addressPrefixes: ['10.0.0.0/16'] },
        subnets: [
          {
            id: subnetId,
            name: 'default',
            type: 'Microsoft.Network/virtualNetworks/subnets',
            properties: {
              addressPrefix: '10.0.0.0/24',
              provisioningState: 'Succeeded',
              ...(subnetGroupId ? { networkSecurityGroup: { id: subnetGroupId } } : {}),
            },
          },
        ],
      },
    });
    return subnetId;
  }

  private addGroup(
    subscriptionId: string,
    location: string,
    groupId: string,
    securityRules: ArmRecord[],
    associations: Record<string, unknown>,
  ): void {
    const group: ArmRecord = {
      id: groupId,
      name: groupId.split('/').pop() ?? '',
      type: 'Microsoft.Network/networkSecurityGroups',
      location,
      properties: {
        provisioningState: 'Succeeded',
        resourceGuid: deriveGuid(this.fleet.seed, `nsg:${groupId}`),
        securityRules,
        defaultSecurityRules: defaultRules(groupId),
        ...associations,
      },
    };
    for (const item of securityRules) this.rulesById.set(item.id.toLowerCase(), { group, rule: item });
    this.push(subscriptionId, 'Microsoft.Network/networkSecurityGroups', group);
  }

  private addMachine(machine: VirtualMachineRecord, position: number): void {
    const subnetId = this.ensureNetwork(machine);
    const groupPath = this.groupPath(machine.subscriptionId, machine.resourceGroupName);
    const nicId = `${groupPath}/providers/Microsoft.Network/networkInterfaces/${machine.name}-nic`;
    const groupId = `${groupPath}/providers/Microsoft.Network/networkSecurityGroups/${machine.name}-nsg`;
    this.addGroup(machine.subscriptionId, machine.location, groupId, machineRules(groupId, position), {
      networkInterfaces: [{ id: nicId }],
    });
    this.push(machine.subscriptionId, 'Microsoft.Network/networkInterfaces', {
      id: nicId,
      name: `${machine.name}-nic`,
      type: 'Microsoft.Network/networkInterfaces',
      location: machine.location,
      properties: {
        provisioningState: 'Succeeded',
        primary: true,
        virtualMachine: { id: machine.id },
        networkSecurityGroup: { id: groupId },
        ipConfigurations: [
          {
            id: `${nicId}/ipConfigurations/ipconfig1`,
            name: 'ipconfig1',
            properties: {
              privateIPAllocationMethod: 'Dynamic',
              subnet: { id: subnetId },
              primary: true,
              privateIPAddressVersion: 'IPv4',
            },
          },
        ],
      },
    });
    // One storage account and one key vault per resource group, placed with its first VM.
    const storageName = `st${machine.resourceGroupName.replace(/[^a-z0-9]/gi, '').toLowerCase()}`.slice(
      0,
      20,
    );
    const storageId = `${groupPath}/providers/Microsoft.Storage/storageAccounts/${storageName}`;
    if (
      !this.list(machine.subscriptionId, 'Microsoft.Storage/storageAccounts').some(
        (item) => item.id === storageId,
      )
    ) {
      this.addStorageAndVault(machine, storageId, storageName, this.storageCount);
      this.storageCount += 1;
    }
  }

  private addStorageAndVault(
    machine: VirtualMachineRecord,
    storageId: string,
    storageName: string,
    index: number,
  ): void {
    const groupPath = this.groupPath(machine.subscriptionId, machine.resourceGroupName);
    const keyAgeDays = index % 6 === 2 ? 200 : 30;
    const created = new Date(this.nowMs - keyAgeDays * dayMs).toISOString();
    this.push(machine.subscriptionId, 'Microsoft.Storage/storageAccounts', {
      id: storageId,
      name: storageName,
      type: 'Microsoft.Storage/storageAccounts',
      location: machine.location,
      tags: {},
      properties: {
        provisioningState: 'Succeeded',
        allowBlobPublicAccess: index % 10 === 3,
        supportsHttpsTrafficOnly: index % 6 !== 1,
        minimumTlsVersion: index % 9 === 2 ? 'TLS1_0' : index % 9 === 4 ? 'TLS1_3' : 'TLS1_2',
        allowSharedKeyAccess: index % 7 !== 0,
        keyCreationTime: { key1: created, key2: created },
        networkAcls: {
          bypass: 'AzureServices',
          virtualNetworkRules: [],
          ipRules: [],
          defaultAction: index % 4 === 1 ? 'Allow' : 'Deny',
        },
        encryption: {
          keySource: 'Microsoft.Storage',
          services: { blob: { enabled: true }, file: { enabled: true } },
        },
      },
    });
    const vaultName = `kv-${machine.resourceGroupName}`.slice(0, 24);
    this.push(machine.subscriptionId, 'Microsoft.KeyVault/vaults', {
      id: `${groupPath}/providers/Microsoft.KeyVault/vaults/${vaultName}`,
      name: vaultName,
      type: 'Microsoft.KeyVault/vaults',
      location: machine.location,
      tags: {},
      properties: {
        tenantId: this.fleet.findSubscription(machine.subscriptionId)?.tenantId ?? '',
        sku: { family: 'A', name: 'standard' },
        vaultUri: `https://${vaultName}.vault.azure.net/`,
        enableSoftDelete: true,
        softDeleteRetentionInDays: 90,
        enableRbacAuthorization: true,
        ...(index % 3 === 1 ? {} : { enablePurgeProtection: true }),
        provisioningState: 'Succeeded',
      },
    });
  }

  private addSqlServer(server: SqlServerRecord, position: number): void {
    const firewallRule = (name: string, start: string, end: string): ArmRecord => ({
      id: `${server.id}/firewallRules/${name}`,
      name,
      type: 'Microsoft.Sql/servers/firewallRules',
      properties: { startIpAddress: start, endIpAddress: end },
    });
    const transparentDataEncryption = new Map<string, ArmRecord>();
    const databases = this.fleet.sqlDatabases
      .filter((database) => database.id.toLowerCase().startsWith(`${server.id.toLowerCase()}/`))
      .sort((left, right) => left.id.localeCompare(right.id));
    databases.forEach((database, index) => {
      transparentDataEncryption.set(database.name.toLowerCase(), {
        id: `${database.id}/transparentDataEncryption/Current`,
        name: 'Current',
        type: 'Microsoft.Sql/servers/databases/transparentDataEncryption',
        properties: { state: position % 3 === 0 && index === 0 ? 'Disabled' : 'Enabled' },
      });
    });
    this.sqlByServerId.set(server.id.toLowerCase(), {
      serverId: server.id,
      firewallRules: [
        firewallRule('AllowAllWindowsAzureIps', '0.0.0.0', '0.0.0.0'),
        firewallRule('office', '203.0.113.0', '203.0.113.255'),
        ...(position % 4 === 0 ? [firewallRule('allow-all', '0.0.0.0', '255.255.255.255')] : []),
      ],
      auditing: {
        id: `${server.id}/auditingSettings/Default`,
        name: 'Default',
        type: 'Microsoft.Sql/servers/auditingSettings',
        properties: {
          state: position % 4 === 0 ? 'Disabled' : 'Enabled',
          retentionDays: 90,
          isAzureMonitorTargetEnabled: position % 4 !== 0,
        },
      },
      transparentDataEncryption,
    });
  }

  private addSubscription(
    subscription: SubscriptionRecord,
    position: number,
    count: number,
    isFirstTenant: boolean,
  ): void {
    const { subscriptionId } = subscription;
    const scope = `/subscriptions/${subscriptionId}`;
    // Network Watcher in every region with networks, but the last region of a tenant's first subscription.
    const regions = [
      ...new Set(
        this.list(subscriptionId, 'Microsoft.Network/virtualNetworks').map(
          (network) => network.location ?? '',
        ),
      ),
    ].sort();
    regions.forEach((region, index) => {
      if (position === 0 && index === regions.length - 1) return;
      this.push(subscriptionId, 'Microsoft.Network/networkWatchers', {
        id: `${scope}/resourceGroups/NetworkWatcherRG/providers/Microsoft.Network/networkWatchers/NetworkWatcher_${region}`,
        name: `NetworkWatcher_${region}`,
        type: 'Microsoft.Network/networkWatchers',
        location: region,
        properties: { provisioningState: 'Succeeded' },
      });
    });
    // The activity log exported everywhere but in each tenant's last subscription.
    if (position !== count - 1) {
      this.push(subscriptionId, 'Microsoft.Insights/diagnosticSettings', {
        id: `${scope}/providers/microsoft.insights/diagnosticSettings/activity-log`,
        name: 'activity-log',
        type: 'Microsoft.Insights/diagnosticSettings',
        properties: {
          workspaceId: `${scope}/resourceGroups/monitoring/providers/Microsoft.OperationalInsights/workspaces/logs`,
          logs: [{ categoryGroup: 'allLogs', enabled: true }],
        },
      });
    }
    const roleDefinition = (
      name: string,
      type: string,
      actions: string[],
      notActions: string[],
    ): ArmRecord => {
      const roleId = deriveGuid(this.fleet.seed, `role:${subscriptionId}:${name}`);
      return {
        id: `${scope}/providers/Microsoft.Authorization/roleDefinitions/${roleId}`,
        name: roleId,
        type: 'Microsoft.Authorization/roleDefinitions',
        properties: {
          roleName: name,
          type,
          description: name,
          assignableScopes: type === 'BuiltInRole' ? ['/'] : [scope],
          permissions: [{ actions, notActions, dataActions: [], notDataActions: [] }],
        },
      };
    };
    for (const role of [
      roleDefinition('Owner', 'BuiltInRole', ['*'], []),
      roleDefinition(
        'Contributor',
        'BuiltInRole',
        ['*'],
        ['Microsoft.Authorization/*/Delete', 'Microsoft.Authorization/*/Write'],
      ),
      roleDefinition('Reader', 'BuiltInRole', ['*/read'], []),
      roleDefinition('VM Operator', 'CustomRole', ['Microsoft.Compute/virtualMachines/*'], []),
      ...(position === 0 ? [roleDefinition('Subscription Admin (legacy)', 'CustomRole', ['*'], [])] : []),
    ]) {
      this.push(subscriptionId, 'Microsoft.Authorization/roleDefinitions', role);
    }
    // Defender for Cloud: off in the first tenant's last subscription; elsewhere on, with a few plans Free.
    const isDefenderOff = isFirstTenant && position === count - 1 && count > 1;
    for (const plan of defenderPlans) {
      const isOn =
        !isDefenderOff &&
        !(plan === 'KeyVaults' && position === 0) &&
        !(position === count - 1 && ['VirtualMachines', 'SqlServers', 'StorageAccounts'].includes(plan));
      this.push(subscriptionId, 'Microsoft.Security/pricings', {
        id: `${scope}/providers/Microsoft.Security/pricings/${plan}`,
        name: plan,
        type: 'Microsoft.Security/pricings',
        properties: {
          pricingTier: isOn ? 'Standard' : 'Free',
          ...(isOn
            ? { enablementTime: new Date(this.nowMs - 200 * dayMs).toISOString() }
            : { freeTrialRemainingTime: 'PT0S' }),
        },
      });
    }
    if (isDefenderOff) return;
    const percentage = 0.55 + hashToUnit(this.fleet.seedKey, hashText(`score:${subscriptionId}`)) * 0.3;
    const max = 58;
    const current = Math.round(max * percentage * 100) / 100;
    this.push(subscriptionId, 'Microsoft.Security/secureScores', {
      id: `${scope}/providers/Microsoft.Security/secureScores/ascScore`,
      name: 'ascScore',
      type: 'Microsoft.Security/secureScores',
      properties: {
        displayName: 'ASC score',
        score: { max, current, percentage: Math.round((current / max) * 10000) / 10000 },
        weight: this.list(subscriptionId, 'Microsoft.Network/networkInterfaces').length,
      },
    });
    for (const [name, displayName, controlMax] of [
      ['restrictUnauthorizedNetworkAccess', 'Restrict unauthorized network access', 4],
      ['enableEncryptionAtRest', 'Enable encryption at rest', 4],
      ['secureManagementPorts', 'Secure management ports', 8],
    ] as const) {
      const controlCurrent = Math.round(controlMax * percentage * 100) / 100;
      this.push(subscriptionId, 'Microsoft.Security/secureScoreControls', {
        id: `${scope}/providers/Microsoft.Security/secureScores/ascScore/secureScoreControls/${name}`,
        name,
        type: 'Microsoft.Security/secureScores/secureScoreControls',
        properties: {
          displayName,
          score: {
            max: controlMax,
            current: controlCurrent,
            percentage: Math.round(percentage * 10000) / 10000,
          },
          healthyResourceCount: 0,
          unhealthyResourceCount: 0,
          notApplicableResourceCount: 0,
        },
      });
    }
    const assessmentKey = deriveGuid(this.fleet.seed, 'assessment:management-ports');
    for (const machine of this.fleet.virtualMachines.filter(
      (item) => item.subscriptionId === subscriptionId,
    )) {
      const rules = (this.findNetworkSecurityGroup(
        `${this.groupPath(subscriptionId, machine.resourceGroupName)}/providers/Microsoft.Network/networkSecurityGroups/${machine.name}-nsg`,
      )?.properties.securityRules ?? []) as ArmRecord[];
      const isOpen = rules.some((item) => ['allow-ssh', 'allow-rdp'].includes(item.name));
      this.push(subscriptionId, 'Microsoft.Security/assessments', {
        id: `${machine.id}/providers/Microsoft.Security/assessments/${assessmentKey}`,
        name: assessmentKey,
        type: 'Microsoft.Security/assessments',
        properties: {
          displayName: 'Management ports should be closed on your virtual machines',
          resourceDetails: { Source: 'Azure', Id: machine.id },
          status: { code: isOpen ? 'Unhealthy' : 'Healthy' },
        },
      });
    }
  }
}

/** A VM's securityProfile: Trusted Launch but on about one VM in seven. */
export function describeMachineSecurityProfile(fleet: Fleet, machineId: string) {
  return hashToUnit(fleet.seedKey, hashText(`trusted-launch:${machineId.toLowerCase()}`)) < 0.15
    ? undefined
    : { uefiSettings: { secureBootEnabled: true, vTpmEnabled: true }, securityType: 'TrustedLaunch' };
}

/** A disk's encryption: a customer-managed key (a disk encryption set) on most, the platform key on some. */
export function describeDiskEncryption(fleet: Fleet, disk: ManagedDiskRecord) {
  // Disks left behind unattached were mostly made without a disk encryption set.
  const platformShare = disk.machine ? 0.2 : 0.6;
  if (hashToUnit(fleet.seedKey, hashText(`disk-key:${disk.id.toLowerCase()}`)) < platformShare) {
    return { type: 'EncryptionAtRestWithPlatformKey' };
  }
  return {
    type: 'EncryptionAtRestWithCustomerKey',
    diskEncryptionSetId: `/subscriptions/${disk.subscriptionId}/resourceGroups/${disk.resourceGroupName}/providers/Microsoft.Compute/diskEncryptionSets/des-${disk.resourceGroupName}`,
  };
}

// VMs still on an unmanaged (VHD) OS disk, by lower-case id, per fleet: the VM list may grow, the
// choice stays the one made when the fleet was first viewed.
const unmanagedOsDisksByFleet = new WeakMap<Fleet, ReadonlyMap<string, string>>();

/**
 * A VM's OS disk as a page blob (storageProfile.osDisk.vhd) for about one VM in forty, and at least
 * one in each tenant. Only VMs without data disks or premium storage qualify (a VM cannot mix
 * managed and unmanaged disks, and a size choice must not depend on it), so sizing reads the same;
 * the fleet's disk records, their costs and the inventory are left as they are.
 */
export function describeOsDiskVhd(
  fleet: Fleet,
  machine: VirtualMachineRecord,
  isEligible: (machine: VirtualMachineRecord) => boolean,
): { uri: string } | undefined {
  let chosen = unmanagedOsDisksByFleet.get(fleet);
  if (!chosen) {
    const uris = new Map<string, string>();
    const draw = (candidate: VirtualMachineRecord) =>
      hashToUnit(fleet.seedKey, hashText(`unmanaged-os-disk:${candidate.id.toLowerCase()}`));
    for (const tenant of fleet.tenants) {
      const candidates = fleet.virtualMachines
        .filter(
          (candidate) =>
            tenant.subscriptions.some((s) => s.subscriptionId === candidate.subscriptionId) &&
            isEligible(candidate),
        )
        .sort((left, right) => draw(left) - draw(right));
      const picked = candidates.filter((candidate) => draw(candidate) < 0.025);
      const first = candidates[0];
      if (picked.length === 0 && first) picked.push(first);
      for (const candidate of picked) {
        const account = `${candidate.resourceGroupName
          .replace(/[^a-z0-9]/gi, '')
          .toLowerCase()
          .slice(0, 19)}vhds`;
        uris.set(
          candidate.id.toLowerCase(),
          `https://${account}.blob.core.windows.net/vhds/${fleet.readOsDiskName(candidate)}.vhd`,
        );
      }
    }
    chosen = uris;
    unmanagedOsDisksByFleet.set(fleet, chosen);
  }
  const uri = chosen.get(machine.id.toLowerCase());
  return uri ? { uri } : undefined;
}
