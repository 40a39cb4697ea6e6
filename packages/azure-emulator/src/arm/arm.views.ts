import { findDiskTier, type DiskSkuName } from '../catalog/platform.catalog';
import { findRegion, type VirtualMachineSize } from '../catalog/sku.catalog';
import { deriveGuid, hashToUnit } from '../fleet/noise.hash';
import {
  describeDiskEncryption,
  describeMachineSecurityProfile,
  describeOsDiskVhd,
} from '../security/security.estate';
import type {
  AppServicePlanRecord,
  Fleet,
  FleetResource,
  ManagedDiskRecord,
  PowerState,
  PublicIpAddressRecord,
  ResourceGroupRecord,
  SnapshotRecord,
  SqlDatabaseRecord,
  SqlDatabaseSku,
  SqlServerRecord,
  SubscriptionRecord,
  VirtualMachineRecord,
  WebSiteRecord,
} from '../fleet/fleet.model';

// Resource Manager's JSON for each kind of resource, built on demand so the fleet stores no
// JSON. Shapes follow what the public REST API returns for the api-versions the SDKs send.

export function formatTime(timeMs: number): string {
  return new Date(timeMs).toISOString().replace('.000Z', 'Z');
}

export function describeSubscription(subscription: SubscriptionRecord) {
  return {
    id: `/subscriptions/${subscription.subscriptionId}`,
    authorizationSource: 'RoleBased',
    managedByTenants: [],
    subscriptionId: subscription.subscriptionId,
    tenantId: subscription.tenantId,
    displayName: subscription.displayName,
    state: 'Enabled',
    subscriptionPolicies: {
      locationPlacementId: 'Public_2014-09-01',
      quotaId: 'PayAsYouGo_2014-09-01',
      spendingLimit: 'Off',
    },
  };
}

export function describeResourceGroup(group: ResourceGroupRecord) {
  return {
    id: group.id,
    name: group.name,
    type: 'Microsoft.Resources/resourceGroups',
    location: group.location,
    tags: group.tags,
    properties: { provisioningState: 'Succeeded' },
  };
}

/** The current (latest) size, including a change made this very minute. */
export function readCurrentSize(machine: VirtualMachineRecord): VirtualMachineSize {
  const latest = machine.sizeHistory[machine.sizeHistory.length - 1];
  if (!latest) throw new Error('A virtual machine always has a size.');
  return latest.size;
}

export function readCurrentPowerState(machine: VirtualMachineRecord): PowerState {
  return machine.powerHistory[machine.powerHistory.length - 1]?.state ?? 'running';
}

/** The operation still running on a machine, if any; a finished one is forgotten. */
export function readPendingOperation(machine: VirtualMachineRecord) {
  if (machine.pendingOperation && Date.now() >= machine.pendingOperation.completesAtMs) {
    machine.pendingOperation = undefined;
  }
  return machine.pendingOperation;
}

export function describeGenericResource(resource: FleetResource) {
  const base = {
    id: resource.id,
    name:
      resource.type === 'Microsoft.Sql/servers/databases'
        ? `${resource.serverName}/${resource.name}`
        : resource.name,
    type: resource.type,
    location: resource.location,
    tags: resource.tags,
    createdTime: formatTime(resource.createdMs),
    changedTime: formatTime(resource.createdMs),
    provisioningState: 'Succeeded',
  };
  switch (resource.type) {
    case 'Microsoft.Web/serverfarms':
      return { ...base, kind: resource.kind, sku: describePlanSku(resource) };
    case 'Microsoft.Sql/servers':
      return { ...base, kind: 'v12.0' };
    case 'Microsoft.Sql/servers/databases':
      return {
        ...base,
        kind: describeDatabaseKind(resource),
        sku: describeDatabaseSku(resource),
        managedBy: undefined,
      };
    case 'Microsoft.Compute/disks':
      return {
        ...base,
        sku: describeDiskSku(resource.sku),
        ...(resource.machine ? { managedBy: resource.machine.id } : {}),
      };
    case 'Microsoft.Compute/snapshots':
      return { ...base, sku: describeDiskSku('Standard_LRS') };
    case 'Microsoft.Network/publicIPAddresses':
      return { ...base, sku: { name: resource.sku, tier: 'Regional' } };
    case 'Microsoft.Web/sites':
      return { ...base, kind: resource.kind };
    default:
      return base;
  }
}

