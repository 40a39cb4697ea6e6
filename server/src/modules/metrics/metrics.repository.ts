// Metrics in PostgreSQL: metric rows per resource, 1-minute points (48 hours) and hourly aggregates
// (90 days), the latter also packed a metric-day to a row for the analysis (metric_day), in the
// same statement. Writes pass whole columns as arrays (unnest), one statement per batch of resources.
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { burstableSizePattern, listMetricCatalogs } from './metric-catalog';
import { insertMetricRows } from './metric-rows.repository';
import { isoTimestampSql } from '../../lib/time';
import type { PartitionMaintenance, PartitionPlan } from './metric-partitions';

export interface CollectionTarget {
  armId: string;
  type: string;
  region: string;
  azureSubscriptionId: string;
  metricIds: string[];
  metricNames: string[];
  // The oldest last_collected_at of its metrics; null while any of them was never collected.
  collectedUntil: Date | null;
}

type CollectionTargetRow = {
  resourceId: string;
  armId: string;
  type: string;
  region: string;
  azureSubscriptionId: string;
  metricIds: string;
  metricNames: string;
  collectedUntilMs: number | null;
};

// Parallel columns; times are epoch milliseconds.
export interface MinutePoints {
  metricIds: string[];
  times: number[];
  values: number[];
}

export interface HourlyAggregates {
  metricIds: string[];
  hours: number[];
  averages: number[];
  maximums: number[];
  p95s: number[];
}

export interface MinuteBatchWrite {
  points: MinutePoints;
  // Every metric of the batch, with or without values: its window is done.
  collectedMetricIds: string[];
  collectedUntil: Date;
  // Hours whose aggregates are (re)computed from the stored points, if any.
  rollUp?: { from: Date; to: Date };
}

const purgeChunkSize = 20_000;
const targetPageSize = 1000;

export class MetricsRepository {
  constructor(private readonly db: Db) {}

  // Resources with metrics, one row each; deallocated virtual machines report nothing, so they wait.
  // Read a page at a time, the ids and names as plain text: parsing 10,000 rows of arrays in one go
  // would hold the event loop for a fifth of a second. Each resource's metrics are read through its
  // own index entries (the lateral join). Joined whole, PostgreSQL chose to hash every metric of
  // every tenant for one tenant's collection: 24 ms for a 100-VM tenant of a 10,000-VM estate,
  // every 5 minutes, growing with the estate rather than the tenant.
  async listCollectionTargets(
    tenantId: string,
    options: { isBackfill: boolean },
  ): Promise<CollectionTarget[]> {
    // A back-fill's targets are the metrics never back-filled, not those without hours: a first
    // collection that ran before the back-fill has rolled up an hour of its own.
    const metricFilter = options.isBackfill ? sql`and metric.backfilled_at is null` : sql``;
    const resourceFilter = options.isBackfill
      ? sql``
      : sql`and resource.power_state is distinct from 'deallocated'`;
    const targets: CollectionTarget[] = [];
    let afterId = '00000000-0000-0000-0000-000000000000';
    for (;;) {
      const result = await this.db.execute<CollectionTargetRow>(sql`
        select resource.id as "resourceId",
               resource.arm_id as "armId",
               resource.type,
               resource.region,
               subscription.subscription_id as "azureSubscriptionId",
               collected."metricIds",
               collected."metricNames",
               collected."collectedUntilMs"
        from resource
        join subscription on subscription.id = resource.subscription_id
        cross join lateral (
          select string_agg(metric.id::text, ',' order by metric.name) as "metricIds",
                 string_agg(metric.name, E'\t' order by metric.name) as "metricNames",
                 case when bool_or(metric.last_collected_at is null) then null
                      else (extract(epoch from min(metric.last_collected_at)) * 1000)::float8
                 end as "collectedUntilMs"
          from metric
          where metric.resource_id = resource.id ${metricFilter}
        ) as collected
        where resource.tenant_id = ${tenantId}::uuid and resource.id > ${afterId}::uuid ${resourceFilter}
          and collected."metricIds" is not null
        order by resource.id
        limit ${targetPageSize}
      `);
      for (const row of result.rows) {
        targets.push({
          armId: row.armId,
          type: row.type,
          region: row.region,
          azureSubscriptionId: row.azureSubscriptionId,
          metricIds: row.metricIds.split(','),
          metricNames: row.metricNames.split('\t'),
          collectedUntil: row.collectedUntilMs === null ? null : new Date(row.collectedUntilMs),
        });
      }
      if (result.rows.length < targetPageSize) return targets;
      afterId = result.rows.at(-1)!.resourceId;
    }
  }

