import type { DatabaseObjective, DiskSkuName, PublicIpSkuName } from '../catalog/platform.catalog';
import type { VirtualMachineSize } from '../catalog/sku.catalog';
import { CreditBanks, findBurstableCredits, stepCreditMinute, type CreditMinute } from './credit-bank';
import { combineHash, deriveGuid, hashText } from './noise.hash';
import {
  computeCpuPercent,
  computeDemand,
  computeDemandInto,
  type Demand,
  type WorkloadKind,
  type WorkloadProfile,
} from './workload.model';

export type PowerState = 'running' | 'stopped' | 'deallocated';

export interface SizeChange {
  readonly fromMinute: number;
  readonly size: VirtualMachineSize;
}

export interface PowerChange {
  readonly fromMinute: number;
  readonly state: PowerState;
  /**
   * Who changed it: Resource Manager (start, powerOff, deallocate: written to the Activity Log) or
   * the guest itself (a shutdown from inside the VM: Azure logs no operation). Absent: the guest.
   */
  readonly origin?: 'api' | 'guest';
}

export interface SubscriptionRecord {
  readonly subscriptionId: string;
  readonly displayName: string;
  readonly tenantId: string;
  readonly environment: 'prod' | 'dev';
  readonly regionNames: readonly string[];
}

export interface PrincipalRecord {
  readonly applicationId: string;
  readonly objectId: string;
  readonly secret: string;
  readonly displayName: string;
  readonly tenantId: string;
  readonly readSubscriptionIds: readonly string[];
  readonly writeSubscriptionIds: readonly string[];
  /** Holds Microsoft.CostManagement read (and Consumption's) where it reads. */
  readonly canReadCosts: boolean;
}

export interface TenantRecord {
  readonly tenantId: string;
  readonly displayName: string;
  readonly defaultDomain: string;
  readonly subscriptions: readonly SubscriptionRecord[];
  readonly principals: readonly PrincipalRecord[];
}

export interface ResourceGroupRecord {
  readonly id: string;
  readonly name: string;
  readonly subscriptionId: string;
  readonly location: string;
  readonly tags: Readonly<Record<string, string>>;
}

interface ResourceBase {
  readonly id: string;
  readonly name: string;
  readonly subscriptionId: string;
  readonly resourceGroupName: string;
  readonly location: string;
  // Set anew by a write that changes them (the Tags API, a PUT or PATCH with tags).
  tags: Readonly<Record<string, string>>;
  readonly createdMs: number;
  /** Hash key of this resource's noise streams. */
  readonly streamKey: number;
  readonly workload: WorkloadProfile;
}

export interface PendingOperation {
  readonly kind: 'resize' | 'start' | 'deallocate' | 'powerOff' | 'restart';
  readonly completesAtMs: number;
}

export interface VirtualMachineRecord extends ResourceBase {
  readonly type: 'Microsoft.Compute/virtualMachines';
  /** Tags can be replaced through an update. */
  tags: Readonly<Record<string, string>>;
  readonly imageSku: string;
  readonly sizeHistory: SizeChange[];
  readonly powerHistory: PowerChange[];
  pendingOperation: PendingOperation | undefined;
}

export interface AppServicePlanSku {
  readonly name: string;
  readonly tier: string;
  readonly size: string;
  readonly family: string;
  readonly capacity: number;
  readonly vcpusPerWorker: number;
  readonly memoryGiBPerWorker: number;
}

/** A SKU from a minute on: disks, plans and databases keep their tier changes as a history. */
export interface SkuChange<Sku> {
  readonly fromMinute: number;
  readonly sku: Sku;
}

export interface AppServicePlanRecord extends ResourceBase {
  readonly type: 'Microsoft.Web/serverfarms';
  readonly kind: 'linux' | 'app';
  /** Tags can be replaced through an update. */
  tags: Readonly<Record<string, string>>;
  /** The SKU now; `skuHistory` says since when. */
  sku: AppServicePlanSku;
  readonly skuHistory: SkuChange<AppServicePlanSku>[];
  numberOfSites: number;
  /** Set by a completed DELETE; the record stays so the bill can end there. */
  deletedMs: number | undefined;
}

export interface WebSiteRecord extends Omit<ResourceBase, 'workload' | 'streamKey'> {
  readonly type: 'Microsoft.Web/sites';
  readonly kind: 'app' | 'app,linux';
  readonly plan: AppServicePlanRecord;
}

type OwnedResourceBase = Omit<ResourceBase, 'workload'>;

