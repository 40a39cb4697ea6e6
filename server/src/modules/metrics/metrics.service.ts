import type { MetricDataResponse, MetricsResponse } from '@cloudtrim/contracts/metrics';
import type {
  CloudCallOptions,
  CloudCredentials,
  CloudProvider,
  MetricSeries,
  MetricWindow,
} from '../../cloud/cloud-provider';
import { isCloudError } from '../../cloud/cloud-provider';
import { metricsBackfillJob, metricsCollectJob, type CloudWorkQueue } from '../../queue/cloud-work';
import { BoundedWork, Limiter, retry, runWithConcurrency, yieldToEventLoop } from '../../lib/concurrency';
import { notFound } from '../../lib/http-errors';
import { activityServiceNames, type ActivityService } from '../activity/activity.service';
import type { TenantRow } from '../tenants/tenants.repository';
import type { TenantsService } from '../tenants/tenants.service';
import type { MetricTypeCatalog } from './metric-catalog';
import {
  floorTo,
  groupTargets,
  listTargetMetricNames,
  planMinuteWindow,
  toHourlyAggregates,
  toMinutePoints,
  MinuteWriteBuffer,
  type CollectionGroup,
} from './metric-collection-plan';
import { hourMs, minuteMs } from '../../lib/time';
import type { CollectionTarget, MetricsRepository, MinuteBatchWrite } from './metrics.repository';
import { hourlyRetentionMs, metricPartitionPlans, type PartitionMaintenance } from './metric-partitions';

// Azure Monitor publishes a minute a little after it ends; reading up to two minutes ago keeps
// every window complete.
const ingestionDelayMs = 2 * minuteMs;
const backfillDays = 14;
const backfillWindowMs = 7 * 24 * hourMs;
const backfillBatchLimit = 10;
// Calls in flight at once: enough to hide Azure's latency. Their answers are processed one at a
// time in a lane (each step on its own turn of the event loop), so whatever shares the loop (the
// worker's other jobs and pg-boss heartbeats; the API too, where a process runs both on one thread)
// waits a few milliseconds at most during a 10,000-machine cycle.
const callConcurrency = 4;
// A tenant's batches written at once, each on its own connection, while its reads go on: PostgreSQL
// works one statement per connection on one core, so two keep its share of the cores busy while
// the job thread decodes the next answers. A failed write is tried again, after 0.5 s then 1 s.
const writeConcurrency = 2;
const writeRetry = { attempts: 3, delayMs: 500 };
// Answers are written together once they hold this many points (a 100-VM tenant's whole cycle is
// about 1,200): PostgreSQL's cost per statement then stays a small part of the write.
const writeMinimumPoints = 5_000;

export interface CollectionSummary {
  resourceCount: number;
  callCount: number;
  pointCount: number;
  failedResourceCount: number;
  failures: string[];
}

export class MetricsService {
  constructor(
    private readonly tenants: TenantsService,
    private readonly metrics: MetricsRepository,
    private readonly cloud: CloudProvider,
    private readonly activity: ActivityService,
    private readonly work: CloudWorkQueue,
    private readonly now: () => Date,
  ) {}

  async listMetrics(teamId: string, armId: string): Promise<MetricsResponse> {
    const metrics = await this.metrics.listMetricsOfResource(teamId, armId);
    if (!metrics) throw notFound('Resource not found.');
    return { Data: metrics.map((metric) => ({ MetricId: metric.id, Metric: metric.name })) };
  }

  async getMetricData(teamId: string, metricId: string, minutes: number): Promise<MetricDataResponse> {
    if (!isUuid(metricId) || !(await this.metrics.isMetricOfTeam(teamId, metricId))) {
      throw notFound('Metric not found.');
    }
    const points = await this.metrics.listPoints(
      metricId,
      new Date(this.now().getTime() - minutes * minuteMs),
    );
    const data: Record<string, number> = {};
    for (const point of points) data[point.time] = point.value;
    return { Data: data };
  }