  // The metrics whose 14 days were asked of Azure and answered (with or without values): no later
  // back-fill reads them again.
  async markBackfilled(metricIds: string[], at: Date): Promise<void> {
    if (metricIds.length === 0) return;
    await this.db.execute(sql`
      update metric set backfilled_at = ${at.toISOString()}::timestamptz
      where id = any(${toArrayLiteral(metricIds)}::uuid[])
    `);
  }

  // Gives the tenant's B-series VMs the metric rows of the metrics Azure reports for them only
  // (CPU credits); existing rows keep their history. A VM resized away from B keeps its rows, which
  // simply get no more values.
  async ensureBurstableMetrics(tenantId: string): Promise<number> {
    const definitions = listMetricCatalogs().flatMap((catalog) =>
      (catalog.burstableMetrics ?? []).map((metric) => ({ type: catalog.type, ...metric })),
    );
    if (definitions.length === 0) return 0;
    return insertMetricRows(
      this.db,
      tenantId,
      definitions.map((definition) => ({ ...definition, skuPattern: burstableSizePattern })),
    );
  }

  // The metrics' collected mark first: it locks their rows until the write commits, and only the
  // metrics it found get points. metric_point has no foreign key (migration 0024): a metric removed
  // before this gets none, and a tenant's delete, which locks its metrics before deleting their
  // points (deleteTenantPoints), waits for this write and then deletes what it wrote.
  async writeMinuteBatch(write: MinuteBatchWrite): Promise<void> {
    await this.db.transaction(async (transaction) => {
      const marked = await transaction.execute<{ id: string }>(sql`
        update metric set last_collected_at = ${write.collectedUntil.toISOString()}::timestamptz
        where id = any(${toArrayLiteral(write.collectedMetricIds)}::uuid[])
        returning id
      `);
      if (marked.rows.length === 0) return;
      const points =
        marked.rows.length === write.collectedMetricIds.length
          ? write.points
          : keepPointsOf(write.points, new Set(marked.rows.map((row) => row.id)));
      if (points.metricIds.length > 0) {
        await transaction.execute(sql`
          insert into metric_point (metric_id, time, value)
          select metric_id, to_timestamp(time_ms / 1000), value from unnest(
            ${toArrayLiteral(points.metricIds)}::uuid[],
            ${toArrayLiteral(points.times)}::float8[],
            ${toArrayLiteral(points.values)}::float8[]
          ) as point(metric_id, time_ms, value)
          on conflict (metric_id, time) do nothing
        `);
      }
      if (write.rollUp && write.rollUp.from < write.rollUp.to) {
        await transaction.execute(sql`
          with rolled as (
            select metric_id, date_trunc('hour', time) as hour, avg(value) as average, max(value) as maximum,
                   percentile_cont(0.95) within group (order by value) as p95, min(value) as minimum
            from metric_point
            where metric_id = any(${toArrayLiteral(write.collectedMetricIds)}::uuid[])
              and time >= ${write.rollUp.from.toISOString()}::timestamptz
              and time < ${write.rollUp.to.toISOString()}::timestamptz
            group by metric_id, date_trunc('hour', time)
            -- An hour first seen part-way through (a first collection, a resumed gap) keeps its
            -- back-filled aggregate rather than one computed from part of its minutes.
            having min(time) < date_trunc('hour', min(time)) + interval '5 minutes'
          ), hourly as (
            insert into metric_hourly (metric_id, hour, average, maximum, p95)
            select metric_id, hour, average, maximum, p95 from rolled
            on conflict (metric_id, hour) do update
              set average = excluded.average, maximum = excluded.maximum, p95 = excluded.p95
          ), ${packIntoDays('rolled', true)}
          select 1
        `);
      }
    });
  }

