import { readMachineHardware } from '../arm/arm.views';
import { findDatabaseObjective, type DiskSkuName, type PublicIpSkuName } from '../catalog/platform.catalog';
import {
  findRegion,
  findVirtualMachineSize,
  isSizeOfferedInRegion,
  type RegionDefinition,
} from '../catalog/sku.catalog';
import {
  describeObjectiveSku,
  Fleet,
  nameOsDisk,
  type AppServicePlanRecord,
  type ManagedDiskRecord,
  type PublicIpAddressRecord,
  type WebSiteRecord,
  type AppServicePlanSku,
  type PowerState,
  type PrincipalRecord,
  type ResourceGroupRecord,
  type SqlDatabaseRecord,
  type SqlDatabaseSku,
  type SqlServerRecord,
  type SubscriptionRecord,
  type TenantRecord,
  type VirtualMachineRecord,
} from './fleet.model';
import { createSeededRandom, deriveGuid, deriveToken, hashText, hashToUnit, mixHash } from './noise.hash';
import { createWorkloadProfile, workloadKinds, type WorkloadKind } from './workload.model';
import { dayMs, hourMs } from '../time';

export interface FleetGenerationOptions {
  readonly seed: number;
  /** Number of virtual machines across all subscriptions. */
  readonly fleetSize: number;
  /**
   * The clock unattached disks' detach times are counted back from (the emulator's clock at
   * start). Default: the start of today, UTC, so the same seed gives the same fleet all day.
   */
  readonly nowMs?: number;
  /**
   * Tenants in the estate: Contoso and Fabrikam, then numbered tenants of one production
   * subscription each (the scale benchmark's thousand customers). Default 2. Beyond 2, each tenant
   * holds an equal share of the fleet (Contoso and Fabrikam two shares between them).
   */
  readonly tenantCount?: number;
}

interface SubscriptionPlan {
  readonly label: string;
  readonly displayName: string;
  readonly environment: 'prod' | 'dev';
  readonly regionNames: readonly string[];
  /** Share of the fleet's virtual machines living here. */
  readonly share: number;
  readonly applications: readonly string[];
}

interface PrincipalPlan {
  readonly label: string;
  readonly displayName: string;
  readonly canRead: boolean;
  readonly canWrite: boolean;
  /** False: a custom role that reads everything but Cost Management and Consumption. */
  readonly canReadCosts?: boolean;
}

interface TenantPlan {
  readonly label: string;
  readonly displayName: string;
  readonly subscriptions: readonly SubscriptionPlan[];
  readonly principals: readonly PrincipalPlan[];
}

// The first tenant's first principal is the demo tenant's connection: it must read and write.
const tenantPlans: readonly TenantPlan[] = [
  {
    label: 'contoso',
    displayName: 'Contoso',
    subscriptions: [
      {
        label: 'contoso-production',
        displayName: 'Contoso Production',
        environment: 'prod',
        regionNames: ['eastus', 'westus2'],
        share: 0.5,
        applications: ['shop', 'checkout', 'catalog', 'identity', 'search', 'reporting'],
      },
      {
        label: 'contoso-development',
        displayName: 'Contoso Development',
        environment: 'dev',
        regionNames: ['eastus'],
        share: 0.2,
        applications: ['shop', 'checkout', 'catalog', 'tools'],
      },
    ],
    principals: [
      { label: 'cloudtrim', displayName: 'cloudtrim-contoso', canRead: true, canWrite: true },
      { label: 'no-access', displayName: 'contoso-no-access', canRead: false, canWrite: false },
      {
        label: 'no-costs',
        displayName: 'contoso-no-costs',
        canRead: true,
        canWrite: true,
        canReadCosts: false,
      },
    ],
  },
  {
    label: 'fabrikam',
    displayName: 'Fabrikam',
    subscriptions: [
      {
        label: 'fabrikam-production',
        displayName: 'Fabrikam Production',
        environment: 'prod',
        regionNames: ['westeurope', 'northeurope'],
        share: 0.3,
        applications: ['erp', 'logistics', 'billing', 'portal', 'analytics'],
      },
    ],
    principals: [
      { label: 'cloudtrim', displayName: 'cloudtrim-fabrikam', canRead: true, canWrite: true },
      { label: 'reader', displayName: 'fabrikam-reader', canRead: true, canWrite: false },
    ],
  },
];

interface RolePlan {
  readonly name: string;
  readonly weight: number;
  readonly sizes: readonly string[];
  readonly workloads: Readonly<Partial<Record<WorkloadKind, number>>>;
}

