// 14 days of history written by SQL where a bench measures what reads it, not the back-fill that
// would write it (minutes to hours through the emulator): each metric's days packed a UTC day to a
// row (metric_day, what the analysis reads), as the roll-up keeps them.
import type { Database } from '../../server/src/db/database';

type Pool = Database['pool'];

// The VMs' CPU, memory and network: a daily cycle per VM with noise, the last day's hours carrying
// their lowest minute as hours rolled up from 1-minute points do. `tenantIds` limits it to those
// tenants (a large estate is seeded a batch of tenants at a time); without, every VM.
export async function seedVmPackedDays(
  pool: Pool,
  untilMs: number,
  tenantIds?: readonly string[],
): Promise<void> {
  await pool.query(
    `insert into metric_day (metric_id, day, averages, maximums, p95s, minimums)
     select metric.id, days.day, metric_day_pack(packed.hours, packed.averages),
            metric_day_pack(packed.hours, packed.maximums), metric_day_pack(packed.hours, packed.p95s),
            metric_day_pack(packed.hours, packed.minimums)
     from metric
     join resource on resource.id = metric.resource_id
     left join vm_size on vm_size.region = resource.region and vm_size.name = resource.sku
     cross join generate_series((($1::timestamptz - interval '14 days') at time zone 'UTC')::date,
                                (($1::timestamptz - interval '1 hour') at time zone 'UTC')::date, interval '1 day')
       as day_starts(day_start)
     cross join lateral (select day_start::date as day) as days
     cross join lateral (
       select array_agg(hour_of_day) as hours, array_agg(value.average) as averages,
              array_agg(value.average * 1.4) as maximums, array_agg(value.average * 1.25) as p95s,
              array_agg(case when hour_start >= $1::timestamptz - interval '1 day' then value.average * 0.8 end)
                as minimums
       from generate_series(0, 23) as hour_of_day
       cross join lateral (select (days.day + make_interval(hours => hour_of_day)) at time zone 'UTC' as hour_start)
         as hour
       cross join lateral (
         select case metric.name
           when 'Percentage CPU' then least(100, (5 + 40 * (abs(hashtext(resource.id::text)) % 100) / 100.0)
                                            * (1 + 0.5 * sin(hour_of_day * pi() / 12)) * (0.9 + 0.2 * random()))
           when 'Available Memory Bytes' then coalesce(vm_size.memory_gib, 8) * 1073741824
                                            * (0.3 + 0.5 * (abs(hashtext(resource.id::text || 'm')) % 100) / 100.0)
           else 1e6 * (1 + random())
         end as average
       ) as value
       where hour.hour_start >= $1::timestamptz - interval '14 days' and hour.hour_start < $1::timestamptz
     ) as packed
     where resource.type = 'Microsoft.Compute/virtualMachines'
       and ($2::uuid[] is null or resource.tenant_id = any($2::uuid[]))
       and metric.name in ('Percentage CPU', 'Available Memory Bytes', 'Network In Total', 'Network Out Total')
     order by days.day
     on conflict do nothing`,
    [new Date(untilMs).toISOString(), tenantIds ?? null],
  );
}

// The plans with apps: 14 days of CpuPercentage and MemoryPercentage, a daily cycle per plan (a few
// busy enough to keep their tier), their metrics created as the metrics module keeps them.
export async function seedPlanPackedDays(pool: Pool, untilMs: number): Promise<void> {
  await pool.query(
    `with plan_metrics as (
       insert into metric (resource_id, name, unit, last_collected_at)
       select resource.id, names.name, 'Percent', $1::timestamptz
       from resource cross join (values ('CpuPercentage'), ('MemoryPercentage')) as names(name)
       where resource.type = 'Microsoft.Web/serverfarms' and (resource.details->>'numberOfSites')::int > 0
       on conflict (resource_id, name) do update set last_collected_at = excluded.last_collected_at
       returning id, resource_id, name
     )
     insert into metric_day (metric_id, day, averages, maximums, p95s, minimums)
     select plan_metrics.id, days.day, metric_day_pack(packed.hours, packed.averages),
            metric_day_pack(packed.hours, packed.averages), metric_day_pack(packed.hours, packed.averages),
            metric_day_pack(packed.hours, packed.averages)
     from plan_metrics
     cross join generate_series((($1::timestamptz - interval '14 days') at time zone 'UTC')::date,
                                (($1::timestamptz - interval '1 hour') at time zone 'UTC')::date, interval '1 day')
       as days(day)
     cross join lateral (
       select array_agg(hour_of_day) as hours,
              array_agg(least(100, (5 + 60 * (abs(hashtext(plan_metrics.resource_id::text || plan_metrics.name)) % 100) / 100.0)
                                   * (1 + 0.4 * sin(hour_of_day * pi() / 12)))) as averages
       from generate_series(0, 23) as hour_of_day
     ) as packed
     on conflict do nothing`,
    [new Date(untilMs).toISOString()],
  );
}
