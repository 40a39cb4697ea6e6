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
  enqueueRecommendationsAnalysis(tenantId: string): Promise<void>;
  // `startAfter`: not before then (the end of Cost Management's wait, for a run that stopped at it).
  enqueueCostSync(tenantId: string, startAfter?: Date): Promise<void>;
}

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

  async enqueueRecommendationsAnalysis(tenantId: string): Promise<void> {
    await this.queue.send(recommendationsAnalyseJob, { tenantId }, { singletonKey: tenantId });
  }

  async enqueueCostSync(tenantId: string, startAfter?: Date): Promise<void> {
    await this.queue.send(
      costSyncJob,
      { tenantId },
      { singletonKey: tenantId, ...(startAfter ? { startAfter } : {}) },
    );
  }
}