const rolePlans: readonly RolePlan[] = [
  {
    name: 'web',
    weight: 4,
    sizes: ['Standard_B2ms', 'Standard_B4ms', 'Standard_D2s_v5', 'Standard_D4s_v5', 'Standard_D8s_v5'],
    workloads: { businessHours: 4, steady: 3, spiky: 2, growing: 1, idle: 1 },
  },
  {
    name: 'api',
    weight: 3,
    sizes: ['Standard_D4s_v5', 'Standard_D8s_v5', 'Standard_F4s_v2', 'Standard_F8s_v2', 'Standard_D16s_v5'],
    workloads: { steady: 3, businessHours: 3, spiky: 2, growing: 2 },
  },
  {
    name: 'app',
    weight: 3,
    sizes: ['Standard_B4ms', 'Standard_D4s_v5', 'Standard_E4s_v5', 'Standard_D8s_v5'],
    workloads: { businessHours: 3, steady: 3, idle: 2, spiky: 1, growing: 1 },
  },
  {
    name: 'worker',
    weight: 2,
    sizes: ['Standard_F4s_v2', 'Standard_F8s_v2', 'Standard_F16s_v2', 'Standard_D8s_v5'],
    workloads: { steady: 3, spiky: 3, weeklyBatch: 2, idle: 1 },
  },
  {
    name: 'sql',
    weight: 1.5,
    sizes: ['Standard_E4s_v5', 'Standard_E8s_v5', 'Standard_E16s_v5', 'Standard_E32s_v5'],
    workloads: { steady: 4, businessHours: 3, growing: 2 },
  },
  {
    name: 'cache',
    weight: 1,
    sizes: ['Standard_E2s_v5', 'Standard_E4s_v5', 'Standard_E8s_v5'],
    workloads: { steady: 5, growing: 2, idle: 1 },
  },
  {
    name: 'batch',
    weight: 1,
    sizes: ['Standard_F16s_v2', 'Standard_F32s_v2', 'Standard_D16s_v5', 'Standard_E8s_v5'],
    workloads: { weeklyBatch: 6, idle: 2, spiky: 1 },
  },
  {
    name: 'etl',
    weight: 1,
    sizes: ['Standard_D8s_v5', 'Standard_E8s_v5', 'Standard_F16s_v2'],
    workloads: { weeklyBatch: 4, steady: 2, growing: 2 },
  },
  {
    name: 'build',
    weight: 1,
    sizes: ['Standard_F8s_v2', 'Standard_D16s_v5', 'Standard_F16s_v2'],
    workloads: { businessHours: 4, spiky: 3, idle: 2 },
  },
  {
    name: 'jump',
    weight: 0.5,
    sizes: ['Standard_B1ms', 'Standard_B2s', 'Standard_B2ms'],
    workloads: { idle: 6, businessHours: 2 },
  },
];

const appServicePlanSkus: readonly AppServicePlanSku[] = [
  {
    name: 'P1v3',
    tier: 'PremiumV3',
    size: 'P1v3',
    family: 'Pv3',
    capacity: 1,
    vcpusPerWorker: 2,
    memoryGiBPerWorker: 8,
  },
  {
    name: 'P2v3',
    tier: 'PremiumV3',
    size: 'P2v3',
    family: 'Pv3',
    capacity: 1,
    vcpusPerWorker: 4,
    memoryGiBPerWorker: 16,
  },
  {
    name: 'P1v2',
    tier: 'PremiumV2',
    size: 'P1v2',
    family: 'Pv2',
    capacity: 1,
    vcpusPerWorker: 1,
    memoryGiBPerWorker: 3.5,
  },
  {
    name: 'S1',
    tier: 'Standard',
    size: 'S1',
    family: 'S',
    capacity: 1,
    vcpusPerWorker: 1,
    memoryGiBPerWorker: 1.75,
  },
  {
    name: 'B2',
    tier: 'Basic',
    size: 'B2',
    family: 'B',
    capacity: 1,
    vcpusPerWorker: 2,
    memoryGiBPerWorker: 3.5,
  },
];

const sqlDatabaseSkus: readonly SqlDatabaseSku[] = [
  'GP_Gen5_2',
  'GP_Gen5_4',
  'GP_Gen5_8',
  'BC_Gen5_4',
  'S3',
  'S2',
  'P2',
  'Basic',
].map((name) => {
  const objective = findDatabaseObjective(name);
  if (!objective) throw new Error(`Unknown service objective ${name}`);
  return describeObjectiveSku(objective);
});

// Who pays: the team by role, the cost centre by application, so tag groupings mean something.
const teamsByRole: Readonly<Record<string, string>> = {
  web: 'web-platform',
  api: 'web-platform',
  app: 'product',
  worker: 'data',
  batch: 'data',
  etl: 'data',
  sql: 'data-platform',
  cache: 'data-platform',
  build: 'devops',
  jump: 'devops',
};

function describeCostCenter(application: string): string {
  return `CC-${1000 + (hashText(`costcenter:${application}`) % 900)}`;
}

// Stopped from inside the guest and forgotten: still billed, as about 2-3% of a real fleet is.
const stoppedShare = 0.025;

const secretAlphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789~._-';
const hexAlphabet = '0123456789abcdef';
const creationWindowStartMs = Date.UTC(2023, 0, 1);
const creationWindowMs = Date.UTC(2024, 11, 31) - creationWindowStartMs;