function describeDiskSku(sku: DiskSkuName) {
  return { name: sku, tier: sku === 'Premium_LRS' ? 'Premium' : 'Standard' };
}

/** Attached to a running or stopped VM, Reserved while it is deallocated, else Unattached. */
export function readDiskState(disk: ManagedDiskRecord): 'Attached' | 'Reserved' | 'Unattached' {
  if (!disk.machine) return 'Unattached';
  return readCurrentPowerState(disk.machine) === 'deallocated' ? 'Reserved' : 'Attached';
}

// Azure's published IOPS and throughput of each tier, by its index (4 GiB ... 4 TiB).
const premiumIops = [120, 120, 120, 120, 240, 500, 1100, 2300, 5000, 7500, 7500];
const premiumMbps = [25, 25, 25, 25, 50, 100, 125, 150, 200, 250, 250];

function describeDiskPerformance(disk: ManagedDiskRecord) {
  const tier = findDiskTier(disk.sku, disk.sizeGiB);
  if (disk.sku === 'Premium_LRS') {
    const index = Math.max(0, [4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096].indexOf(tier.sizeGiB));
    return {
      tier: tier.name,
      diskIOPSReadWrite: premiumIops[index] ?? 120,
      diskMBpsReadWrite: premiumMbps[index] ?? 25,
    };
  }
  return { diskIOPSReadWrite: 500, diskMBpsReadWrite: disk.sku === 'StandardSSD_LRS' ? 100 : 60 };
}

export function readDiskUniqueId(fleet: Fleet, disk: ManagedDiskRecord): string {
  return deriveGuid(fleet.seed, `disk-id:${disk.id.toLowerCase()}`);
}

export function describeDisk(fleet: Fleet, disk: ManagedDiskRecord) {
  const isOsDisk = disk.osType !== undefined;
  return {
    name: disk.name,
    id: disk.id,
    type: disk.type,
    location: disk.location,
    tags: disk.tags,
    ...(disk.machine ? { managedBy: disk.machine.id } : {}),
    sku: describeDiskSku(disk.sku),
    properties: {
      ...(isOsDisk ? { osType: disk.osType, hyperVGeneration: 'V2' } : {}),
      creationData: isOsDisk
        ? {
            createOption: 'FromImage',
            imageReference: {
              id: `/Subscriptions/${disk.subscriptionId}/Providers/Microsoft.Compute/Locations/${disk.location}/Publishers/${disk.osType === 'Windows' ? 'MicrosoftWindowsServer/ArtifactTypes/VMImage/Offers/WindowsServer/Skus/2022-datacenter-azure-edition' : 'Canonical/ArtifactTypes/VMImage/Offers/0001-com-ubuntu-server-jammy/Skus/22_04-lts-gen2'}/Versions/latest`,
            },
          }
        : { createOption: 'Empty' },
      diskSizeGB: disk.sizeGiB,
      ...describeDiskPerformance(disk),
      encryption: describeDiskEncryption(fleet, disk),
      networkAccessPolicy: 'AllowAll',
      publicNetworkAccess: 'Enabled',
      timeCreated: formatTime(disk.createdMs),
      provisioningState: 'Succeeded',
      diskState: readDiskState(disk),
      diskSizeBytes: disk.sizeGiB * 1024 ** 3,
      uniqueId: readDiskUniqueId(fleet, disk),
      // Spelled so by Azure, unlike every other property.
      LastOwnershipUpdateTime: formatTime(disk.lastOwnershipUpdateMs),
    },
  };
}

