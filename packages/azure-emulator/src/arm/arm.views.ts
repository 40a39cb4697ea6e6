import { findRegion, type VirtualMachineSize } from '../catalog/sku.catalog';
import type {
  AppServicePlanRecord,
  Fleet,
  FleetResource,
  PowerState,
  ResourceGroupRecord,
  SqlDatabaseRecord,
  SqlServerRecord,
  SubscriptionRecord,
  VirtualMachineRecord,
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
    default:
      return base;
  }
}

function describeImage(machine: VirtualMachineRecord) {
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
  return {
    computerName: machine.name,
    osName: 'ubuntu',
    osVersion: image.exactVersion.slice(0, 5),
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

export function describeVirtualMachine(
  fleet: Fleet,
  machine: VirtualMachineRecord,
  options: { readonly isInstanceViewIncluded?: boolean } = {},
) {
  const groupId = machine.id.slice(0, machine.id.toLowerCase().indexOf('/providers/'));
  const osDiskName = fleet.readOsDiskName(machine);
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
        osDisk: {
          osType: 'Linux',
          name: osDiskName,
          createOption: 'FromImage',
          caching: 'ReadWrite',
          managedDisk: {
            storageAccountType: 'Premium_LRS',
            id: `${groupId}/providers/Microsoft.Compute/disks/${osDiskName}`,
          },
          deleteOption: 'Delete',
          diskSizeGB: 30,
        },
        dataDisks: [],
        diskControllerType: 'SCSI',
      },
      osProfile: {
        computerName: machine.name,
        adminUsername: 'azureuser',
        linuxConfiguration: {
          disablePasswordAuthentication: true,
          provisionVMAgent: true,
          patchSettings: { patchMode: 'ImageDefault', assessmentMode: 'ImageDefault' },
          enableVMAgentPlatformUpdates: false,
        },
        secrets: [],
        allowExtensionOperations: true,
        requireGuestProvisionSignal: true,
      },
      securityProfile: {
        uefiSettings: { secureBootEnabled: true, vTpmEnabled: true },
        securityType: 'TrustedLaunch',
      },
      networkProfile: {
        networkInterfaces: [
          {
            id: `${groupId}/providers/Microsoft.Network/networkInterfaces/${machine.name}-nic`,
            properties: { deleteOption: 'Delete' },
          },
        ],
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
  return database.sku.family ? 'v12.0,user,vcore' : 'v12.0,user';
}

function describeDatabaseSku(database: SqlDatabaseRecord) {
  return {
    name: database.sku.name,
    tier: database.sku.tier,
    ...(database.sku.family ? { family: database.sku.family } : {}),
    capacity: database.sku.capacity,
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
      currentServiceObjectiveName: database.sku.serviceObjective,
      requestedServiceObjectiveName: database.sku.serviceObjective,
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