function pickWeighted<Item>(random: () => number, entries: readonly (readonly [Item, number])[]): Item {
  const total = entries.reduce((sum, [, weight]) => sum + weight, 0);
  let remaining = random() * total;
  for (const [item, weight] of entries) {
    remaining -= weight;
    if (remaining < 0) return item;
  }
  const last = entries[entries.length - 1];
  if (!last) throw new Error('Cannot pick from an empty list.');
  return last[0];
}

function pickOne<Item>(random: () => number, items: readonly Item[]): Item {
  const item = items[Math.floor(random() * items.length)];
  if (item === undefined) throw new Error('Cannot pick from an empty list.');
  return item;
}

function requireRegion(name: string): RegionDefinition {
  const region = findRegion(name);
  if (!region) throw new Error(`Unknown region ${name}`);
  return region;
}

function splitFleet(fleetSize: number, shares: readonly number[]): number[] {
  const counts = shares.map((share) => Math.floor(fleetSize * share));
  let missing = fleetSize - counts.reduce((sum, count) => sum + count, 0);
  for (let index = 0; missing > 0; index = (index + 1) % counts.length, missing -= 1) {
    counts[index] = (counts[index] ?? 0) + 1;
  }
  return counts;
}

interface GenerationState {
  readonly seed: number;
  readonly seedKey: number;
  readonly resourceGroups: Map<string, ResourceGroupRecord>;
  readonly virtualMachines: VirtualMachineRecord[];
  readonly appServicePlans: AppServicePlanRecord[];
  readonly sqlServers: SqlServerRecord[];
  readonly sqlDatabases: SqlDatabaseRecord[];
  readonly managedDisks: ManagedDiskRecord[];
  readonly publicIpAddresses: PublicIpAddressRecord[];
  readonly webSites: WebSiteRecord[];
  readonly nowMs: number;
}

function ensureResourceGroup(
  state: GenerationState,
  subscription: SubscriptionRecord,
  application: string,
  region: RegionDefinition,
): ResourceGroupRecord {
  const name = `rg-${application}-${subscription.environment}-${region.shortName}`;
  const id = `/subscriptions/${subscription.subscriptionId}/resourceGroups/${name}`;
  const existing = state.resourceGroups.get(id);
  if (existing) return existing;
  const group: ResourceGroupRecord = {
    id,
    name,
    subscriptionId: subscription.subscriptionId,
    location: region.name,
    tags: { application, environment: subscription.environment },
  };
  state.resourceGroups.set(id, group);
  return group;
}

function drawCreatedMs(random: () => number): number {
  return creationWindowStartMs + Math.floor((random() * creationWindowMs) / 1000) * 1000;
}

function generateVirtualMachines(
  state: GenerationState,
  subscription: SubscriptionRecord,
  plan: SubscriptionPlan,
  count: number,
  firstGlobalIndex: number,
): void {
  const random = createSeededRandom(state.seed, `vms:${plan.label}`);
  const counters = new Map<string, number>();
  const roleEntries = rolePlans.map((role) => [role, role.weight] as const);
  for (let index = 0; index < count; index += 1) {
    const globalIndex = firstGlobalIndex + index;
    const role = pickWeighted(random, roleEntries);
    const region = requireRegion(
      plan.regionNames.length > 1 && random() < 0.35
        ? (plan.regionNames[1] ?? '')
        : (plan.regionNames[0] ?? ''),
    );
    const application = pickOne(random, plan.applications);
    const group = ensureResourceGroup(state, subscription, application, region);
    const counterKey = `${role.name}-${region.shortName}`;
    const number = (counters.get(counterKey) ?? 0) + 1;
    counters.set(counterKey, number);
    const name = `${role.name}-${plan.environment}-${region.shortName}-${String(number).padStart(3, '0')}`;
    const offeredSizes = role.sizes.filter((size) => isSizeOfferedInRegion(size, region.name));
    const size = findVirtualMachineSize(pickOne(random, offeredSizes));
    if (!size) throw new Error(`Unknown size for role ${role.name}`);
    // The first machines of the fleet show every workload kind, so even a small demo fleet does.
    let kind: WorkloadKind =
      globalIndex < workloadKinds.length
        ? (workloadKinds[globalIndex] ?? 'steady')
        : pickWeighted(random, Object.entries(role.workloads) as [WorkloadKind, number][]);
    if (plan.environment === 'dev' && globalIndex >= workloadKinds.length && random() < 0.35) kind = 'idle';
    const workload = createWorkloadProfile(
      kind,
      { vcpus: size.vcpus, memoryGiB: size.memoryGiB, utcOffsetHours: region.utcOffsetHours },
      random,
    );
    const stateDraw = random();
    const deallocatedShare = plan.environment === 'dev' ? 0.12 : 0.03;
    const initialPowerState: PowerState =
      globalIndex < workloadKinds.length || stateDraw >= deallocatedShare + stoppedShare
        ? 'running'
        : stateDraw < deallocatedShare
          ? 'deallocated'
          : 'stopped';
    const id = `${group.id}/providers/Microsoft.Compute/virtualMachines/${name}`;
    state.virtualMachines.push({
      type: 'Microsoft.Compute/virtualMachines',
      id,
      name,
      subscriptionId: subscription.subscriptionId,
      resourceGroupName: group.name,
      location: region.name,
      tags: {
        application,
        environment: plan.environment,
        role: role.name,
        team: teamsByRole[role.name] ?? 'product',
        costcenter: describeCostCenter(application),
      },
      createdMs: drawCreatedMs(random),
      streamKey: mixHash(hashText(id.toLowerCase())),
      workload,
      imageSku: random() < 0.7 ? '22_04-lts-gen2' : '20_04-lts-gen2',
      sizeHistory: [{ fromMinute: Number.NEGATIVE_INFINITY, size }],
      powerHistory: [{ fromMinute: Number.NEGATIVE_INFINITY, state: initialPowerState }],
      pendingOperation: undefined,
    });
  }
}