export function describeSnapshot(fleet: Fleet, snapshot: SnapshotRecord, readyAtMs: number | undefined) {
  return {
    name: snapshot.name,
    id: snapshot.id,
    type: snapshot.type,
    location: snapshot.location,
    tags: snapshot.tags,
    sku: describeDiskSku('Standard_LRS'),
    properties: {
      ...(snapshot.osType ? { osType: snapshot.osType, hyperVGeneration: 'V2' } : {}),
      creationData: {
        createOption: 'Copy',
        sourceResourceId: snapshot.sourceResourceId,
        sourceUniqueId: snapshot.sourceUniqueId,
      },
      diskSizeGB: snapshot.sizeGiB,
      encryption: { type: 'EncryptionAtRestWithPlatformKey' },
      incremental: snapshot.isIncremental,
      ...(snapshot.isIncremental
        ? {
            incrementalSnapshotFamilyId: deriveGuid(
              fleet.seed,
              `snapshot-family:${snapshot.sourceResourceId.toLowerCase()}`,
            ),
          }
        : {}),
      networkAccessPolicy: 'AllowAll',
      publicNetworkAccess: 'Enabled',
      timeCreated: formatTime(snapshot.createdMs),
      provisioningState: readyAtMs !== undefined && Date.now() < readyAtMs ? 'Creating' : 'Succeeded',
      diskState: 'Unattached',
      diskSizeBytes: snapshot.sizeGiB * 1024 ** 3,
      uniqueId: deriveGuid(fleet.seed, `snapshot-id:${snapshot.id.toLowerCase()}`),
    },
  };
}

export function describePublicIpAddress(fleet: Fleet, address: PublicIpAddressRecord) {
  return {
    name: address.name,
    id: address.id,
    etag: `W/"${deriveGuid(fleet.seed, `etag:${address.id.toLowerCase()}`)}"`,
    type: address.type,
    location: address.location,
    tags: address.tags,
    sku: { name: address.sku, tier: 'Regional' },
    properties: {
      provisioningState: 'Succeeded',
      resourceGuid: deriveGuid(fleet.seed, `ip-guid:${address.id.toLowerCase()}`),
      ...(address.ipAddress ? { ipAddress: address.ipAddress } : {}),
      publicIPAddressVersion: 'IPv4',
      publicIPAllocationMethod: address.allocationMethod,
      idleTimeoutInMinutes: 4,
      ipTags: [],
      ...(address.ipConfigurationId ? { ipConfiguration: { id: address.ipConfigurationId } } : {}),
    },
  };
}

export function describeWebSite(site: WebSiteRecord) {
  const hostName = `${site.name}.azurewebsites.net`;
  return {
    id: site.id,
    name: site.name,
    type: site.type,
    kind: site.kind,
    location: findRegion(site.location)?.displayName ?? site.location,
    tags: site.tags,
    properties: {
      name: site.name,
      state: 'Running',
      hostNames: [hostName],
      defaultHostName: hostName,
      enabled: true,
      availabilityState: 'Normal',
      serverFarmId: site.plan.id,
      reserved: site.kind === 'app,linux',
      resourceGroup: site.resourceGroupName,
      httpsOnly: true,
      lastModifiedTimeUtc: formatTime(site.createdMs),
    },
  };
}

export interface MachineHardware {
  readonly osType: 'Linux' | 'Windows';
  readonly osDiskType: 'Premium_LRS' | 'StandardSSD_LRS';
  readonly dataDiskTypes: readonly ('Premium_LRS' | 'StandardSSD_LRS')[];
  readonly nicCount: number;
  readonly isAcceleratedNetworkingEnabled: boolean;
}

/**
 * What a machine was built with, drawn from its id's hash (stable across restarts and resizes, and
 * no draw taken from the fleet's generator): about one in five runs Windows; data disks, a second
 * NIC, premium disks and accelerated networking vary, within what its first size allows.
 */
export function readMachineHardware(machine: VirtualMachineRecord): MachineHardware {
  const firstSize = machine.sizeHistory[0]?.size ?? readCurrentSize(machine);
  const draw = (stream: number) => hashToUnit(machine.streamKey, 0x5eed, stream);
  const dataDiskCount = Math.min(firstSize.maxDataDisks, [0, 0, 0, 1, 1, 2, 4][Math.floor(draw(1) * 7)] ?? 0);
  const isPremium = firstSize.isPremiumIoSupported && draw(2) < 0.55;
  const diskType = isPremium ? 'Premium_LRS' : 'StandardSSD_LRS';
  return {
    osType: draw(0) < 0.2 ? 'Windows' : 'Linux',
    osDiskType: diskType,
    dataDiskTypes: Array.from({ length: dataDiskCount }, () => diskType),
    nicCount: firstSize.maxNetworkInterfaces >= 2 && draw(3) < 0.1 ? 2 : 1,
    isAcceleratedNetworkingEnabled: firstSize.isAcceleratedNetworkingEnabled && draw(4) < 0.5,
  };
}