  async enqueueCollectionForAllTenants(): Promise<void> {
    for (const tenantId of await this.tenants.listActiveTenantIds()) {
      await this.work.enqueueMetricsCollection(tenantId);
    }
  }

  // One collection cycle for one tenant: every resource's minutes since its last collection.
  // Undefined when the tenant is gone.
  async collectTenant(
    tenantId: string,
    options: CloudCallOptions = {},
  ): Promise<CollectionSummary | undefined> {
    const context = await this.tenants.openForWork(tenantId, metricsCollectJob.name);
    if (!context) return undefined;
    const end = new Date(floorTo(this.now().getTime() - ingestionDelayMs, minuteMs));
    await this.metrics.ensureBurstableMetrics(tenantId);
    const targets = await this.metrics.listCollectionTargets(tenantId, { isBackfill: false });
    const groups = groupTargets(targets, (target, catalog) => planMinuteWindow(target, catalog, end));
    const summary = createSummary(targets.length);
    const processing = new Limiter(1);
    const writes = new BoundedWork(writeConcurrency);
    const gathered = new MinuteWriteBuffer(writeMinimumPoints);
    const startWrite = (write: MinuteBatchWrite) =>
      writes.start(() => retry(() => this.metrics.writeMinuteBatch(write), writeRetry));
    const isDone = await this.tenants.runUnlessDeleted(tenantId, metricsCollectJob.name, async () => {
      const reading = runWithConcurrency(groups, callConcurrency, async (group) => {
        const series = await this.readGroup(context.credentials, group, summary, {
          ...options,
          processingLane: processing,
        });
        if (!series) return;
        const points = await processing.run(async () => {
          // Each step of a batch gets its own turn of the event loop, so requests are served between them.
          await yieldToEventLoop();
          const decoded = toMinutePoints(group, series);
          summary.pointCount += decoded.metricIds.length;
          await yieldToEventLoop();
          return decoded;
        });
        // Written while the next answers are read and decoded, once enough are gathered. The
        // groups' metrics are disjoint, so writes side by side never touch the same rows; a write's
        // points, roll-up and collected mark commit together, so a retried write (or the next
        // cycle, after a failed one) reads and writes the same minutes again and each point is
        // kept once.
        const full = gathered.add({
          points,
          collectedMetricIds: group.targets.flatMap((target) => target.metricIds),
          collectedUntil: group.window.end,
          rollUp: {
            from: new Date(floorTo(group.window.start.getTime(), hourMs)),
            to: new Date(floorTo(group.window.end.getTime(), hourMs)),
          },
        });
        if (full) await startWrite(full);
      });
      // The answers left over are written once every read is over; every write begun ends before
      // the job does, whatever happened to the reads.
      const written = reading.then(async () => {
        for (const rest of gathered.drain()) await startWrite(rest);
      });
      await written.finally(() => writes.finish());
      await this.reportFailures(context.tenant, 'Metric collection', summary);
      return true;
    });
    if (!isDone) return undefined;
    return summary;
  }