export interface ManagedDiskRecord extends OwnedResourceBase {
  readonly type: 'Microsoft.Compute/disks';
  /** Tags can be replaced through an update. */
  tags: Readonly<Record<string, string>>;
  readonly sizeGiB: number;
  readonly osType: 'Linux' | 'Windows' | undefined;
  /** The SKU now; `skuHistory` says since when (a tier change bills from its minute on). */
  sku: DiskSkuName;
  readonly skuHistory: SkuChange<DiskSkuName>[];
  /** The VM it is attached to (Azure's managedBy); undefined when unattached. */
  machine: VirtualMachineRecord | undefined;
  /** Azure's LastOwnershipUpdateTime: the last attach or detach. */
  lastOwnershipUpdateMs: number;
  deletedMs: number | undefined;
}

export interface SnapshotRecord extends OwnedResourceBase {
  readonly type: 'Microsoft.Compute/snapshots';
  tags: Readonly<Record<string, string>>;
  readonly sourceResourceId: string;
  readonly sourceUniqueId: string;
  readonly sizeGiB: number;
  /** An incremental snapshot bills the GiB it holds, not the disk's size. */
  readonly usedGiB: number;
  readonly osType: 'Linux' | 'Windows' | undefined;
  readonly isIncremental: boolean;
  deletedMs: number | undefined;
}

export interface PublicIpAddressRecord extends OwnedResourceBase {
  readonly type: 'Microsoft.Network/publicIPAddresses';
  readonly sku: PublicIpSkuName;
  readonly allocationMethod: 'Static' | 'Dynamic';
  readonly ipAddress: string;
  /** The NIC ipConfiguration it is associated with; undefined when idle. */
  readonly ipConfigurationId: string | undefined;
  /** An idle one: when the write that detached it was made (the Activity Log's event). */
  readonly unassociatedSinceMs?: number;
  deletedMs: number | undefined;
}

export interface SqlServerRecord extends Omit<ResourceBase, 'workload' | 'streamKey'> {
  readonly type: 'Microsoft.Sql/servers';
  readonly administratorLogin: string;
}

export interface SqlDatabaseSku {
  readonly name: string;
  readonly tier: string;
  readonly family: string | undefined;
  readonly capacity: number;
  readonly serviceObjective: string;
}

export interface SqlDatabaseRecord extends ResourceBase {
  readonly type: 'Microsoft.Sql/servers/databases';
  readonly serverName: string;
  readonly databaseId: string;
  /** The objective in force (`currentServiceObjectiveName`); `skuHistory` says since when. */
  sku: SqlDatabaseSku;
  readonly skuHistory: SkuChange<SqlDatabaseSku>[];
  /** A change of objective still running: Azure moves the current objective once it completes. */
  pendingSku: { readonly sku: SqlDatabaseSku; readonly completesAtMs: number } | undefined;
  maxSizeBytes: number;
  /** Bytes the data takes (the `storage` metric). */
  readonly usedSizeBytes: number;
}

export type FleetResource =
  | VirtualMachineRecord
  | AppServicePlanRecord
  | WebSiteRecord
  | SqlServerRecord
  | SqlDatabaseRecord
  | ManagedDiskRecord
  | SnapshotRecord
  | PublicIpAddressRecord;

export interface FleetContents {
  readonly seed: number;
  readonly seedKey: number;
  readonly tenants: readonly TenantRecord[];
  readonly resourceGroups: readonly ResourceGroupRecord[];
  readonly virtualMachines: readonly VirtualMachineRecord[];
  readonly appServicePlans: readonly AppServicePlanRecord[];
  readonly sqlServers: readonly SqlServerRecord[];
  readonly sqlDatabases: readonly SqlDatabaseRecord[];
  readonly managedDisks: readonly ManagedDiskRecord[];
  readonly publicIpAddresses: readonly PublicIpAddressRecord[];
  readonly webSites: readonly WebSiteRecord[];
}

/** What a backtest or a test may read about one virtual machine. */
export interface VirtualMachineSummary {
  readonly id: string;
  readonly name: string;
  readonly subscriptionId: string;
  readonly resourceGroupName: string;
  readonly location: string;
  readonly size: string;
  readonly powerState: PowerState;
  readonly workloadKind: WorkloadKind;
}

export class UnknownResourceError extends Error {
  constructor(resourceId: string) {
    super(`The fleet has no resource '${resourceId}'.`);
    this.name = 'UnknownResourceError';
  }
}

/** A database's sku as Resource Manager writes it, from a service objective of the catalogue. */
export function describeObjectiveSku(objective: DatabaseObjective): SqlDatabaseSku {
  return {
    name: objective.skuName,
    tier: objective.tier,
    family: objective.family,
    capacity: objective.capacity,
    serviceObjective: objective.name,
  };
}

