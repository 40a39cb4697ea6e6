import type { CloudCallOptions, CloudProvider, CloudResource } from '../../cloud/cloud-provider';
import { isCloudError } from '../../cloud/cloud-provider';
import { inventorySyncJob, type CloudWorkQueue } from '../../queue/cloud-work';
import type { NewActivityEntry } from '../activity/activity.repository';
import { activityServiceNames, type ActivityService } from '../activity/activity.service';
import { listMetricCatalogs } from '../metrics/metric-catalog';
import type { TenantsService, TenantWork } from '../tenants/tenants.service';
import type { InventoryRepository, InventoryResource, UndatedState } from './inventory.repository';
import { categorizeResourceType } from './resource-category';

export interface SyncSummary {
  subscriptionCount: number;
  resourceCount: number;
  insertedCount: number;
  removedCount: number;
  failures: string[];
  /** What Azure listed, by lower-case subscription id, for the security scan that follows the sync. */
  resourcesBySubscription: Map<string, CloudResource[]>;
  /** No sync of the tenant had succeeded before this one (a tenant just connected). */
  isFirstSync: boolean;
}

const metricDefinitions = listMetricCatalogs().flatMap((catalog) =>
  catalog.metrics.map((metric) => ({
    type: catalog.type,
    name: metric.name,
    unit: metric.unit,
    skuPattern: metric.skuPattern,
  })),
);

const minuteMs = 60_000;
const hourMs = 60 * minuteMs;
const dayMs = 24 * hourMs;
// Azure keeps the Activity Log 90 days; Monitor's minutes are asked for over the month before.
const activityLogDays = 90;
const cpuLookbackDays = 30;
const datedPerSync = 50;
const cpuMetricName = 'Percentage CPU';

export class InventoryService {
  constructor(
    private readonly tenants: TenantsService,
    private readonly inventory: InventoryRepository,
    private readonly cloud: CloudProvider,
    private readonly activity: ActivityService,
    private readonly work: CloudWorkQueue,
    private readonly now: () => Date,
  ) {}

  async enqueueSyncForAllTenants(): Promise<void> {
    for (const tenantId of await this.tenants.listActiveTenantIds())
      await this.work.enqueueInventorySync(tenantId);
  }

  // Reads the tenant's subscriptions and resources into PostgreSQL. Azure failures end up in the
  // tenant's status and the activity log, not in an exception: the next scheduled sync tries again.
  // Undefined when there is nothing to sync (TenantsService.openForWork's rule) or the tenant was
  // deleted while its sync ran.
  async syncTenant(tenantId: string, options: CloudCallOptions = {}): Promise<SyncSummary | undefined> {
    const work = await this.tenants.openForWork(tenantId, inventorySyncJob.name);
    if (!work) return undefined;
    const { tenant } = work;
    const summary: SyncSummary = {
      subscriptionCount: 0,
      resourceCount: 0,
      insertedCount: 0,
      removedCount: 0,
      failures: [],
      resourcesBySubscription: new Map(),
      isFirstSync: tenant.lastSyncAt === null,
    };
    const log: NewActivityEntry[] = [];
    const addLog = (logText: string, resourceArmId: string | null = null) =>
      log.push({
        teamId: tenant.teamId,
        tenantId,
        serviceName: activityServiceNames.inventory,
        resourceArmId,
        logText,
      });
    const isDone = await this.tenants.runUnlessDeleted(tenantId, inventorySyncJob.name, async () => {
      try {
        await this.syncSubscriptions(work, summary, addLog, options);
      } catch (error) {
        if (!isCloudError(error)) throw error;
        summary.failures.push(error.message);
        addLog(`Sync failed: ${error.message}`);
        await this.tenants.recordSyncFailure(tenantId, error.message);
      }
      // For a tenant deleted meanwhile this write fails on its foreign key: nothing is left to report to.
      await this.activity.record(log);
      return true;
    });
    return isDone ? summary : undefined;
  }

  private async syncSubscriptions(
    { tenant, credentials }: TenantWork,
    summary: SyncSummary,
    addLog: (logText: string, resourceArmId?: string | null) => void,
    options: CloudCallOptions,
  ): Promise<void> {
    const tenantId = tenant.id;
    const listed = await this.cloud.listSubscriptions(credentials, options);
    const { rows, removed } = await this.inventory.replaceSubscriptions(tenantId, listed);
    for (const subscription of removed)
      addLog(`Subscription removed: ${subscription.displayName} is no longer readable`);
    summary.subscriptionCount = rows.length;
    for (const subscription of rows) {
      try {
        const resources = await this.cloud.listResources(credentials, subscription.subscriptionId, options);
        const result = await this.inventory.replaceSubscriptionResources(
          tenantId,
          subscription.id,
          resources.map(toInventoryResource),
          this.now(),
        );
        summary.resourceCount += resources.length;
        summary.resourcesBySubscription.set(subscription.subscriptionId.toLowerCase(), resources);
        summary.insertedCount += result.insertedCount;
        summary.removedCount += result.removed.length;
        const newText = result.insertedCount > 0 ? ` (${result.insertedCount} new)` : '';
        addLog(
          `Discovered ${resources.length} resources in subscription ${subscription.displayName}${newText}`,
        );
        for (const resource of result.removed) addLog(`Resource removed: ${resource.name}`, resource.armId);
      } catch (error) {
        if (!isCloudError(error)) throw error;
        summary.failures.push(`${subscription.displayName}: ${error.message}`);
        addLog(`Sync failed: subscription ${subscription.displayName}: ${error.message}`);
      }
    }
    const metricCount = await this.inventory.ensureMetrics(tenantId, metricDefinitions);
    await this.inventory.refreshStatistics(summary.insertedCount + summary.removedCount, metricCount);
    await this.tenants.refreshWriteAccess(
      tenant,
      credentials,
      rows.map((subscription) => subscription.subscriptionId),
      options,
    );
    if (summary.failures.length > 0) {
      await this.tenants.recordSyncFailure(tenantId, summary.failures.join('; '));
    } else {
      await this.tenants.recordSyncSuccess(tenantId, this.now());
    }
    await this.dateStates(tenantId, credentials, options);
    // New resources (all of them on the first sync) get their first minutes at once rather than at
    // the next scheduled collection, and every metric never back-filled its 14 days of hourly
    // history: asked of the metrics, not of this sync's news, so a back-fill lost to an earlier
    // sync that stopped half-way (or whose reads failed) is queued again.
    if (await this.inventory.hasMetricsToBackfill(tenantId)) await this.work.enqueueMetricsBackfill(tenantId);
    if (summary.insertedCount > 0) await this.work.enqueueMetricsCollection(tenantId);
  }