function describeImage(machine: VirtualMachineRecord) {
  if (readMachineHardware(machine).osType === 'Windows') {
    return {
      publisher: 'MicrosoftWindowsServer',
      offer: 'WindowsServer',
      sku: '2022-datacenter-azure-edition',
      version: 'latest',
      exactVersion: '20348.2762.241009',
    };
  }
  const isJammy = machine.imageSku.startsWith('22');
  return {
    publisher: 'Canonical',
    offer: isJammy ? '0001-com-ubuntu-server-jammy' : '0001-com-ubuntu-server-focal',
    sku: machine.imageSku,
    version: 'latest',
    exactVersion: isJammy ? '22.04.202410020' : '20.04.202409110',
  };
}

const transitionalStatus: Readonly<Record<string, { code: string; displayStatus: string }>> = {
  start: { code: 'PowerState/starting', displayStatus: 'VM starting' },
  restart: { code: 'PowerState/starting', displayStatus: 'VM starting' },
  deallocate: { code: 'PowerState/deallocating', displayStatus: 'VM deallocating' },
  powerOff: { code: 'PowerState/stopping', displayStatus: 'VM stopping' },
};

const settledStatus: Readonly<Record<PowerState, { code: string; displayStatus: string }>> = {
  running: { code: 'PowerState/running', displayStatus: 'VM running' },
  stopped: { code: 'PowerState/stopped', displayStatus: 'VM stopped' },
  deallocated: { code: 'PowerState/deallocated', displayStatus: 'VM deallocated' },
};

export function describeInstanceView(fleet: Fleet, machine: VirtualMachineRecord) {
  const pending = readPendingOperation(machine);
  const powerState = readCurrentPowerState(machine);
  const nowText = formatTime(Date.now());
  const power = (pending && transitionalStatus[pending.kind]) || settledStatus[powerState];
  const isRunning = powerState === 'running' && !pending;
  const image = describeImage(machine);
  const isWindows = readMachineHardware(machine).osType === 'Windows';
  return {
    computerName: machine.name,
    osName: isWindows ? 'Windows Server 2022 Datacenter Azure Edition' : 'ubuntu',
    osVersion: isWindows ? '10.0.20348.2762' : image.exactVersion.slice(0, 5),
    ...(isRunning
      ? {
          vmAgent: {
            vmAgentVersion: '2.11.1.12',
            statuses: [
              {
                code: 'ProvisioningState/succeeded',
                level: 'Info',
                displayStatus: 'Ready',
                message: 'Guest Agent is running',
                time: nowText,
              },
            ],
            extensionHandlers: [],
          },
        }
      : {}),
    hyperVGeneration: 'V2',
    disks: [
      {
        name: fleet.readOsDiskName(machine),
        statuses: [
          {
            code: 'ProvisioningState/succeeded',
            level: 'Info',
            displayStatus: 'Provisioning succeeded',
            time: formatTime(machine.createdMs),
          },
        ],
      },
    ],
    statuses: [
      pending
        ? { code: 'ProvisioningState/updating', level: 'Info', displayStatus: 'Updating' }
        : {
            code: 'ProvisioningState/succeeded',
            level: 'Info',
            displayStatus: 'Provisioning succeeded',
            time: nowText,
          },
      { code: power.code, level: 'Info', displayStatus: power.displayStatus },
    ],
  };
}

/** A VM's disk as it is now (re-tiered through the API, perhaps), else as the VM was built. */
function readDiskSku(fleet: Fleet, diskId: string, builtWith: DiskSkuName): DiskSkuName {
  const disk = fleet.findResource(diskId);
  return disk?.type === 'Microsoft.Compute/disks' ? disk.sku : builtWith;
}