/** An OS disk's name as Azure gives it when a VM is created: `{vm}_OsDisk_1_{32 hex}`. */
export function nameOsDisk(seed: number, machineName: string, machineId: string): string {
  // Hashed rather than digested: a 10,000-VM fleet names its OS disks at start.
  const key = hashText(`disk:${seed}:${machineId}`);
  let suffix = '';
  for (let part = 0; part < 4; part += 1) suffix += combineHash(key, part).toString(16).padStart(8, '0');
  return `${machineName}_OsDisk_1_${suffix}`;
}

export function convertToMinute(timeMs: number): number {
  return Math.floor(timeMs / 60000);
}

/** Finds the entry in force at `minute` in a history sorted by `fromMinute`. */
export function findHistoryEntry<Entry extends { readonly fromMinute: number }>(
  history: readonly Entry[],
  minute: number,
): Entry {
  let found = history[0];
  for (let index = 1; index < history.length; index += 1) {
    const entry = history[index];
    if (!entry || entry.fromMinute > minute) break;
    found = entry;
  }
  if (!found) throw new Error('A history always has its initial entry.');
  return found;
}

/**
 * The living estate: tenants, principals and resources generated from a seed, plus the changes
 * made through the API (sizes and power states, each kept as a history with change times).
 */
export class Fleet {
  readonly seed: number;
  readonly seedKey: number;
  readonly tenants: readonly TenantRecord[];
  readonly resourceGroups: readonly ResourceGroupRecord[];
  readonly virtualMachines: readonly VirtualMachineRecord[];
  readonly appServicePlans: readonly AppServicePlanRecord[];
  readonly sqlServers: readonly SqlServerRecord[];
  readonly sqlDatabases: readonly SqlDatabaseRecord[];
  /**
   * Disks, snapshots and public IPs, deleted ones included (with `deletedMs`) so the bill can end
   * them; Resource Manager lists only those still there.
   */
  readonly managedDisks: readonly ManagedDiskRecord[];
  readonly snapshots: readonly SnapshotRecord[] = [];
  readonly publicIpAddresses: readonly PublicIpAddressRecord[];
  readonly webSites: readonly WebSiteRecord[];
  private readonly resourcesByKey = new Map<string, FleetResource>();
  private readonly resourceGroupsByKey = new Map<string, ResourceGroupRecord>();
  private readonly subscriptionsById = new Map<string, SubscriptionRecord>();
  private readonly resourcesBySubscription = new Map<string, FleetResource[]>();
  private readonly demandScratch: Demand = { cpuCores: 0, memoryGiB: 0 };
  private readonly creditScratch: CreditMinute = { ranCores: 0, bank: 0, isThrottled: false };
  /** The CPU credit banks of VMs on B sizes. */
  readonly creditBanks: CreditBanks;

  constructor(contents: FleetContents) {
    this.seed = contents.seed;
    this.seedKey = contents.seedKey;
    this.tenants = contents.tenants;
    this.resourceGroups = contents.resourceGroups;
    this.virtualMachines = contents.virtualMachines;
    this.appServicePlans = contents.appServicePlans;
    this.sqlServers = contents.sqlServers;
    this.sqlDatabases = contents.sqlDatabases;
    this.managedDisks = contents.managedDisks;
    this.publicIpAddresses = contents.publicIpAddresses;
    this.webSites = contents.webSites;
    this.creditBanks = new CreditBanks(contents.seedKey);
    for (const tenant of this.tenants) {
      for (const subscription of tenant.subscriptions) {
        this.subscriptionsById.set(subscription.subscriptionId, subscription);
        this.resourcesBySubscription.set(subscription.subscriptionId, []);
      }
    }
    for (const group of this.resourceGroups) {
      this.resourceGroupsByKey.set(group.id.toLowerCase(), group);
    }
    const everyResource: FleetResource[] = [
      ...this.virtualMachines,
      ...this.appServicePlans,
      ...this.sqlServers,
      ...this.sqlDatabases,
      ...this.managedDisks,
      ...this.publicIpAddresses,
      ...this.webSites,
    ];
    // Listing order follows resource groups, as ARM returns resources grouped that way.
    const keyed = everyResource.map((resource) => ({ key: resource.id.toLowerCase(), resource }));
    keyed.sort((first, second) => compareText(first.key, second.key));
    for (const { key, resource } of keyed) {
      this.resourcesByKey.set(key, resource);
      this.resourcesBySubscription.get(resource.subscriptionId)?.push(resource);
    }
  }

  findSubscription(subscriptionId: string): SubscriptionRecord | undefined {
    return this.subscriptionsById.get(subscriptionId.toLowerCase());
  }

