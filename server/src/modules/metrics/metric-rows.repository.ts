// The metric rows a resource gets (one per metric of its type that Cloudtrim collects): inventory's
// sync and the B-series' extra metrics insert them through this one statement; and whether any of a
// tenant's still wants its back-fill, which the sync asks before queuing one.
import { sql } from 'drizzle-orm';
import type { Db, Executor } from '../../db/database';
import { refreshStatisticsAfterWrite } from '../../db/planner-statistics';
import { metrics } from '../../db/schema';

export interface MetricDefinitionRow {
  type: string;
  name: string;
  unit: string;
  // Only for resources whose lower-cased SKU matches (a DTU database's DTU metric).
  skuPattern?: string;
}

// Gives every resource of the tenant of a defined type its metric rows; existing rows keep their
// history. Answers how many rows were new.
export async function insertMetricRows(
  db: Executor,
  tenantId: string,
  definitions: MetricDefinitionRow[],
): Promise<number> {
  const result = await db.execute(sql`
    insert into metric (resource_id, name, unit)
    select resource.id, definition.name, definition.unit
    from resource
    join unnest(
      ${sql.param(definitions.map((definition) => definition.type.toLowerCase()))}::text[],
      ${sql.param(definitions.map((definition) => definition.name))}::text[],
      ${sql.param(definitions.map((definition) => definition.unit))}::text[],
      ${sql.param(definitions.map((definition) => definition.skuPattern ?? ''))}::text[]
    ) as definition(type, name, unit, sku_pattern) on lower(resource.type) = definition.type
    where resource.tenant_id = ${tenantId}::uuid
      and (definition.sku_pattern = '' or lower(resource.sku) ~ definition.sku_pattern)
    on conflict (resource_id, name) do nothing
  `);
  return result.rowCount ?? 0;
}

// After many metric rows were inserted (a tenant's first sync), the planner's statistics follow.
export function refreshMetricStatistics(db: Db, writtenRows: number): Promise<boolean> {
  return refreshStatisticsAfterWrite(db, metrics, writtenRows);
}

// Whether any metric of the tenant was never back-filled (new, or its last back-fill's read failed).
export async function hasMetricsToBackfill(db: Executor, tenantId: string): Promise<boolean> {
  const result = await db.execute<{ found: boolean }>(sql`
    select exists (
      select 1 from metric join resource on resource.id = metric.resource_id
      where resource.tenant_id = ${tenantId}::uuid and metric.backfilled_at is null
    ) as found
  `);
  return result.rows[0]?.found ?? false;
}

// A tenant's 1-minute points, which no foreign key removes with its metrics (metric_point has none,
// migration 0024), deleted in the transaction that then deletes the tenant. Its metrics are locked
// first: a collection holding some (its write updates them before writing their points) commits
// before this reads the points, so they are deleted here; one that comes after finds its metrics
// gone and writes no points.
export async function deleteTenantPoints(db: Executor, tenantId: string): Promise<number> {
  const result = await db.execute(sql`
    with locked as (
      select metric.id from metric
      join resource on resource.id = metric.resource_id
      where resource.tenant_id = ${tenantId}::uuid
      for update of metric
    )
    delete from metric_point where metric_id = any(array(select id from locked))
  `);
  return result.rowCount ?? 0;
}