function generatePlatformServices(
  state: GenerationState,
  subscription: SubscriptionRecord,
  plan: SubscriptionPlan,
  machineCount: number,
): void {
  const random = createSeededRandom(state.seed, `platform:${plan.label}`);
  const isFirstSubscription = plan === tenantPlans[0]?.subscriptions[0];
  const planCount = Math.min(12, Math.max(1, Math.round(machineCount / 20)));
  for (let index = 0; index < planCount; index += 1) {
    const application = plan.applications[index % plan.applications.length] ?? 'app';
    const region = requireRegion(plan.regionNames[index % plan.regionNames.length] ?? 'eastus');
    const group = ensureResourceGroup(state, subscription, application, region);
    const suffix =
      index >= plan.applications.length ? `-${Math.floor(index / plan.applications.length) + 1}` : '';
    const name = `asp-${application}-${plan.environment}-${region.shortName}${suffix}`;
    const skuTemplate = pickOne(random, appServicePlanSkus);
    const sku = {
      ...skuTemplate,
      capacity: 1 + Math.floor(random() * (plan.environment === 'prod' ? 4 : 2)),
    };
    const id = `${group.id}/providers/Microsoft.Web/serverfarms/${name}`;
    const drawnKind: WorkloadKind = pickWeighted(random, [
      ['businessHours', 3],
      ['steady', 3],
      ['idle', 2],
      ['growing', 1],
    ]);
    // The first subscription's first plan is barely used, so every fleet has one a smaller tier fits.
    const kind = isFirstSubscription && index === 0 ? 'idle' : drawnKind;
    const drawnWorkload = createWorkloadProfile(
      kind,
      {
        vcpus: sku.vcpusPerWorker * sku.capacity,
        memoryGiB: sku.memoryGiBPerWorker * sku.capacity,
        utcOffsetHours: region.utcOffsetHours,
      },
      random,
    );
    state.appServicePlans.push({
      type: 'Microsoft.Web/serverfarms',
      id,
      name,
      subscriptionId: subscription.subscriptionId,
      resourceGroupName: group.name,
      location: region.name,
      tags: {
        application,
        environment: plan.environment,
        team: 'product',
        costcenter: describeCostCenter(application),
      },
      createdMs: drawCreatedMs(random),
      streamKey: mixHash(hashText(id.toLowerCase())),
      // An idle plan's apps hold little memory too: half its tier's would do.
      workload:
        kind === 'idle'
          ? { ...drawnWorkload, memoryBaseLevel: drawnWorkload.memoryBaseLevel * 0.5 }
          : drawnWorkload,
      kind: random() < 0.7 ? 'linux' : 'app',
      sku,
      skuHistory: [{ fromMinute: Number.NEGATIVE_INFINITY, sku }],
      numberOfSites: 1 + Math.floor(random() * 5),
      deletedMs: undefined,
    });
  }

  const serverCount = machineCount > 400 ? 2 : 1;
  for (let serverIndex = 0; serverIndex < serverCount; serverIndex += 1) {
    const application = plan.applications[serverIndex % plan.applications.length] ?? 'data';
    const region = requireRegion(plan.regionNames[0] ?? 'eastus');
    const group = ensureResourceGroup(state, subscription, application, region);
    const serverName = `sql-${application}-${plan.environment}-${region.shortName}-${deriveToken(state.seed, `sql:${plan.label}:${serverIndex}`, 4, hexAlphabet)}`;
    const serverId = `${group.id}/providers/Microsoft.Sql/servers/${serverName}`;
    state.sqlServers.push({
      type: 'Microsoft.Sql/servers',
      id: serverId,
      name: serverName,
      subscriptionId: subscription.subscriptionId,
      resourceGroupName: group.name,
      location: region.name,
      tags: { application, environment: plan.environment },
      createdMs: drawCreatedMs(random),
      administratorLogin: 'sqladmin',
    });
    const databaseNames = [`${application}db`, `${application}-reporting`, `${application}-audit`].slice(
      0,
      2 + Math.floor(random() * 2),
    );
    for (const databaseName of databaseNames) {
      const sku = pickOne(random, sqlDatabaseSkus);
      const id = `${serverId}/databases/${databaseName}`;
      const vcores = sku.family ? sku.capacity : sku.capacity / 25;
      const objectiveMaxBytes = findDatabaseObjective(sku.serviceObjective)?.maxSizeBytes ?? 1024 ** 4;
      const maxSizeBytes = Math.min(
        objectiveMaxBytes,
        (sku.family ? 32 : 250) * 1024 ** 3 * (1 + Math.floor(random() * 4)),
      );
      state.sqlDatabases.push({
        type: 'Microsoft.Sql/servers/databases',
        id,
        name: databaseName,
        serverName,
        subscriptionId: subscription.subscriptionId,
        resourceGroupName: group.name,
        location: region.name,
        tags: {
          application,
          environment: plan.environment,
          team: 'data-platform',
          costcenter: describeCostCenter(application),
        },
        createdMs: drawCreatedMs(random),
        streamKey: mixHash(hashText(id.toLowerCase())),
        workload: createWorkloadProfile(
          pickWeighted(random, [
            ['businessHours', 3],
            ['steady', 3],
            ['idle', 2],
            ['weeklyBatch', 1],
            ['growing', 1],
          ]),
          { vcpus: vcores, memoryGiB: vcores * 5.1, utcOffsetHours: region.utcOffsetHours },
          random,
        ),
        databaseId: deriveGuid(state.seed, `database-id:${id}`),
        sku,
        skuHistory: [{ fromMinute: Number.NEGATIVE_INFINITY, sku }],
        pendingSku: undefined,
        maxSizeBytes,
        usedSizeBytes: Math.round(maxSizeBytes * (0.1 + random() * 0.7)),
      });
    }
  }
}