  findTenant(tenantIdOrDomain: string): TenantRecord | undefined {
    const wanted = tenantIdOrDomain.toLowerCase();
    return this.tenants.find((tenant) => tenant.tenantId === wanted || tenant.defaultDomain === wanted);
  }

  findPrincipal(tenantId: string, applicationId: string): PrincipalRecord | undefined {
    const tenant = this.findTenant(tenantId);
    const wanted = applicationId.toLowerCase();
    return tenant?.principals.find((principal) => principal.applicationId === wanted);
  }

  findResourceGroup(subscriptionId: string, name: string): ResourceGroupRecord | undefined {
    return this.resourceGroupsByKey.get(
      `/subscriptions/${subscriptionId}/resourcegroups/${name}`.toLowerCase(),
    );
  }

  listResourceGroups(subscriptionId: string): ResourceGroupRecord[] {
    const wanted = subscriptionId.toLowerCase();
    return this.resourceGroups.filter((group) => group.subscriptionId === wanted);
  }

  findResource(resourceId: string): FleetResource | undefined {
    return this.resourcesByKey.get(normalizeResourceId(resourceId));
  }

  findVirtualMachine(resourceId: string): VirtualMachineRecord | undefined {
    const resource = this.findResource(resourceId);
    return resource?.type === 'Microsoft.Compute/virtualMachines' ? resource : undefined;
  }

  /**
   * Removes a resource, as a completed DELETE does; false when there was none. Disks, snapshots,
   * public IPs and plans keep their record with the deletion time (`atMs`), where the bill ends.
   */
  deleteResource(resourceId: string, atMs?: number): boolean {
    const key = normalizeResourceId(resourceId);
    const resource = this.resourcesByKey.get(key);
    if (!resource) return false;
    this.resourcesByKey.delete(key);
    const listed = this.resourcesBySubscription.get(resource.subscriptionId);
    listed?.splice(listed.indexOf(resource), 1);
    if (resource.type === 'Microsoft.Compute/virtualMachines') {
      const machines = this.virtualMachines as VirtualMachineRecord[];
      machines.splice(machines.indexOf(resource), 1);
    } else if (
      resource.type === 'Microsoft.Compute/disks' ||
      resource.type === 'Microsoft.Compute/snapshots' ||
      resource.type === 'Microsoft.Network/publicIPAddresses' ||
      resource.type === 'Microsoft.Web/serverfarms'
    ) {
      resource.deletedMs = atMs ?? Date.now();
    }
    return true;
  }

  /** Adds a resource a PUT created, in listing order. */
  addResource(resource: FleetResource): void {
    const key = normalizeResourceId(resource.id);
    this.resourcesByKey.set(key, resource);
    const listed = this.resourcesBySubscription.get(resource.subscriptionId);
    if (listed) {
      let low = 0;
      let high = listed.length;
      while (low < high) {
        const middle = (low + high) >>> 1;
        if (normalizeResourceId(listed[middle]?.id ?? '') < key) low = middle + 1;
        else high = middle;
      }
      listed.splice(low, 0, resource);
    }
    if (resource.type === 'Microsoft.Compute/snapshots') (this.snapshots as SnapshotRecord[]).push(resource);
  }

  /** Resources of a subscription in listing order. */
  listResources(subscriptionId: string): readonly FleetResource[] {
    return this.resourcesBySubscription.get(subscriptionId.toLowerCase()) ?? [];
  }

  requireVirtualMachine(resourceId: string): VirtualMachineRecord {
    const machine = this.findVirtualMachine(resourceId);
    if (!machine) throw new UnknownResourceError(resourceId);
    return machine;
  }

  /** The VM's unique id; derived on demand so a large fleet stores no extra strings. */
  readVmId(machine: VirtualMachineRecord): string {
    return deriveGuid(this.seed, `vm-id:${machine.id}`);
  }

  readOsDiskName(machine: VirtualMachineRecord): string {
    return nameOsDisk(this.seed, machine.name, machine.id);
  }

  /** The true demand of a virtual machine at the minute holding `date`, past or future. */
  demandAt(resourceId: string, date: Date): Demand {
    const machine = this.requireVirtualMachine(resourceId);
    return computeDemand(machine.workload, this.seedKey, machine.streamKey, convertToMinute(date.getTime()));
  }

