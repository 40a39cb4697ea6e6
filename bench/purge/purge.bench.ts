// The hourly metrics purge at 10,000 VMs (BENCH_FLEET_SIZE to change it), 6 metrics each as a VM
// has: an hour of 1-minute points past retention, what each hourly run removes, purged as it was
// (chunked `delete ... where time < cutoff` on an unpartitioned copy of the same rows, with the
// VACUUM that the deleted rows then need) beside the partitioned table's purge (the maintenance of
// migration 0021: the hour's partition dropped). Both on the same embedded PostgreSQL, the same
// rows: the expired hour and the next, kept. Prints wall time and WAL written by each. Then the
// analysis's read of the packed days (metric_day) beside a copy partitioned by 4 weeks, the figure
// behind leaving that table unpartitioned.
// Then the sizing figures: bytes per row of each metric table (pg_total_relation_size of a
// partition over its rows: heap, indexes, TOAST) and PostgreSQL's size per 100,000 VMs at the
// tables' retention (ARCHITECTURE.md's sizing guide).
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { applyMigrations, openDatabase, startEmbeddedPostgres } from '../../server/src/db/database';
import { dayMs, hourMs } from '../../server/src/lib/time';
import { metricPartitionPlans } from '../../server/src/modules/metrics/metric-partitions';
import { MetricsRepository } from '../../server/src/modules/metrics/metrics.repository';
import { printTable } from '../support/table';
import { watchPostgresActivity } from '../support/postgres-activity';

const fleetSize = Number(process.env.BENCH_FLEET_SIZE ?? 10_000);
const metricsPerVm = 6;
const purgeChunkSize = 20_000;

const dataDir = await mkdtemp(path.join(os.tmpdir(), 'cloudtrim-bench-purge-'));
await chmod(dataDir, 0o755);
const postgres = await startEmbeddedPostgres(dataDir, { info: () => {}, warn: () => {} });
const database = await openDatabase(postgres.url, { maxConnections: 4 });
const { pool } = database;
const seconds = (startedAt: number) => (performance.now() - startedAt) / 1000;