// Of the fleet's VM count: disks left behind by deleted VMs and detached volumes, public IPs left
// over; a few percent of a real estate's disks and IPs, as cost reviews find them.
const unattachedDisksPerMachine = 0.06;
const idlePublicIpsPerMachine = 0.015;
// Empty App Service plans: about one in ten.
const emptyPlanShare = 0.08;
// Public IPs by role: jump boxes and web front ends have one, a few others too.
const publicIpShareByRole: Readonly<Record<string, number>> = { jump: 1, web: 0.5 };
const otherRolePublicIpShare = 0.05;

function describeDiskGroupId(machine: VirtualMachineRecord): string {
  return machine.id.slice(0, machine.id.toLowerCase().indexOf('/providers/'));
}

type DiskPlacement = Pick<
  ManagedDiskRecord,
  | 'subscriptionId'
  | 'resourceGroupName'
  | 'location'
  | 'tags'
  | 'createdMs'
  | 'machine'
  | 'lastOwnershipUpdateMs'
>;

// Built field by field (no spreads): a 10,000-VM fleet makes some 22,000 of these.
function createDisk(
  placement: DiskPlacement,
  groupId: string,
  name: string,
  sizeGiB: number,
  osType: ManagedDiskRecord['osType'],
  sku: DiskSkuName,
): ManagedDiskRecord {
  const id = `${groupId}/providers/Microsoft.Compute/disks/${name}`;
  return {
    type: 'Microsoft.Compute/disks',
    id,
    name,
    subscriptionId: placement.subscriptionId,
    resourceGroupName: placement.resourceGroupName,
    location: placement.location,
    tags: placement.tags,
    createdMs: placement.createdMs,
    streamKey: mixHash(hashText(id.toLowerCase())),
    sizeGiB,
    osType,
    sku,
    skuHistory: [{ fromMinute: Number.NEGATIVE_INFINITY, sku }],
    machine: placement.machine,
    lastOwnershipUpdateMs: placement.lastOwnershipUpdateMs,
    deletedMs: undefined,
  };
}

