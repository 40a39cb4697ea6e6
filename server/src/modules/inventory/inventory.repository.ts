// The inventory side of PostgreSQL: subscriptions and resources as the last sync saw them, and the
// metric rows each resource gets. Bulk statements pass whole columns as arrays (unnest), so a sync
// of thousands of resources is a handful of round trips.
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import {
  hasMetricsToBackfill,
  insertMetricRows,
  refreshMetricStatistics,
  type MetricDefinitionRow,
} from '../metrics/metric-rows.repository';
import {
  deleteUnlistedResources,
  redateResourceState,
  refreshResourceStatistics,
  upsertListedResources,
  type InventoryResource,
  type RemovedResource,
} from '../resources/resource-writes.repository';
import {
  recountTenantResources,
  replaceSubscriptionRows,
  type SubscriptionRow,
} from '../tenants/tenants.repository';

export type { InventoryResource, MetricDefinitionRow, RemovedResource, SubscriptionRow };

const upsertChunkSize = 2000;

export class InventoryRepository {
  constructor(private readonly db: Db) {}

  // Subscriptions the principal no longer reads go, and their resources with them.
  async replaceSubscriptions(
    tenantId: string,
    seen: { subscriptionId: string; displayName: string; state: string }[],
  ): Promise<{ rows: SubscriptionRow[]; removed: SubscriptionRow[] }> {
    return this.db.transaction(async (transaction) => {
      const { rows, removed } = await replaceSubscriptionRows(transaction, tenantId, seen);
      if (removed.length > 0) await recountTenantResources(transaction, tenantId);
      return { rows, removed };
    });
  }

  // Upserts what Azure listed and deletes what it no longer lists, in one transaction, so the
  // resource list never shows half a sync. User settings (automation, active hours) are untouched.
  async replaceSubscriptionResources(
    tenantId: string,
    subscriptionRowId: string,
    listed: InventoryResource[],
    readAt: Date,
  ): Promise<{ insertedCount: number; removed: RemovedResource[] }> {
    return this.db.transaction(async (transaction) => {
      let insertedCount = 0;
      for (let start = 0; start < listed.length; start += upsertChunkSize) {
        const chunk = listed.slice(start, start + upsertChunkSize);
        insertedCount += await upsertListedResources(transaction, tenantId, subscriptionRowId, chunk, readAt);
      }
      const removed = await deleteUnlistedResources(transaction, subscriptionRowId, readAt);
      await recountTenantResources(transaction, tenantId);
      return { insertedCount, removed };
    });
  }

  // Gives every resource of a catalogued type its metric rows; existing rows keep their history.
  async ensureMetrics(tenantId: string, definitions: MetricDefinitionRow[]): Promise<number> {
    return insertMetricRows(this.db, tenantId, definitions);
  }

  // After a sync that added or removed many resources (a tenant's first), the planner's statistics
  // of the resources and their metrics follow.
  async refreshStatistics(resourceRows: number, metricRows: number): Promise<void> {
    await refreshResourceStatistics(this.db, resourceRows);
    await refreshMetricStatistics(this.db, metricRows);
  }

  hasMetricsToBackfill(tenantId: string): Promise<boolean> {
    return hasMetricsToBackfill(this.db, tenantId);
  }

  async listUndatedStates(tenantId: string, limit: number): Promise<UndatedState[]> {
    const result = await this.db.execute<{ id: string; armId: string; type: string; stateSince: string }>(sql`
      select resource.id, resource.arm_id as "armId", resource.type, resource.state_since as "stateSince"
      from resource
      left join resource_state_dating as dating on dating.resource_id = resource.id
      where resource.tenant_id = ${tenantId}::uuid
        and resource.state_since is not null
        and (dating.resource_id is null or dating.state_since is distinct from resource.state_since)
        and (
          (lower(resource.type) = 'microsoft.network/publicipaddresses'
           and resource.details->>'ipConfigurationId' is null and resource.details->>'natGatewayId' is null)
          or (lower(resource.type) = 'microsoft.compute/virtualmachines' and resource.power_state = 'stopped')
        )
      order by resource.state_since, resource.id
      limit ${limit}
    `);
    return result.rows.map((row) => ({ ...row, stateSince: new Date(row.stateSince) }));
  }

  // The state's date as Azure gives it (kept by later syncs while the state stays), or, with no
  // source, the first sight confirmed as all there is.
  async recordStateDating(
    resourceId: string,
    seenSince: Date,
    dated: { at: Date; source: 'activity-log' | 'metrics' } | undefined,
    checkedAt: Date,
  ): Promise<void> {
    const stateSince = dated && dated.at < seenSince ? dated.at : seenSince;
    await this.db.transaction(async (transaction) => {
      // Only while the state is still the one dated (a sync in between may have moved it).
      const updated = await redateResourceState(transaction, resourceId, seenSince, stateSince);
      if (!updated) return;
      await transaction.execute(sql`
        insert into resource_state_dating (resource_id, state_since, source, checked_at)
        values (${resourceId}::uuid, ${stateSince.toISOString()}::timestamptz,
                ${stateSince < seenSince ? dated!.source : null}, ${checkedAt.toISOString()}::timestamptz)
        on conflict (resource_id) do update set
          state_since = excluded.state_since, source = excluded.source, checked_at = excluded.checked_at
      `);
    });
  }
}

// A public IP associated with nothing or a VM stopped (still billed) whose present state has not been
// dated from Azure yet: its state_since is still the first sync that saw it.
export interface UndatedState {
  id: string;
  armId: string;
  type: string;
  stateSince: Date;
}
