// The bill from Azure Cost Management read into PostgreSQL per subscription (a 13-month backfill,
// then the settling days again after each Azure refresh): the schedule's fan-out, a tenant's pages in
// turn, Cost Management's throttling waited out (a long wait away from the worker's slot) and a
// refused read right said once.
import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import type { CloudCallOptions, CloudError, CloudProvider, CostRow } from '../../cloud/cloud-provider';
import { isCloudError } from '../../cloud/cloud-provider';
import type { CostRead } from '../../db/schema';
import { Limiter } from '../../lib/concurrency';
import type { CloudWorkQueue } from '../../queue/cloud-work';
import { activityServiceNames, type ActivityService } from '../activity/activity.service';
import type { TenantsService, TenantWork } from '../tenants/tenants.service';
import { planBackfill, planRefresh, refreshHours } from './costs.plan';
import type { CostPageRow, CostsRepository, CostSyncRow } from './costs.repository';
import { hourMs } from '../../lib/time';
import type { RealizedSavings } from './costs.realized-savings';
import { readResourceGroup } from './costs.scope';

// A refusal of Cost Management's read right is asked about again once a day.
const deniedRetryHours = 24;
// After an unforeseen Azure failure, a subscription's reads pause this long.
const failureBackoffMs = 5 * 60_000;
export const costReaderRoleName = 'Cost Management Reader';
// Pages written at once by all the tenants' syncs of a process: the bill's rows are the heaviest
// writes there are, and many syncs run side by side (each mostly waiting on its tenant's budget), so
// they get two of the pool's connections and leave the rest to inventory, metrics and analysis.
const pageWriteConcurrency = 2;

export interface CostSyncSummary {
  pagesRead: number;
  throttled: number;
  measuredCount?: number;
  // Set when the run stopped at a wait longer than it may hold its place: the wall-clock time its
  // tenant's next run is queued for.
  resumeAt?: Date;
}

export interface CostSyncOptions extends CloudCallOptions {
  // The longest wait for Cost Management's budget spent holding the run's place; a longer one ends
  // the run and queues the next for the wait's end. Unset, every wait is waited out.
  longestHeldWaitMs?: number;
}

export class CostSync {
  private readonly pageWrites = new Limiter(pageWriteConcurrency);

  constructor(
    private readonly costs: CostsRepository,
    private readonly tenants: TenantsService,
    private readonly cloud: CloudProvider,
    private readonly activity: ActivityService,
    private readonly work: Pick<CloudWorkQueue, 'enqueueCostSync' | 'enqueueRecommendationsAnalysis'>,
    private readonly savings: RealizedSavings,
    private readonly now: () => Date,
  ) {}

  // The schedule's fan-out: a job for each tenant with a read due (one queued per tenant at most).
  async enqueueDueTenants(): Promise<number> {
    const now = this.now();
    const tenantIds = await this.costs.listTenantsDue(
      new Date(readWallClock()),
      new Date(now.getTime() - refreshHours * hourMs),
      new Date(now.getTime() - deniedRetryHours * hourMs),
    );
    for (const tenantId of tenantIds) await this.work.enqueueCostSync(tenantId);
    return tenantIds.length;
  }

  // Reads pages of the tenant's subscriptions in turn until their plans are done or the job's
  // deadline comes. A throttled subscription waits out Cost Management's retry-after (kept in the
  // database for every process) while the others go on; nothing is sent before it. When all of them
  // wait longer than options.longestHeldWaitMs, the run ends and the tenant's next is queued for
  // the end of the shortest wait.
  async syncTenant(tenantId: string, options: CostSyncOptions = {}): Promise<CostSyncSummary | undefined> {
    const work = await this.tenants.openForWork(tenantId, 'cost-sync');
    if (!work) return undefined;
    await this.costs.ensureSyncs(tenantId);
    const summary: CostSyncSummary = { pagesRead: 0, throttled: 0 };
    for (;;) {
      if (options.signal?.aborted) return summary;
      const syncs = await this.costs.listSyncs(tenantId);
      const now = this.now();
      const due = syncs.filter((sync) => this.hasWorkNow(sync, now));
      if (due.length === 0) {
        const waitMs = this.readShortestWait(syncs, now);
        if (waitMs === undefined) {
          summary.measuredCount = await this.savings.measure(tenantId);
          return summary;
        }
        if (waitMs > (options.longestHeldWaitMs ?? Number.POSITIVE_INFINITY)) {
          summary.resumeAt = new Date(readWallClock() + waitMs);
          await this.work.enqueueCostSync(tenantId, summary.resumeAt);
          return summary;
        }
        try {
          await delay(waitMs, undefined, { signal: options.signal });
        } catch {
          return summary;
        }
        continue;
      }
      for (const sync of due) {
        const outcome = await this.readNextPage(work, sync, options);
        if (outcome === 'read') summary.pagesRead += 1;
        if (outcome === 'throttled') summary.throttled += 1;
        if (options.signal?.aborted) return summary;
      }
    }
  }

  private hasWorkNow(sync: CostSyncRow, now: Date): boolean {
    if (sync.notBefore && sync.notBefore.getTime() > readWallClock()) return false;
    if (sync.deniedAt && now.getTime() - sync.deniedAt.getTime() < deniedRetryHours * hourMs) return false;
    if (sync.plan.length > 0) return true;
    return !sync.refreshedAt || now.getTime() - sync.refreshedAt.getTime() >= refreshHours * hourMs;
  }