export function describeVirtualMachine(
  fleet: Fleet,
  machine: VirtualMachineRecord,
  options: { readonly isInstanceViewIncluded?: boolean } = {},
) {
  const groupId = machine.id.slice(0, machine.id.toLowerCase().indexOf('/providers/'));
  const osDiskName = fleet.readOsDiskName(machine);
  const hardware = readMachineHardware(machine);
  const osDiskVhd = readOsDiskVhd(fleet, machine);
  const nicNames = Array.from({ length: hardware.nicCount }, (_, index) =>
    index === 0 ? `${machine.name}-nic` : `${machine.name}-nic-${index + 1}`,
  );
  return {
    name: machine.name,
    id: machine.id,
    type: machine.type,
    location: machine.location,
    tags: machine.tags,
    properties: {
      vmId: fleet.readVmId(machine),
      hardwareProfile: { vmSize: readCurrentSize(machine).name },
      storageProfile: {
        imageReference: describeImage(machine),
        osDisk: osDiskVhd
          ? {
              // An unmanaged OS disk: a page blob in a storage account, no managed disk.
              osType: hardware.osType,
              name: osDiskName,
              createOption: 'FromImage',
              vhd: osDiskVhd,
              caching: 'ReadWrite',
              diskSizeGB: hardware.osType === 'Windows' ? 127 : 30,
            }
          : {
              osType: hardware.osType,
              name: osDiskName,
              createOption: 'FromImage',
              caching: 'ReadWrite',
              managedDisk: {
                storageAccountType: readDiskSku(
                  fleet,
                  `${groupId}/providers/Microsoft.Compute/disks/${osDiskName}`,
                  hardware.osDiskType,
                ),
                id: `${groupId}/providers/Microsoft.Compute/disks/${osDiskName}`,
              },
              deleteOption: 'Delete',
              diskSizeGB: hardware.osType === 'Windows' ? 127 : 30,
            },
        dataDisks: hardware.dataDiskTypes.map((storageAccountType, lun) => ({
          lun,
          name: `${machine.name}-data-${lun}`,
          createOption: 'Empty',
          caching: 'None',
          managedDisk: {
            storageAccountType: readDiskSku(
              fleet,
              `${groupId}/providers/Microsoft.Compute/disks/${machine.name}-data-${lun}`,
              storageAccountType,
            ),
            id: `${groupId}/providers/Microsoft.Compute/disks/${machine.name}-data-${lun}`,
          },
          deleteOption: 'Detach',
          diskSizeGB: 256,
          toBeDetached: false,
        })),
        diskControllerType: 'SCSI',
      },
      osProfile: {
        computerName: machine.name,
        adminUsername: 'azureuser',
        ...(hardware.osType === 'Windows'
          ? {
              windowsConfiguration: {
                provisionVMAgent: true,
                enableAutomaticUpdates: true,
                patchSettings: { patchMode: 'AutomaticByOS', assessmentMode: 'ImageDefault' },
                enableVMAgentPlatformUpdates: false,
              },
            }
          : {
              linuxConfiguration: {
                disablePasswordAuthentication: true,
                provisionVMAgent: true,
                patchSettings: { patchMode: 'ImageDefault', assessmentMode: 'ImageDefault' },
                enableVMAgentPlatformUpdates: false,
              },
            }),
        secrets: [],
        allowExtensionOperations: true,
        requireGuestProvisionSignal: true,
      },
      ...withSecurityProfile(describeMachineSecurityProfile(fleet, machine.id)),
      // As for a VM created with networkApiVersion: the NICs are listed and described inline, so the
      // model says whether accelerated networking is on.
      networkProfile: {
        networkApiVersion: '2022-11-01',
        networkInterfaces: nicNames.map((nicName, index) => ({
          id: `${groupId}/providers/Microsoft.Network/networkInterfaces/${nicName}`,
          properties: { primary: index === 0, deleteOption: 'Delete' },
        })),
        networkInterfaceConfigurations: nicNames.map((nicName, index) => ({
          name: nicName,
          properties: {
            primary: index === 0,
            deleteOption: 'Delete',
            enableAcceleratedNetworking: hardware.isAcceleratedNetworkingEnabled,
            ipConfigurations: [{ name: 'ipconfig1', properties: { primary: true } }],
          },
        })),
      },
      diagnosticsProfile: { bootDiagnostics: { enabled: true } },
      provisioningState: readPendingOperation(machine) ? 'Updating' : 'Succeeded',
      timeCreated: formatTime(machine.createdMs),
      ...(options.isInstanceViewIncluded ? { instanceView: describeInstanceView(fleet, machine) } : {}),
    },
  };
}