  // Since when an idle public IP or a stopped VM has been so, from Azure rather than from our first
  // sight, so a tenant connected today is told of waste that is weeks old: the Activity Log's write
  // that detached the IP (or created it unassociated), the VM's powerOff, or for a VM stopped from
  // inside its guest (Azure logs nothing then) the last minute Azure Monitor has its CPU. What
  // nothing dates keeps its first sight, and the finders say so. A bounded number a sync; a failed
  // read is tried again at the next.
  private async dateStates(
    tenantId: string,
    credentials: TenantWork['credentials'],
    options: CloudCallOptions,
  ): Promise<void> {
    for (const resource of await this.inventory.listUndatedStates(tenantId, datedPerSync)) {
      if (options.signal?.aborted) return;
      try {
        const dated = await this.findStateDate(credentials, resource, options);
        await this.inventory.recordStateDating(resource.id, resource.stateSince, dated, this.now());
      } catch (error) {
        if (!isCloudError(error)) throw error;
      }
    }
  }

  private async findStateDate(
    credentials: TenantWork['credentials'],
    resource: UndatedState,
    options: CloudCallOptions,
  ): Promise<{ at: Date; source: 'activity-log' | 'metrics' } | undefined> {
    const now = this.now().getTime();
    const isVm = resource.type.toLowerCase() === 'microsoft.compute/virtualmachines';
    const since = new Date(now - activityLogDays * dayMs + hourMs);
    const events = await this.cloud.listActivityEvents(credentials, resource.armId, since, options);
    const operation = isVm
      ? 'microsoft.compute/virtualmachines/poweroff/action'
      : 'microsoft.network/publicipaddresses/write';
    const event = events.find(
      (candidate) =>
        candidate.operationName.toLowerCase() === operation && candidate.status.toLowerCase() === 'succeeded',
    );
    if (event) return { at: event.at, source: 'activity-log' };
    if (!isVm) return undefined;
    const lastCpuMinute = await this.findLastCpuMinute(credentials, resource, now, options);
    return lastCpuMinute === undefined
      ? undefined
      : { at: new Date(lastCpuMinute + minuteMs), source: 'metrics' };
  }

  // The last minute with a CPU value before the VM was first seen stopped: its last hour with one
  // over the month before, then that hour by the minute.
  private async findLastCpuMinute(
    credentials: TenantWork['credentials'],
    resource: UndatedState,
    now: number,
    options: CloudCallOptions,
  ): Promise<number | undefined> {
    const end = Math.min(now, resource.stateSince.getTime());
    const window = {
      metricNames: [cpuMetricName],
      resourceType: resource.type,
      aggregations: ['average' as const],
    };
    const findLast = (series: { times: number[]; values: { average?: (number | null)[] } }[]) => {
      const [cpu] = series;
      if (!cpu) return undefined;
      for (let index = cpu.times.length - 1; index >= 0; index -= 1) {
        if (cpu.values.average?.[index] !== null && cpu.values.average?.[index] !== undefined)
          return cpu.times[index];
      }
      return undefined;
    };
    const hourStart = Math.floor(end / hourMs) * hourMs;
    const hours = await this.cloud.getResourceMetrics(
      credentials,
      resource.armId,
      {
        ...window,
        start: new Date(hourStart - cpuLookbackDays * dayMs),
        end: new Date(hourStart + hourMs),
        interval: 'PT1H',
      },
      options,
    );
    const lastHour = findLast(hours);
    if (lastHour === undefined) return undefined;
    const minutes = await this.cloud.getResourceMetrics(
      credentials,
      resource.armId,
      { ...window, start: new Date(lastHour), end: new Date(lastHour + hourMs), interval: 'PT1M' },
      options,
    );
    return findLast(minutes) ?? lastHour;
  }
}

function toInventoryResource(resource: CloudResource): InventoryResource {
  const { category, subcategory } = categorizeResourceType(resource.type);
  return {
    armId: resource.id,
    name: resource.name,
    type: resource.type,
    category,
    subcategory,
    resourceGroup: resource.resourceGroup,
    region: resource.region,
    sku: resource.sku,
    powerState: resource.powerState,
    tags: resource.tags,
    osType: resource.vmRequirements?.osType ?? null,
    dataDiskCount: resource.vmRequirements?.dataDiskCount ?? null,
    nicCount: resource.vmRequirements?.nicCount ?? null,
    hasPremiumDisk: resource.vmRequirements?.hasPremiumDisk ?? null,
    hasAcceleratedNetworking: resource.vmRequirements?.hasAcceleratedNetworking ?? null,
    details: resource.details ?? {},
  };
}
