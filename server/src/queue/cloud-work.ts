// The per-tenant cloud jobs by name and payload, and the one way services enqueue them. The job
// files (inventory-sync.job.ts, metrics-*.job.ts) attach the handlers.
import { z } from 'zod';
import type { JobQueue } from './queue';

export const tenantJobPayload = z.object({ tenantId: z.guid() });
export const emptyJobPayload = z.object({});

export const inventorySyncJob = { name: 'inventory-sync', payload: tenantJobPayload };
export const inventorySyncAllJob = { name: 'inventory-sync-all', payload: emptyJobPayload };
export const metricsCollectJob = { name: 'metrics-collect', payload: tenantJobPayload };
export const metricsCollectAllJob = { name: 'metrics-collect-all', payload: emptyJobPayload };
export const metricsBackfillJob = { name: 'metrics-backfill', payload: tenantJobPayload };
export const metricsPurgeJob = { name: 'metrics-purge', payload: emptyJobPayload };
export const pricingRefreshJob = { name: 'pricing-refresh', payload: emptyJobPayload };
export const recommendationsAnalyseJob = { name: 'recommendations-analyse', payload: tenantJobPayload };
export const costSyncJob = { name: 'cost-sync', payload: tenantJobPayload };
export const costSyncAllJob = { name: 'cost-sync-all', payload: emptyJobPayload };

export interface CloudWorkQueue {
  enqueueInventorySync(tenantId: string): Promise<void>;
  enqueueMetricsCollection(tenantId: string): Promise<void>;
  enqueueMetricsBackfill(tenantId: string): Promise<void>;
  // `isBackground`: asked for by work other than the tenant's metrics (its bill's newest days), so
  // it waits behind every tenant's analyses of new metrics (a new tenant's first among them).
  enqueueRecommendationsAnalysis(tenantId: string, options?: { isBackground?: boolean }): Promise<void>;
  // `startAfter`: not before then (the end of Cost Management's wait, for a run that stopped at it).
  enqueueCostSync(tenantId: string, startAfter?: Date): Promise<void>;
}

// An analysis asked for by the tenant's bill rather than its metrics goes after the others.
const backgroundPriority = -1;
const defaultPriority = 0;

// One queued job per tenant and kind at a time (stately queues keyed by tenant): a schedule that
// fires while a tenant's previous run is still queued adds nothing. A run may queue its tenant's
// next while it runs (one queued beside one running).
export class PgBossCloudWorkQueue implements CloudWorkQueue {
  constructor(private readonly queue: JobQueue) {}

  async enqueueInventorySync(tenantId: string): Promise<void> {
    await this.queue.send(inventorySyncJob, { tenantId }, { singletonKey: tenantId });
  }

  async enqueueMetricsCollection(tenantId: string): Promise<void> {
    await this.queue.send(metricsCollectJob, { tenantId }, { singletonKey: tenantId });
  }

  async enqueueMetricsBackfill(tenantId: string): Promise<void> {
    await this.queue.send(metricsBackfillJob, { tenantId }, { singletonKey: tenantId });
  }

  async enqueueRecommendationsAnalysis(tenantId: string, { isBackground = false } = {}): Promise<void> {
    const priority = isBackground ? backgroundPriority : defaultPriority;
    const id = await this.queue.send(
      recommendationsAnalyseJob,
      { tenantId },
      { singletonKey: tenantId, priority },
    );
    // Already waiting (perhaps as background): the one analysis does both, at the higher priority.
    if (id === null && !isBackground)
      await this.queue.raisePriority(recommendationsAnalyseJob, tenantId, defaultPriority);
  }

  async enqueueCostSync(tenantId: string, startAfter?: Date): Promise<void> {
    await this.queue.send(
      costSyncJob,
      { tenantId },
      { singletonKey: tenantId, ...(startAfter ? { startAfter } : {}) },
    );
  }
}