function describePlanSku(plan: AppServicePlanRecord) {
  return {
    name: plan.sku.name,
    tier: plan.sku.tier,
    size: plan.sku.size,
    family: plan.sku.family,
    capacity: plan.sku.capacity,
  };
}

export function describeAppServicePlan(plan: AppServicePlanRecord) {
  return {
    id: plan.id,
    name: plan.name,
    type: plan.type,
    kind: plan.kind,
    location: findRegion(plan.location)?.displayName ?? plan.location,
    tags: plan.tags,
    sku: describePlanSku(plan),
    properties: {
      serverFarmId: 0,
      name: plan.name,
      workerSize: 'Default',
      workerSizeId: 0,
      currentWorkerSize: 'Default',
      currentWorkerSizeId: 0,
      currentNumberOfWorkers: plan.sku.capacity,
      status: 'Ready',
      webSpace: `${plan.resourceGroupName}-${plan.location}webspace${plan.kind === 'linux' ? '-Linux' : ''}`,
      subscription: plan.subscriptionId,
      maximumNumberOfWorkers: plan.sku.tier.startsWith('Premium') ? 30 : 10,
      geoRegion: findRegion(plan.location)?.displayName ?? plan.location,
      numberOfSites: plan.numberOfSites,
      numberOfWorkers: plan.sku.capacity,
      reserved: plan.kind === 'linux',
      isXenon: false,
      hyperV: false,
      perSiteScaling: false,
      elasticScaleEnabled: false,
      isSpot: false,
      zoneRedundant: false,
      resourceGroup: plan.resourceGroupName,
      kind: plan.kind,
      provisioningState: 'Succeeded',
    },
  };
}

export function describeSqlServer(server: SqlServerRecord) {
  return {
    id: server.id,
    name: server.name,
    type: server.type,
    kind: 'v12.0',
    location: server.location,
    tags: server.tags,
    properties: {
      administratorLogin: server.administratorLogin,
      version: '12.0',
      state: 'Ready',
      fullyQualifiedDomainName: `${server.name}.database.windows.net`,
      privateEndpointConnections: [],
      minimalTlsVersion: '1.2',
      publicNetworkAccess: 'Enabled',
      restrictOutboundNetworkAccess: 'Disabled',
    },
  };
}

function describeDatabaseKind(database: SqlDatabaseRecord): string {
  return readCurrentDatabaseSku(database).family ? 'v12.0,user,vcore' : 'v12.0,user';
}

/** The objective in force: a change of objective takes over once its operation has completed. */
function readCurrentDatabaseSku(database: SqlDatabaseRecord): SqlDatabaseSku {
  if (database.pendingSku && Date.now() >= database.pendingSku.completesAtMs) {
    database.sku = database.pendingSku.sku;
    database.pendingSku = undefined;
  }
  return database.sku;
}

function describeDatabaseSku(database: SqlDatabaseRecord) {
  const sku = readCurrentDatabaseSku(database);
  return {
    name: sku.name,
    tier: sku.tier,
    ...(sku.family ? { family: sku.family } : {}),
    capacity: sku.capacity,
  };
}