try {
  await applyMigrations(database);
  const metrics = new MetricsRepository(database.db);
  // A day ahead of the migration's partitions, so every partition here is the bench's own.
  const startMs = Math.floor(Date.now() / hourMs) * hourMs + dayMs;
  const start = new Date(startMs).toISOString();
  await metrics.maintainPartitions(metricPartitionPlans, new Date(startMs));

  // The metric rows, without their resources (the purge never reads them): foreign keys off.
  const client = await pool.connect();
  try {
    await client.query(`set session_replication_role = replica`);
    await client.query(
      `insert into metric (resource_id, name, unit)
       select gen_random_uuid(), 'metric ' || m, 'Percent'
       from generate_series(1, $1::int) vm cross join generate_series(1, $2::int) m`,
      [fleetSize, metricsPerVm],
    );
  } finally {
    client.release();
  }
  const seedStarted = performance.now();
  // Two hours of points (the expired one and the next) for every metric, and one day of hours and
  // packed days for the sizing.
  await pool.query(
    `insert into metric_point (metric_id, time, value)
     select metric.id, $1::timestamptz + make_interval(mins => minute), random() * 100
     from metric cross join generate_series(0, 119) minute`,
    [start],
  );
  await pool.query(
    `insert into metric_hourly (metric_id, hour, average, maximum, p95)
     select metric.id, $1::timestamptz + make_interval(hours => hour), random() * 50, 50 + random() * 50, 40 + random() * 50
     from metric cross join generate_series(0, 23) hour`,
    [start],
  );
  await pool.query(
    `insert into metric_day (metric_id, day, averages, maximums, p95s, minimums)
     select metric.id, ($1::timestamptz at time zone 'UTC')::date,
            metric_day_pack(hours, values), metric_day_pack(hours, values), metric_day_pack(hours, values),
            metric_day_pack(hours, values)
     from metric cross join lateral (
       select array_agg(hour) as hours, array_agg(random() * 100) as values from generate_series(0, 23) hour
     ) as day`,
    [start],
  );
  // The same points in a table as metric_point was before migration 0021: its key and time index
  // (the index went with migration 0024, once nothing deleted by time).
  await pool.query(`create table metric_point_unpartitioned (like metric_point including all)`);
  await pool.query(`create index on metric_point_unpartitioned (time)`);
  await pool.query(`insert into metric_point_unpartitioned select * from metric_point`);
  await pool.query(`vacuum analyze metric_point, metric_point_unpartitioned, metric_hourly, metric_day`);
  const pointCount = Number((await pool.query(`select count(*) from metric_point`)).rows[0].count);
  console.log(
    `seeded ${pointCount.toLocaleString('en')} points (${fleetSize} VMs) in ${seconds(seedStarted).toFixed(1)} s`,
  );

  const cutoff = new Date(startMs + hourMs).toISOString();

  // Before: the purge as it was, in chunks, then the VACUUM its dead rows need.
  let activity = await watchPostgresActivity(pool);
  let started = performance.now();
  let deleted = 0;
  for (;;) {
    const result = await pool.query(
      `delete from metric_point_unpartitioned where ctid = any(array(
         select ctid from metric_point_unpartitioned where time < $1::timestamptz limit ${purgeChunkSize}))`,
      [cutoff],
    );
    deleted += result.rowCount ?? 0;
    if ((result.rowCount ?? 0) < purgeChunkSize) break;
  }
  const deleteSeconds = seconds(started);
  const deleteWal = (await activity.read()).walBytes;
  started = performance.now();
  await pool.query(`vacuum metric_point_unpartitioned`);
  const vacuumSeconds = seconds(started);
  const vacuumWal = (await activity.read()).walBytes - deleteWal;

  // After: the maintenance 48 hours after the expired hour's end drops its partition. A run an hour
  // earlier has dropped the migration's own (empty) partitions and made those ahead, as the hourly
  // runs before it would have.
  const pointPlans = metricPartitionPlans.filter((plan) => plan.table === 'metric_point');
  await metrics.maintainPartitions(pointPlans, new Date(startMs + 48 * hourMs));
  activity = await watchPostgresActivity(pool);
  started = performance.now();
  const summary = await metrics.maintainPartitions(pointPlans, new Date(startMs + hourMs + 48 * hourMs));
  const dropSeconds = seconds(started);
  const dropWal = (await activity.read()).walBytes;
  const left = Number((await pool.query(`select count(*) from metric_point`)).rows[0].count);
  const leftBefore = Number(
    (await pool.query(`select count(*) from metric_point_unpartitioned`)).rows[0].count,
  );
  if (left !== leftBefore || left !== pointCount - deleted) {
    throw new Error(
      `the purges disagree: ${left} points left after the drop, ${leftBefore} after the delete`,
    );
  }

  printTable(
    ['purge of one expired hour', 'rows', 'seconds', 'WAL MiB'],
    [
      [
        'delete in chunks (before)',
        deleted.toLocaleString('en'),
        deleteSeconds.toFixed(2),
        (deleteWal / 2 ** 20).toFixed(1),
      ],
      ['  + vacuum of its dead rows', '', vacuumSeconds.toFixed(2), (vacuumWal / 2 ** 20).toFixed(1)],
      [
        `partition dropped (after: ${summary.dropped} dropped, ${summary.created} made)`,
        deleted.toLocaleString('en'),
        dropSeconds.toFixed(3),
        (dropWal / 2 ** 20).toFixed(2),
      ],
    ],
  );
  console.log(
    `ratio (after / before, delete + vacuum): ${(dropSeconds / (deleteSeconds + vacuumSeconds)).toFixed(4)}`,
  );

  // The packed days, unpartitioned, beside a partitioned copy: the analysis's read, each VM metric's 14 days of packed
  // days (the 13 days before the seeded one and it), 200 VMs a round trip as RecommendationsRepository
  // reads them, from metric_day and from a copy partitioned by 4 weeks (the 14 days in one or two);
  // the better of two passes each.
  await pool.query(
    `insert into metric_day (metric_id, day, averages, maximums, p95s, minimums)
     select metric.id, ($1::timestamptz at time zone 'UTC')::date - back, day.packed, day.packed, day.packed, day.packed
     from metric cross join generate_series(1, 13) back
     cross join lateral (
       select metric_day_pack(array_agg(hour), array_agg(random() * 100)) as packed
       from generate_series(0, 23) hour where back > 0
     ) as day`,
    [start],
  );
  await pool.query(
    `create table metric_day_by_4_weeks (like metric_day including all) partition by range (day)`,
  );
  await pool.query(`create table metric_day_by_4_weeks_default partition of metric_day_by_4_weeks default`);
  await pool.query(
    `select partition_ensure('metric_day_by_4_weeks', 'day', '28 days', $1::timestamptz - interval '14 days', $1::timestamptz)`,
    [start],
  );
  await pool.query(`insert into metric_day_by_4_weeks select * from metric_day`);
  await pool.query(`vacuum analyze metric_day, metric_day_by_4_weeks`);
  const resourceIds = (
    await pool.query<{ id: string }>(`select distinct resource_id as id from metric`)
  ).rows.map((row) => row.id);
  const lastDay = new Date(startMs).toISOString().slice(0, 10);
  const firstDay = new Date(startMs - 13 * dayMs).toISOString().slice(0, 10);
  const readPass = async (table: string) => {
    const passStarted = performance.now();
    let days = 0;
    for (let index = 0; index < resourceIds.length; index += 200) {
      const { rows } = await pool.query<{ count: number }>(
        `select packed.count from metric cross join lateral (
           select count(*)::int as count, string_agg(day.averages, ''::bytea order by day.day) as averages
           from ${table} as day
           where day.metric_id = metric.id and day.day >= $2::date and day.day <= $3::date
         ) as packed
         where metric.resource_id = any($1::uuid[])`,
        [resourceIds.slice(index, index + 200), firstDay, lastDay],
      );
      days += rows.reduce((sum, row) => sum + row.count, 0);
    }
    return { seconds: seconds(passStarted), days };
  };
  const reads: Record<string, { seconds: number; days: number }> = {};
  for (const table of ['metric_day', 'metric_day_by_4_weeks', 'metric_day', 'metric_day_by_4_weeks']) {
    const pass = await readPass(table);
    if (!reads[table] || pass.seconds < reads[table].seconds) reads[table] = pass;
  }
  const unpartitionedRead = reads.metric_day!;
  const partitionedRead = reads.metric_day_by_4_weeks!;
  if (unpartitionedRead.days !== partitionedRead.days) throw new Error('the two reads found different days');
  printTable(
    ['analysis read of 14 packed days', 'days read', 'seconds'],
    [
      [
        'metric_day, not partitioned',
        unpartitionedRead.days.toLocaleString('en'),
        unpartitionedRead.seconds.toFixed(2),
      ],
      [
        'partitioned by 4 weeks',
        partitionedRead.days.toLocaleString('en'),
        partitionedRead.seconds.toFixed(2),
      ],
    ],
  );

  // Sizing: bytes per row of the partitions holding the kept hour and the day of hours, and of the
  // packed days.
  const partitionName = (table: string, atMs: number, strideMs: number) => {
    const low = new Date(
      Math.floor((atMs - Date.parse('2000-01-03T00:00:00Z')) / strideMs) * strideMs +
        Date.parse('2000-01-03T00:00:00Z'),
    );
    return `${table}_p${low.toISOString().slice(0, 13).replace(/[-T]/g, '')}`;
  };
  const sizes: { table: string; bytesPerRow: number; rowsPerVmDay: number; daysKept: number }[] = [];
  for (const { table, strideMs, retentionMs, rowsPerVmDay } of [
    { table: 'metric_point', strideMs: hourMs, retentionMs: 49 * hourMs, rowsPerVmDay: metricsPerVm * 1440 },
    { table: 'metric_hourly', strideMs: 7 * dayMs, retentionMs: 97 * dayMs, rowsPerVmDay: metricsPerVm * 24 },
    // Not partitioned, purged row by row: the whole table, kept 90 days exactly.
    { table: 'metric_day', strideMs: 0, retentionMs: 90 * dayMs, rowsPerVmDay: metricsPerVm },
  ]) {
    const partition = strideMs > 0 ? partitionName(table, startMs + hourMs, strideMs) : table;
    const { rows } = await pool.query(
      `select pg_total_relation_size($1::regclass)::float8 as bytes, (select count(*) from ${partition})::float8 as count`,
      [partition],
    );
    sizes.push({
      table,
      bytesPerRow: rows[0].bytes / rows[0].count,
      rowsPerVmDay,
      daysKept: retentionMs / dayMs,
    });
  }
  // The bill by day and resource (never purged: the forecast and the savings read its history): a
  // day of each VM's two lines (compute and its OS disk's storage, about what the costs bench's
  // 10,000-VM subscription holds a day: 872,825 resource-days in 90 days for 5,020 resources).
  const costClient = await pool.connect();
  try {
    await costClient.query(`set session_replication_role = replica`);
    await costClient.query(
      `insert into cost_day (tenant_id, subscription_id, resource_id, service_name, resource_group,
         actual_cost, amortized_cost, usage_quantity, currency, actual_read_id, amortized_read_id, day)
       select tenant_id, subscription_id,
              '/subscriptions/' || subscription_id || '/resourcegroups/rg-workload-' || (vm % 40)
                || '/providers/microsoft.compute/' || service.kind || '/vm-' || lpad(vm::text, 6, '0'),
              service.name, 'rg-workload-' || (vm % 40), random() * 20, random() * 20, 24, 'USD',
              read_id, read_id, ($1::timestamptz at time zone 'UTC')::date
       from (select gen_random_uuid() as tenant_id, '0b1c5d2e-8f3a-4b6c-9d7e-1a2b3c4d5e6f' as subscription_id,
                    gen_random_uuid() as read_id) as estate
       cross join generate_series(1, $2::int) vm
       cross join (values ('Virtual Machines', 'virtualmachines'), ('Storage', 'disks')) as service(name, kind)`,
      [start, fleetSize],
    );
  } finally {
    costClient.release();
  }
  const cost = await pool.query(
    `select pg_total_relation_size('cost_day')::float8 as bytes, (select count(*) from cost_day)::float8 as count`,
  );
  const costBytesPerRow = cost.rows[0].bytes / cost.rows[0].count;
  const costGibPerMonth = (costBytesPerRow * 2 * 30 * 100_000) / 2 ** 30;
  const perHundredThousand = (size: (typeof sizes)[number]) =>
    (size.bytesPerRow * size.rowsPerVmDay * size.daysKept * 100_000) / 2 ** 30;
  printTable(
    ['table', 'bytes/row', 'rows/VM/day', 'days kept (at most)', 'GiB per 100,000 VMs'],
    sizes.map((size) => [
      size.table,
      size.bytesPerRow.toFixed(1),
      String(size.rowsPerVmDay),
      size.daysKept.toFixed(1),
      perHundredThousand(size).toFixed(1),
    ]),
  );
  console.log(
    `metric tables at retention, per 100,000 VMs: ${sizes.reduce((sum, size) => sum + perHundredThousand(size), 0).toFixed(1)} GiB`,
  );
  console.log(
    `cost_day: ${costBytesPerRow.toFixed(1)} bytes/row, 2 rows/VM/day: ${costGibPerMonth.toFixed(1)} GiB more per 100,000 VMs every 30 days (kept)`,
  );
} finally {
  await database.close();
  await postgres.stop();
  await rm(dataDir, { recursive: true, force: true });
}