/** Every VM's OS and data disks as disks of their own, then the unattached ones a real estate has. */
function generateDisks(
  state: GenerationState,
  subscription: SubscriptionRecord,
  plan: SubscriptionPlan,
  machines: readonly VirtualMachineRecord[],
): void {
  for (const machine of machines) {
    const hardware = readMachineHardware(machine);
    const groupId = describeDiskGroupId(machine);
    const osDiskName = nameOsDisk(state.seed, machine.name, machine.id);
    const placement: DiskPlacement = {
      subscriptionId: machine.subscriptionId,
      resourceGroupName: machine.resourceGroupName,
      location: machine.location,
      tags: machine.tags,
      createdMs: machine.createdMs,
      machine,
      lastOwnershipUpdateMs: machine.createdMs,
    };
    state.managedDisks.push(
      createDisk(
        placement,
        groupId,
        osDiskName,
        hardware.osType === 'Windows' ? 127 : 30,
        hardware.osType,
        hardware.osDiskType,
      ),
    );
    for (let lun = 0; lun < hardware.dataDiskTypes.length; lun += 1) {
      const sku = hardware.dataDiskTypes[lun] ?? hardware.osDiskType;
      state.managedDisks.push(
        createDisk(placement, groupId, `${machine.name}-data-${lun}`, 256, undefined, sku),
      );
    }
  }
  const random = createSeededRandom(state.seed, `disks:${plan.label}`);
  const count =
    machines.length === 0 ? 0 : Math.max(1, Math.round(machines.length * unattachedDisksPerMachine));
  for (let index = 0; index < count; index += 1) {
    const application = pickOne(random, plan.applications);
    const region = requireRegion(pickOne(random, plan.regionNames));
    const group = ensureResourceGroup(state, subscription, application, region);
    // The first is always old enough to delete, the second always AKS's: every fleet shows both.
    const ageDraw = random();
    const daysAgo =
      index === 0 || ageDraw >= 0.2 ? 8 + Math.floor(random() * 170) : 1 + Math.floor(random() * 5);
    const detachedMs = state.nowMs - daysAgo * dayMs - Math.floor(random() * dayMs);
    const kindDraw = random();
    const tags = {
      application,
      environment: plan.environment,
      team: 'product',
      costcenter: describeCostCenter(application),
    };
    const base = {
      subscriptionId: subscription.subscriptionId,
      resourceGroupName: group.name,
      location: region.name,
      createdMs: Math.min(detachedMs, drawCreatedMs(random)),
      machine: undefined,
      lastOwnershipUpdateMs: Math.floor(detachedMs / 1000) * 1000,
    };
    if (index % 4 === 1) {
      const volumeName = `pvc-${deriveGuid(state.seed, `pvc:${plan.label}:${index}`)}`;
      state.managedDisks.push(
        createDisk(
          {
            ...base,
            tags: {
              ...tags,
              'k8s-azure-created-by': 'kubernetes-azure-dd',
              'kubernetes.io-created-for-pv-name': volumeName,
              'kubernetes.io-created-for-pvc-name': `data-${application}-${index % 3}`,
              'kubernetes.io-created-for-pvc-namespace': application,
            },
          },
          group.id,
          volumeName,
          pickOne(random, [32, 64, 128, 256]),
          undefined,
          random() < 0.5 ? 'Premium_LRS' : 'StandardSSD_LRS',
        ),
      );
      continue;
    }
    const sku: DiskSkuName =
      kindDraw < 0.5 ? 'Premium_LRS' : kindDraw < 0.85 ? 'StandardSSD_LRS' : 'Standard_LRS';
    if (random() < 0.4) {
      // The OS disk of a VM deleted without its disk.
      const machineName = `${pickOne(random, rolePlans).name}-${plan.environment}-${region.shortName}-${String(900 + index).padStart(3, '0')}`;
      const name = nameOsDisk(state.seed, machineName, `${group.id}/${machineName}`);
      const osType = random() < 0.2 ? 'Windows' : 'Linux';
      state.managedDisks.push(
        createDisk(
          { ...base, tags },
          group.id,
          name,
          osType === 'Windows' ? 127 : 30,
          osType,
          sku === 'Standard_LRS' ? 'StandardSSD_LRS' : sku,
        ),
      );
      continue;
    }
    const name = `disk-${application}-${plan.environment}-${region.shortName}-${String(index + 1).padStart(2, '0')}`;
    state.managedDisks.push(
      createDisk(
        { ...base, tags },
        group.id,
        name,
        pickOne(random, [64, 128, 256, 512, 1024]),
        undefined,
        sku,
      ),
    );
  }
}

function drawIpAddress(state: GenerationState, key: string, isEurope: boolean): string {
  const hash = hashText(`${state.seed}:ip:${key}`);
  const first = isEurope ? 51 : 20;
  return `${first}.${(hash >>> 16) & 0xff}.${(hash >>> 8) & 0xff}.${1 + ((hash & 0xff) % 254)}`;
}

// Some days before the clock's start, the first subscription's last running VM was shut down from
// inside its guest (no Activity Log entry; Monitor's CPU stops at that minute): every fleet shows a
// VM stopped but still billed, dated by its last CPU minute.
const guestStopDaysAgo = 3;

function stopOneFromItsGuest(state: GenerationState, machines: readonly VirtualMachineRecord[]): void {
  const machine = machines
    .slice(workloadKinds.length)
    .findLast(
      (candidate) => candidate.powerHistory.length === 1 && candidate.powerHistory[0]?.state === 'running',
    );
  if (!machine) return;
  const stoppedMs = state.nowMs - guestStopDaysAgo * dayMs - 5 * hourMs;
  machine.powerHistory.push({
    fromMinute: Math.floor(stoppedMs / 60_000),
    state: 'stopped',
    origin: 'guest',
  });
}