export function describeSqlDatabase(database: SqlDatabaseRecord) {
  return {
    id: database.id,
    name: database.name,
    type: database.type,
    kind: describeDatabaseKind(database),
    location: database.location,
    tags: database.tags,
    sku: describeDatabaseSku(database),
    managedBy: undefined,
    properties: {
      collation: 'SQL_Latin1_General_CP1_CI_AS',
      maxSizeBytes: database.maxSizeBytes,
      status: 'Online',
      databaseId: database.databaseId,
      creationDate: formatTime(database.createdMs),
      currentServiceObjectiveName: readCurrentDatabaseSku(database).serviceObjective,
      requestedServiceObjectiveName: (database.pendingSku?.sku ?? database.sku).serviceObjective,
      defaultSecondaryLocation: database.location === 'eastus' ? 'westus' : 'northeurope',
      catalogCollation: 'SQL_Latin1_General_CP1_CI_AS',
      zoneRedundant: false,
      readScale: 'Disabled',
      currentSku: describeDatabaseSku(database),
      currentBackupStorageRedundancy: 'Geo',
      requestedBackupStorageRedundancy: 'Geo',
      isLedgerOn: false,
    },
  };
}

const acusBySeries: Readonly<Record<string, string>> = { B: '100', Dsv5: '195', Esv5: '195', Fsv2: '195' };

export function describeResourceSku(size: VirtualMachineSize, location: string) {
  const capability = (name: string, value: string | number | boolean) => ({
    name,
    value: typeof value === 'boolean' ? (value ? 'True' : 'False') : String(value),
  });
  return {
    resourceType: 'virtualMachines',
    name: size.name,
    tier: 'Standard',
    size: size.size,
    family: size.family,
    locations: [location],
    locationInfo: [{ location, zones: ['1', '2', '3'], zoneDetails: [] }],
    capabilities: [
      capability('MaxResourceVolumeMB', size.resourceDiskSizeInMb),
      capability('OSVhdSizeMB', 1047552),
      capability('vCPUs', size.vcpus),
      capability('MemoryPreservingMaintenanceSupported', true),
      capability('HyperVGenerations', 'V1,V2'),
      capability('MemoryGB', size.memoryGiB),
      capability('MaxDataDiskCount', size.maxDataDisks),
      capability('CpuArchitectureType', 'x64'),
      capability('LowPriorityCapable', size.series !== 'B'),
      capability('PremiumIO', size.isPremiumIoSupported),
      capability('VMDeploymentTypes', 'IaaS'),
      capability('vCPUsAvailable', size.vcpus),
      capability('ACUs', acusBySeries[size.series] ?? '100'),
      capability('vCPUsPerCore', size.series === 'B' ? 1 : 2),
      capability('UncachedDiskIOPS', size.uncachedDiskIops),
      capability('UncachedDiskBytesPerSecond', size.uncachedDiskIops * 32768),
      capability('EphemeralOSDiskSupported', size.resourceDiskSizeInMb > 0),
      capability('EncryptionAtHostSupported', true),
      capability('CapacityReservationSupported', size.series !== 'B'),
      capability('AcceleratedNetworkingEnabled', size.isAcceleratedNetworkingEnabled),
      capability('RdmaEnabled', false),
      capability('MaxNetworkInterfaces', size.maxNetworkInterfaces),
    ],
    restrictions: [],
  };
}

export function describeVirtualMachineSize(size: VirtualMachineSize) {
  return {
    name: size.name,
    numberOfCores: size.vcpus,
    osDiskSizeInMB: 1047552,
    resourceDiskSizeInMB: size.resourceDiskSizeInMb,
    memoryInMB: size.memoryGiB * 1024,
    maxDataDiskCount: size.maxDataDisks,
  };
}

function withSecurityProfile(profile: ReturnType<typeof describeMachineSecurityProfile>) {
  return profile ? { securityProfile: profile } : {};
}

// What a VM must be to run on an unmanaged OS disk in the demo without changing its size choice.
function hasOnlyStandardOsDisk(machine: VirtualMachineRecord): boolean {
  const hardware = readMachineHardware(machine);
  return hardware.dataDiskTypes.length === 0 && hardware.osDiskType !== 'Premium_LRS';
}

/** The page blob of a VM's unmanaged OS disk; undefined for a VM on managed disks (nearly all). */
export function readOsDiskVhd(fleet: Fleet, machine: VirtualMachineRecord): { uri: string } | undefined {
  return describeOsDiskVhd(fleet, machine, hasOnlyStandardOsDisk);
}