  // Back-filled hours never replace hours computed from real 1-minute points.
  async insertHourly(aggregates: HourlyAggregates): Promise<number> {
    if (aggregates.metricIds.length === 0) return 0;
    const result = await this.db.execute<{ inserted: number }>(sql`
      with inserted as (
        insert into metric_hourly (metric_id, hour, average, maximum, p95)
        select metric_id, to_timestamp(hour_ms / 1000), average, maximum, p95 from unnest(
          ${toArrayLiteral(aggregates.metricIds)}::uuid[],
          ${toArrayLiteral(aggregates.hours)}::float8[],
          ${toArrayLiteral(aggregates.averages)}::float8[],
          ${toArrayLiteral(aggregates.maximums)}::float8[],
          ${toArrayLiteral(aggregates.p95s)}::float8[]
        ) as hourly(metric_id, hour_ms, average, maximum, p95)
        on conflict (metric_id, hour) do nothing
        returning metric_id, hour, average, maximum, p95
      ), ${packIntoDays('inserted', false)}
      select count(*)::int as inserted from inserted
    `);
    return result.rows[0]?.inserted ?? 0;
  }

  // Undefined when the team has no such resource.
  async listMetricsOfResource(
    teamId: string,
    armId: string,
  ): Promise<{ id: string; name: string }[] | undefined> {
    const result = await this.db.execute<{ resourceId: string; id: string | null; name: string | null }>(sql`
      select resource.id as "resourceId", metric.id, metric.name
      from resource
      join tenant on tenant.id = resource.tenant_id
      left join metric on metric.resource_id = resource.id
      where tenant.team_id = ${teamId}::uuid and lower(resource.arm_id) = ${armId.toLowerCase()}
      order by metric.name
    `);
    if (result.rows.length === 0) return undefined;
    return result.rows.flatMap((row) => (row.id && row.name ? [{ id: row.id, name: row.name }] : []));
  }

  async isMetricOfTeam(teamId: string, metricId: string): Promise<boolean> {
    const result = await this.db.execute(sql`
      select 1
      from metric
      join resource on resource.id = metric.resource_id
      join tenant on tenant.id = resource.tenant_id
      where metric.id = ${metricId}::uuid and tenant.team_id = ${teamId}::uuid
    `);
    return result.rows.length > 0;
  }

  async listPoints(metricId: string, since: Date): Promise<{ time: string; value: number }[]> {
    const result = await this.db.execute<{ time: string; value: number }>(sql`
      select ${isoTimestampSql(sql`time`)} as time, value
      from metric_point
      where metric_id = ${metricId}::uuid and time >= ${since.toISOString()}::timestamptz
      order by time
    `);
    return result.rows;
  }

  // Each table in its own transaction, whose lock timeout bounds how long the hourly maintenance
  // may wait behind a long reader (a partition it cannot lock is left to the next run): creates the
  // partitions from `now` to its horizon, drops those wholly past retention (SQL functions
  // partition_ensure and partition_purge, migration 0021).
  async maintainPartitions(plans: readonly PartitionPlan[], now: Date): Promise<PartitionMaintenance> {
    const summary: PartitionMaintenance = { created: 0, dropped: 0, deleted: 0 };
    for (const plan of plans) {
      const stride = `${plan.strideMs / 1000} seconds`;
      await this.db.transaction(async (tx) => {
        await tx.execute(sql`set local lock_timeout = '5s'`);
        const created = await tx.execute<{ created: number }>(sql`
          select partition_ensure(${plan.table}, ${plan.key}, ${stride}::interval,
            ${now.toISOString()}::timestamptz, ${new Date(now.getTime() + plan.aheadMs).toISOString()}::timestamptz
          ) as created
        `);
        const purged = await tx.execute<{ dropped: number; deleted: string }>(sql`
          select dropped, deleted from partition_purge(${plan.table}, ${plan.key}, ${stride}::interval,
            ${new Date(now.getTime() - plan.retentionMs).toISOString()}::timestamptz)
        `);
        summary.created += created.rows[0]?.created ?? 0;
        summary.dropped += purged.rows[0]?.dropped ?? 0;
        summary.deleted += Number(purged.rows[0]?.deleted ?? 0);
      });
    }
    return summary;
  }