  // 14 days of hourly history for the metrics never back-filled (a new tenant's, new resources', or
  // those whose read failed last time).
  // Azure's hourly grain carries no percentiles, so a back-filled hour's p95 is its maximum: an
  // upper bound, which errs towards keeping capacity.
  async backfillTenant(
    tenantId: string,
    options: CloudCallOptions = {},
  ): Promise<CollectionSummary | undefined> {
    const context = await this.tenants.openForWork(tenantId, metricsBackfillJob.name);
    if (!context) return undefined;
    const end = new Date(floorTo(this.now().getTime(), hourMs));
    const start = new Date(end.getTime() - backfillDays * 24 * hourMs);
    await this.metrics.ensureBurstableMetrics(tenantId);
    const targets = await this.metrics.listCollectionTargets(tenantId, { isBackfill: true });
    const summary = createSummary(targets.length);
    // The metrics of a group whose read failed in any window: left for the next back-fill.
    const unanswered = new Set<string>();
    const isDone = await this.tenants.runUnlessDeleted(tenantId, metricsBackfillJob.name, async () => {
      for (let windowStart = start.getTime(); windowStart < end.getTime(); windowStart += backfillWindowMs) {
        const windowEnd = new Date(Math.min(windowStart + backfillWindowMs, end.getTime()));
        const window = (target: CollectionTarget, catalog: MetricTypeCatalog): MetricWindow => ({
          metricNames: listTargetMetricNames(target, catalog),
          resourceType: catalog.type,
          start: new Date(windowStart),
          end: windowEnd,
          interval: 'PT1H',
          aggregations: ['average', 'maximum', 'total'],
        });
        const groups = groupTargets(targets, window, backfillBatchLimit);
        await runWithConcurrency(groups, callConcurrency, async (group) => {
          const series = await this.readGroup(context.credentials, group, summary, options);
          if (!series) {
            for (const target of group.targets) for (const id of target.metricIds) unanswered.add(id);
            return;
          }
          await yieldToEventLoop();
          const aggregates = toHourlyAggregates(group, series);
          await yieldToEventLoop();
          summary.pointCount += await this.metrics.insertHourly(aggregates);
        });
      }
      await this.metrics.markBackfilled(
        targets.flatMap((target) => target.metricIds).filter((id) => !unanswered.has(id)),
        this.now(),
      );
      await this.reportFailures(context.tenant, 'Metric back-fill', summary);
      return true;
    });
    if (!isDone) return undefined;
    return summary;
  }

  // Hourly: the points' and hours' partitions made ahead and dropped past retention
  // (metric-partitions.ts), and the packed days past 90 days deleted, their table vacuumed.
  async purgeExpired(): Promise<PartitionMaintenance> {
    const now = this.now();
    const maintenance = await this.metrics.maintainPartitions(metricPartitionPlans, now);
    const packedDays = await this.metrics.purgePackedDaysOlderThan(
      new Date(now.getTime() - hourlyRetentionMs),
    );
    await this.metrics.vacuumPackedDays();
    return { ...maintenance, deleted: maintenance.deleted + packedDays };
  }

  // One Azure call for the group; a failure is counted and the other groups go on.
  private async readGroup(
    credentials: CloudCredentials,
    group: CollectionGroup,
    summary: CollectionSummary,
    options: CloudCallOptions,
  ): Promise<MetricSeries[] | undefined> {
    try {
      summary.callCount += 1;
      if (group.catalog.isBatchable) {
        return await this.cloud.getMetricBatch(
          credentials,
          {
            subscriptionId: group.subscriptionId,
            region: group.region,
            resourceIds: group.targets.map((target) => target.armId),
          },
          group.window,
          options,
        );
      }
      return await this.cloud.getResourceMetrics(credentials, group.targets[0]!.armId, group.window, options);
    } catch (error) {
      if (!isCloudError(error)) throw error;
      summary.failedResourceCount += group.targets.length;
      if (summary.failures.length < 5) summary.failures.push(error.message);
      return undefined;
    }
  }

  // Written inside the tenant's runUnlessDeleted: for a tenant deleted meanwhile the entry's foreign
  // key fails and the work is simply over.
  private async reportFailures(
    { id: tenantId, teamId }: TenantRow,
    what: string,
    summary: CollectionSummary,
  ): Promise<void> {
    if (summary.failedResourceCount === 0) return;
    await this.activity.record([
      {
        teamId,
        tenantId,
        serviceName: activityServiceNames.metrics,
        resourceArmId: null,
        logText: `${what} failed for ${summary.failedResourceCount} resources: ${summary.failures[0]}`,
      },
    ]);
  }
}

function createSummary(resourceCount: number): CollectionSummary {
  return { resourceCount, callCount: 0, pointCount: 0, failedResourceCount: 0, failures: [] };
}

function isUuid(text: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(text);
}