/** Public IPs: on jump boxes, web front ends and a few others (on their NIC), and a few left idle. */
function generatePublicIpAddresses(
  state: GenerationState,
  subscription: SubscriptionRecord,
  plan: SubscriptionPlan,
  machines: readonly VirtualMachineRecord[],
): void {
  const createAddress = (
    fields: Omit<PublicIpAddressRecord, 'type' | 'streamKey' | 'deletedMs' | 'ipAddress'>,
  ): PublicIpAddressRecord => ({
    type: 'Microsoft.Network/publicIPAddresses',
    ...fields,
    ipAddress:
      fields.allocationMethod === 'Dynamic' && !fields.ipConfigurationId
        ? ''
        : drawIpAddress(state, fields.id.toLowerCase(), fields.location.endsWith('europe')),
    streamKey: mixHash(hashText(fields.id.toLowerCase())),
    deletedMs: undefined,
  });
  for (const machine of machines) {
    const draw = (stream: number) => hashToUnit(state.seedKey, machine.streamKey, stream);
    const role = machine.tags.role ?? '';
    if (draw(0x1b) >= (publicIpShareByRole[role] ?? otherRolePublicIpShare)) continue;
    const groupId = describeDiskGroupId(machine);
    const name = `${machine.name}-ip`;
    const sku: PublicIpSkuName = draw(0x1c) < 0.85 ? 'Standard' : 'Basic';
    state.publicIpAddresses.push(
      createAddress({
        id: `${groupId}/providers/Microsoft.Network/publicIPAddresses/${name}`,
        name,
        subscriptionId: machine.subscriptionId,
        resourceGroupName: machine.resourceGroupName,
        location: machine.location,
        tags: machine.tags,
        createdMs: machine.createdMs,
        sku,
        allocationMethod: sku === 'Standard' || draw(0x1d) < 0.5 ? 'Static' : 'Dynamic',
        ipConfigurationId: `${groupId}/providers/Microsoft.Network/networkInterfaces/${machine.name}-nic/ipConfigurations/ipconfig1`,
      }),
    );
  }
  const random = createSeededRandom(state.seed, `public-ips:${plan.label}`);
  const count =
    machines.length === 0 ? 0 : Math.max(1, Math.round(machines.length * idlePublicIpsPerMachine));
  for (let index = 0; index < count; index += 1) {
    const application = pickOne(random, plan.applications);
    const region = requireRegion(pickOne(random, plan.regionNames));
    const group = ensureResourceGroup(state, subscription, application, region);
    const name = `pip-${application}-${plan.environment}-${region.shortName}-${String(index + 1).padStart(2, '0')}`;
    const id = `${group.id}/providers/Microsoft.Network/publicIPAddresses/${name}`;
    // Detached from its NIC some days ago: the first within the Activity Log's 90 days (so a tenant
    // connected today is told of it at once), the others any time in the last 200 days.
    const detachDraw = hashToUnit(state.seedKey, mixHash(hashText(id.toLowerCase())), 0x2f);
    const detachedDaysAgo = index === 0 ? 9 + Math.floor(detachDraw * 30) : 3 + Math.floor(detachDraw * 200);
    // The first is Standard, billed by the hour: every fleet has one worth deleting.
    const sku: PublicIpSkuName = index === 0 || random() < 0.75 ? 'Standard' : 'Basic';
    state.publicIpAddresses.push(
      createAddress({
        id,
        name,
        subscriptionId: subscription.subscriptionId,
        resourceGroupName: group.name,
        location: region.name,
        tags: {
          application,
          environment: plan.environment,
          team: 'product',
          costcenter: describeCostCenter(application),
        },
        createdMs: drawCreatedMs(random),
        sku,
        allocationMethod: sku === 'Standard' ? 'Static' : 'Dynamic',
        ipConfigurationId: undefined,
        unassociatedSinceMs: Math.floor((state.nowMs - detachedDaysAgo * dayMs) / 1000) * 1000,
      }),
    );
  }
}

/** The apps of each plan (Microsoft.Web/sites); about one plan in ten has none left. */
function generateWebSites(
  state: GenerationState,
  plans: readonly AppServicePlanRecord[],
  isFirstSubscription: boolean,
): void {
  plans.forEach((plan, index) => {
    // The first subscription's second plan is empty, so every fleet with two plans shows one.
    const isEmpty =
      (isFirstSubscription && index === 1) ||
      hashToUnit(state.seedKey, plan.streamKey, 0x5e) < emptyPlanShare;
    if (isEmpty) plan.numberOfSites = 0;
    const groupId = plan.id.slice(0, plan.id.toLowerCase().indexOf('/providers/'));
    for (let number = 1; number <= plan.numberOfSites; number += 1) {
      const name = `${plan.name.replace(/^asp-/, 'app-')}-${number}`;
      state.webSites.push({
        type: 'Microsoft.Web/sites',
        id: `${groupId}/providers/Microsoft.Web/sites/${name}`,
        name,
        subscriptionId: plan.subscriptionId,
        resourceGroupName: plan.resourceGroupName,
        location: plan.location,
        tags: plan.tags,
        createdMs: plan.createdMs,
        kind: plan.kind === 'linux' ? 'app,linux' : 'app',
        plan,
      });
    }
  });
}