  // The packed days, not partitioned (6 rows a VM a day): deleted in chunks, so no statement holds
  // locks on many rows at once.
  async purgePackedDaysOlderThan(cutoff: Date): Promise<number> {
    let deleted = 0;
    for (;;) {
      const result = await this.db.execute(sql`
        delete from metric_day where ctid = any(array(
          select ctid from metric_day
          where day < (${cutoff.toISOString()}::timestamptz at time zone 'UTC')::date limit ${purgeChunkSize}
        ))
      `);
      deleted += result.rowCount ?? 0;
      if ((result.rowCount ?? 0) < purgeChunkSize) return deleted;
    }
  }

  // The packed days' pages marked all-visible again, so the analysis's read stays an index-only
  // scan (migration 0023) rather than visiting the heap for each day written since: VACUUM reads
  // only the pages changed since its last run (the day's rows merged each hour, those the purge
  // emptied), and skips its turn while another holds the table.
  async vacuumPackedDays(): Promise<void> {
    await this.db.execute(sql`vacuum (skip_locked) metric_day`);
  }
}

// The statement's closing parts that lay the hours of `source` (metric_id, hour, average, maximum,
// p95 and, when `hasMinimum`, minimum) into their metric's packed days (metric_day): a day that
// has its row gets just these hours placed (the roll-up's usual single hour), a new day a row of
// its own; a row another writer created meanwhile is merged with (the hours written win).
function packIntoDays(source: 'rolled' | 'inserted', hasMinimum: boolean) {
  const from = sql.raw(source);
  const columns = ['averages', 'maximums', 'p95s', 'minimums'] as const;
  const eachColumn = (expression: (column: string) => string) => sql.raw(columns.map(expression).join(', '));
  return sql`
    days as (
      select metric_id, (hour at time zone 'UTC')::date as day,
             array_agg(extract(hour from hour at time zone 'UTC')::integer) as hours,
             array_agg(average) as averages, array_agg(maximum) as maximums, array_agg(p95) as p95s,
             array_agg(${hasMinimum ? sql.raw('minimum') : sql.raw('null::float8')}) as minimums
      from ${from}
      group by metric_id, (hour at time zone 'UTC')::date
    ), placed_days as (
      update metric_day
      set (averages, maximums, p95s, minimums) =
        (${eachColumn((column) => `metric_day_place(metric_day.${column}, days.hours, days.${column})`)})
      from days
      where metric_day.metric_id = days.metric_id and metric_day.day = days.day
      returning metric_day.metric_id, metric_day.day
    ), new_days as (
      insert into metric_day (metric_id, day, averages, maximums, p95s, minimums)
      select days.metric_id, days.day, ${eachColumn((column) => `metric_day_pack(days.hours, days.${column})`)}
      from days
      where not exists (
        select 1 from placed_days where placed_days.metric_id = days.metric_id and placed_days.day = days.day)
      on conflict (metric_id, day) do update
        set averages = metric_day_merge(metric_day.averages, excluded.averages),
            maximums = metric_day_merge(metric_day.maximums, excluded.maximums),
            p95s = metric_day_merge(metric_day.p95s, excluded.p95s),
            minimums = metric_day_merge(metric_day.minimums, excluded.minimums)
    )`;
}

// A PostgreSQL array literal for numbers or ids (characters that need no quoting), built with one
// join: the driver's own array encoding quotes and escapes element by element, which costs the
// event loop milliseconds per thousand points.
function toArrayLiteral(values: readonly (number | string)[]): string {
  return `{${values.join(',')}}`;
}

// The points of the given metrics only (a write whose other metrics were removed meanwhile).
function keepPointsOf(points: MinutePoints, metricIds: ReadonlySet<string>): MinutePoints {
  const kept: MinutePoints = { metricIds: [], times: [], values: [] };
  for (let index = 0; index < points.metricIds.length; index += 1) {
    if (!metricIds.has(points.metricIds[index]!)) continue;
    kept.metricIds.push(points.metricIds[index]!);
    kept.times.push(points.times[index]!);
    kept.values.push(points.values[index]!);
  }
  return kept;
}