  /**
   * CPU use in percent of the size in force at `date` (capped at 100; on a B size, held to what its
   * credits allow), or undefined when not running.
   */
  cpuPercentAt(resourceId: string, date: Date): number | undefined {
    const machine = this.requireVirtualMachine(resourceId);
    const minute = convertToMinute(date.getTime());
    if (findHistoryEntry(machine.powerHistory, minute).state !== 'running') return undefined;
    const size = findHistoryEntry(machine.sizeHistory, minute).size;
    const demand = computeDemandInto(
      machine.workload,
      this.seedKey,
      machine.streamKey,
      minute,
      this.demandScratch,
    );
    const credits = findBurstableCredits(size);
    if (!credits) return computeCpuPercent(demand.cpuCores, size.vcpus);
    const bank = this.creditBanks.readBank(machine, minute);
    const step = stepCreditMinute(bank, demand.cpuCores, size, credits, this.creditScratch);
    return computeCpuPercent(step.ranCores, size.vcpus);
  }

  /**
   * A VM on a B size at `date`: its bank after that minute (CPU Credits Remaining) and what the
   * minute spent (CPU Credits Consumed: a credit per vCPU-minute run); undefined on other sizes or
   * when not running.
   */
  creditsAt(resourceId: string, date: Date): { remaining: number; consumed: number } | undefined {
    const machine = this.requireVirtualMachine(resourceId);
    const minute = convertToMinute(date.getTime());
    if (findHistoryEntry(machine.powerHistory, minute).state !== 'running') return undefined;
    const size = findHistoryEntry(machine.sizeHistory, minute).size;
    const credits = findBurstableCredits(size);
    if (!credits) return undefined;
    const demand = computeDemandInto(
      machine.workload,
      this.seedKey,
      machine.streamKey,
      minute,
      this.demandScratch,
    );
    const bank = this.creditBanks.readBank(machine, minute);
    const step = stepCreditMinute(bank, demand.cpuCores, size, credits, this.creditScratch);
    return { remaining: step.bank, consumed: step.ranCores };
  }

  sizeAt(resourceId: string, date: Date): string {
    return findHistoryEntry(
      this.requireVirtualMachine(resourceId).sizeHistory,
      convertToMinute(date.getTime()),
    ).size.name;
  }

  powerStateAt(resourceId: string, date: Date): PowerState {
    return findHistoryEntry(
      this.requireVirtualMachine(resourceId).powerHistory,
      convertToMinute(date.getTime()),
    ).state;
  }

  summarizeVirtualMachines(date: Date): VirtualMachineSummary[] {
    const minute = convertToMinute(date.getTime());
    return this.virtualMachines.map((machine) => ({
      id: machine.id,
      name: machine.name,
      subscriptionId: machine.subscriptionId,
      resourceGroupName: machine.resourceGroupName,
      location: machine.location,
      size: findHistoryEntry(machine.sizeHistory, minute).size.name,
      powerState: findHistoryEntry(machine.powerHistory, minute).state,
      workloadKind: machine.workload.kind,
    }));
  }

  /** Records a new size from the minute after `atMs`, so whole minutes keep one capacity. */
  recordResize(machine: VirtualMachineRecord, size: VirtualMachineSize, atMs: number): void {
    appendHistory(machine.sizeHistory, { fromMinute: Math.ceil(atMs / 60000), size });
  }

  recordPowerState(
    machine: VirtualMachineRecord,
    state: PowerState,
    atMs: number,
    origin: 'api' | 'guest' = 'guest',
  ): void {
    appendHistory(machine.powerHistory, { fromMinute: Math.ceil(atMs / 60000), state, origin });
  }
}

function appendHistory<Entry extends { readonly fromMinute: number }>(history: Entry[], entry: Entry): void {
  // A change replaces any later entries: a clock moved backwards in a test rewrites the future.
  while (history.length > 1 && (history[history.length - 1]?.fromMinute ?? 0) >= entry.fromMinute) {
    history.pop();
  }
  history.push(entry);
}

function compareText(first: string, second: string): number {
  if (first < second) return -1;
  return first > second ? 1 : 0;
}

/** The entry in force at `minute` of a SKU history (the latest entry for a change made this minute). */
export function findSkuAt<Sku>(history: readonly SkuChange<Sku>[], minute: number): Sku {
  return findHistoryEntry(history, minute).sku;
}

/** Records a new SKU from the minute after `atMs`, as sizes and power states count. */
export function recordSkuChange<Sku>(history: SkuChange<Sku>[], sku: Sku, atMs: number): void {
  appendHistory(history, { fromMinute: Math.ceil(atMs / 60000), sku });
}

export function normalizeResourceId(resourceId: string): string {
  const trimmed = resourceId.trim().replace(/\/+/g, '/').replace(/\/$/, '');
  return (trimmed.startsWith('/') ? trimmed : `/${trimmed}`).toLowerCase();
}