/** Builds the whole estate from a seed: the same seed always gives the same fleet, ids included. */
export function generateFleet(options: FleetGenerationOptions): Fleet {
  const seed = Math.trunc(options.seed);
  const fleetSize = Math.max(0, Math.trunc(options.fleetSize));
  const state: GenerationState = {
    seed,
    seedKey: mixHash(hashText(`seed:${seed}`)),
    resourceGroups: new Map(),
    virtualMachines: [],
    appServicePlans: [],
    sqlServers: [],
    sqlDatabases: [],
    managedDisks: [],
    publicIpAddresses: [],
    webSites: [],
    nowMs: options.nowMs ?? Math.floor(Date.now() / dayMs) * dayMs,
  };
  const plannedTenants = planTenants(options.tenantCount ?? tenantPlans.length);
  const subscriptionPlans = plannedTenants.flatMap((tenant) => tenant.subscriptions);
  const machineCounts = splitFleet(
    fleetSize,
    subscriptionPlans.map((plan) => plan.share),
  );
  let globalIndex = 0;
  let planIndex = 0;
  const tenants: TenantRecord[] = plannedTenants.map((tenantPlan) => {
    const tenantId = deriveGuid(seed, `tenant:${tenantPlan.label}`);
    const subscriptions: SubscriptionRecord[] = tenantPlan.subscriptions.map((plan) => {
      const subscription: SubscriptionRecord = {
        subscriptionId: deriveGuid(seed, `subscription:${plan.label}`),
        displayName: plan.displayName,
        tenantId,
        environment: plan.environment,
        regionNames: plan.regionNames,
      };
      const count = machineCounts[planIndex] ?? 0;
      planIndex += 1;
      const firstMachine = state.virtualMachines.length;
      const firstPlan = state.appServicePlans.length;
      generateVirtualMachines(state, subscription, plan, count, globalIndex);
      generatePlatformServices(state, subscription, plan, count);
      const machines = state.virtualMachines.slice(firstMachine);
      if (firstMachine === 0) stopOneFromItsGuest(state, machines);
      generateDisks(state, subscription, plan, machines);
      generatePublicIpAddresses(state, subscription, plan, machines);
      generateWebSites(state, state.appServicePlans.slice(firstPlan), firstPlan === 0);
      globalIndex += count;
      return subscription;
    });
    const subscriptionIds = subscriptions.map((subscription) => subscription.subscriptionId);
    const principals: PrincipalRecord[] = tenantPlan.principals.map((principal) => {
      const label = `${tenantPlan.label}:${principal.label}`;
      const secretBody = deriveToken(seed, `secret:${label}`, 37, secretAlphabet);
      return {
        applicationId: deriveGuid(seed, `application:${label}`),
        objectId: deriveGuid(seed, `principal-object:${label}`),
        secret: `${secretBody.slice(0, 3)}8Q~${secretBody.slice(3)}`,
        displayName: principal.displayName,
        tenantId,
        readSubscriptionIds: principal.canRead ? subscriptionIds : [],
        writeSubscriptionIds: principal.canWrite ? subscriptionIds : [],
        canReadCosts: principal.canRead && (principal.canReadCosts ?? true),
      };
    });
    return {
      tenantId,
      displayName: tenantPlan.displayName,
      defaultDomain: `${tenantPlan.label}.onmicrosoft.com`,
      subscriptions,
      principals,
    };
  });
  return new Fleet({
    seed,
    seedKey: state.seedKey,
    tenants,
    resourceGroups: [...state.resourceGroups.values()],
    virtualMachines: state.virtualMachines,
    appServicePlans: state.appServicePlans,
    sqlServers: state.sqlServers,
    sqlDatabases: state.sqlDatabases,
    managedDisks: state.managedDisks,
    publicIpAddresses: state.publicIpAddresses,
    webSites: state.webSites,
  });
}

const scaleRegionNames = ['eastus', 'westus2', 'westeurope', 'northeurope'];

// The named tenants, then numbered ones up to `tenantCount`, each fleet share equal (the named two
// keep their proportions between them within two shares).
function planTenants(tenantCount: number): readonly TenantPlan[] {
  if (tenantCount <= tenantPlans.length) return tenantPlans;
  const shareScale = tenantPlans.length / tenantCount;
  const named = tenantPlans.map((tenant) => ({
    ...tenant,
    subscriptions: tenant.subscriptions.map((plan) => ({ ...plan, share: plan.share * shareScale })),
  }));
  const numbered = Array.from({ length: tenantCount - tenantPlans.length }, (_, index): TenantPlan => {
    const label = `tenant-${String(index + tenantPlans.length + 1).padStart(4, '0')}`;
    return {
      label,
      displayName: `Tenant ${String(index + tenantPlans.length + 1).padStart(4, '0')}`,
      subscriptions: [
        {
          label: `${label}-production`,
          displayName: `${label} Production`,
          environment: 'prod',
          regionNames: [scaleRegionNames[index % scaleRegionNames.length]!],
          share: 1 / tenantCount,
          applications: ['shop', 'erp', 'portal', 'reporting'],
        },
      ],
      principals: [{ label: 'cloudtrim', displayName: `cloudtrim-${label}`, canRead: true, canWrite: true }],
    };
  });
  return [...named, ...numbered];
}