  // The wait until a throttled subscription with work may be asked again; undefined when none has.
  private readShortestWait(syncs: CostSyncRow[], now: Date): number | undefined {
    let shortest: number | undefined;
    for (const sync of syncs) {
      if (!sync.notBefore || sync.notBefore.getTime() <= readWallClock()) continue;
      if (sync.deniedAt) continue;
      const hasWork =
        sync.plan.length > 0 ||
        !sync.refreshedAt ||
        now.getTime() - sync.refreshedAt.getTime() >= refreshHours * hourMs;
      if (!hasWork) continue;
      const wait = sync.notBefore.getTime() - readWallClock();
      shortest = shortest === undefined ? wait : Math.min(shortest, wait);
    }
    return shortest;
  }

  private async readNextPage(
    work: TenantWork,
    sync: CostSyncRow,
    options: CloudCallOptions,
  ): Promise<'read' | 'throttled' | 'stopped'> {
    const now = this.now();
    const plan: CostRead[] =
      sync.plan.length > 0 ? sync.plan : sync.backfilledAt ? planRefresh(now) : planBackfill(now);
    const [first, ...rest] = plan;
    const read = { ...first!, readId: first!.readId ?? randomUUID(), nextLink: first!.nextLink ?? null };
    let page;
    try {
      page = await this.cloud.queryCosts(
        work.credentials,
        {
          subscriptionId: sync.subscriptionId,
          costType: read.costType,
          granularity: read.granularity,
          from: read.from,
          to: read.to,
        },
        read.nextLink,
        options,
      );
    } catch (caught) {
      if (!isCloudError(caught)) throw caught;
      const error: CloudError = caught;
      if (error.kind === 'throttled') {
        const waitMs = (error.retryAfterSeconds ?? 60) * 1000;
        await this.costs.updateSync(
          sync.tenantId,
          sync.subscriptionId,
          { plan, notBefore: new Date(readWallClock() + waitMs) },
          now,
        );
        return 'throttled';
      }
      if (error.kind === 'authorization') {
        await this.recordDenied(work, sync, plan, now);
        return 'stopped';
      }
      if (error.kind === 'timeout' && options.signal?.aborted) return 'stopped';
      await this.costs.updateSync(
        sync.tenantId,
        sync.subscriptionId,
        { plan, notBefore: new Date(readWallClock() + failureBackoffMs), lastError: error.message },
        now,
      );
      return 'stopped';
    }
    const nextPlan = page.nextLink ? [{ ...read, nextLink: page.nextLink }, ...rest] : rest;
    const isDone = nextPlan.length === 0;
    await this.pageWrites.run(() =>
      this.costs.writePage(
        sync.tenantId,
        sync.subscriptionId,
        read,
        toPageRows(page.rows),
        nextPlan,
        {
          notBefore: null,
          deniedAt: null,
          lastError: null,
          ...(isDone ? { refreshedAt: now, ...(sync.backfilledAt ? {} : { backfilledAt: now }) } : {}),
        },
        now,
      ),
    );
    // The bill's newest days by day, both cost types, are in for the first time: the recommendations
    // made at list prices are priced at the tenant's own rates now, not at the next hourly analysis.
    if (
      !sync.backfilledAt &&
      !page.nextLink &&
      read.granularity === 'Daily' &&
      !rest.some((other) => other.granularity === 'Daily' && other.to >= read.to)
    ) {
      const newest = plan.filter((other) => other.granularity === 'Daily').map((other) => other.to);
      // Behind every tenant's analyses of new metrics: a new tenant's first finds its waste first.
      if (newest.every((to) => to <= read.to))
        await this.work.enqueueRecommendationsAnalysis(sync.tenantId, { isBackground: true });
    }
    return 'read';
  }

  // Said once in Recent Activity (the tenant's Status says it for as long as it lasts).
  private async recordDenied(
    work: TenantWork,
    sync: CostSyncRow,
    plan: CostRead[],
    now: Date,
  ): Promise<void> {
    await this.costs.updateSync(sync.tenantId, sync.subscriptionId, { plan, deniedAt: now }, now);
    if (sync.deniedAt) return;
    await this.activity.record([
      {
        teamId: work.tenant.teamId,
        tenantId: work.tenant.id,
        serviceName: activityServiceNames.costs,
        resourceArmId: null,
        logText: `The service principal of tenant "${work.tenant.friendlyName}" may not read the costs of subscription ${sync.subscriptionId}: grant it the ${costReaderRoleName} role to see the bill`,
      },
    ]);
  }
}

// Cost Management's waits are real seconds, whatever day the service's clock says it is (the tests
// move that clock): not_before is kept and compared on the wall clock.
function readWallClock(): number {
  return Date.now();
}

// Rows of one key summed (ids compared lower case, so one resource is one row), each with its group.
export function toPageRows(rows: CostRow[]): CostPageRow[] {
  const byKey = new Map<string, CostPageRow>();
  for (const row of rows) {
    const key = `${row.date}|${row.resourceId}|${row.serviceName}`;
    const existing = byKey.get(key);
    if (existing) {
      existing.cost += row.cost;
      existing.usageQuantity += row.usageQuantity;
      continue;
    }
    byKey.set(key, {
      date: row.date,
      resourceId: row.resourceId,
      resourceGroup: readResourceGroup(row.resourceId),
      serviceName: row.serviceName,
      cost: row.cost,
      usageQuantity: row.usageQuantity,
      currency: row.currency,
    });
  }
  return [...byKey.values()];
}
