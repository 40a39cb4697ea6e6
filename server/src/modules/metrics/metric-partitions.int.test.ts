// The points and hours partitioned by time (migration 0021): the migration keeps what was written
// before it, the maintenance makes partitions ahead and drops expired ones, a row at a time with no
// partition still lands, and the maintenance run twice changes nothing the second time.
import { randomUUID } from 'node:crypto';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { applyMigrations, openDatabase, type Database } from '../../db/database';
import { createTestDatabase } from '../../../test/helper';
import { dayMs, hourMs, minuteMs } from '../../lib/time';
import { metricPartitionPlans } from './metric-partitions';
import { MetricsRepository } from './metrics.repository';

const migrationsFolder = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../drizzle');

// A metric row of its own: its resource is not needed by these tables, so it is written with the
// foreign keys' triggers off (the superuser's session_replication_role).
async function insertMetric(url: string): Promise<string> {
  const id = randomUUID();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`set session_replication_role = replica`);
    await client.query(
      `insert into metric (id, resource_id, name, unit) values ($1, $2, 'Percentage CPU', 'Percent')`,
      [id, randomUUID()],
    );
  } finally {
    await client.end();
  }
  return id;
}

// Every row of the three tables, as text, in one order.
async function readAll(database: Database): Promise<string[]> {
  const result = await database.db.execute<{ row: string }>(sql`
    select 'point ' || metric_id || ' ' || to_char(time at time zone 'UTC', 'YYYY-MM-DD HH24:MI') || ' ' || value as row
    from metric_point
    union all
    select 'hour ' || metric_id || ' ' || to_char(hour at time zone 'UTC', 'YYYY-MM-DD HH24') || ' ' || average || ' ' || maximum || ' ' || p95
    from metric_hourly
    union all
    select 'day ' || metric_id || ' ' || day || ' ' || encode(averages, 'hex') || encode(minimums, 'hex') from metric_day
    order by 1`);
  return result.rows.map((row) => row.row);
}

// Rows of the three tables at times around `nowMs`: the last 50 hours of points, 100 days of hours
// and packed days, and a few ahead of any partition.
async function writeRows(database: Database, metricId: string, nowMs: number): Promise<void> {
  const hour = new Date(Math.floor(nowMs / hourMs) * hourMs).toISOString();
  await database.db.execute(sql`
    insert into metric_point (metric_id, time, value)
    select ${metricId}::uuid, ${hour}::timestamptz + make_interval(mins => m), m * 0.5
    from generate_series(-50 * 60, 2 * 24 * 60, 7) m`);
  await database.db.execute(sql`
    insert into metric_hourly (metric_id, hour, average, maximum, p95)
    select ${metricId}::uuid, ${hour}::timestamptz + make_interval(hours => h), h, h + 2, h + 1
    from generate_series(-100 * 24, 30 * 24, 5) h`);
  await database.db.execute(sql`
    insert into metric_day (metric_id, day, averages, maximums, p95s, minimums)
    select ${metricId}::uuid, (${hour}::timestamptz at time zone 'UTC')::date + d,
      int4send(d), int4send(d + 1), int4send(d + 2), int4send(d + 3)
    from generate_series(-100, 30) d`);
}

async function partitionsOf(database: Database, table: string): Promise<string[]> {
  const result = await database.db.execute<{ name: string }>(sql`
    select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
    where i.inhparent = ${table}::regclass order by 1`);
  return result.rows.map((row) => row.name);
}

describe('migration 0021', () => {
  let folder: string;
  let database: Database;
  let url: string;

  beforeAll(async () => {
    // A database migrated up to 0020 only, from a copy of the migrations whose journal stops there.
    folder = await mkdtemp(path.join(os.tmpdir(), 'cloudtrim-migrations-'));
    await cp(migrationsFolder, folder, { recursive: true });
    const journalPath = path.join(folder, 'meta/_journal.json');
    const journal = JSON.parse(await readFile(journalPath, 'utf8')) as { entries: { tag: string }[] };
    const index = journal.entries.findIndex((entry) => entry.tag === '0021_metric_partitions');
    await writeFile(journalPath, JSON.stringify({ ...journal, entries: journal.entries.slice(0, index) }));
    const adminUrl = new URL(inject('databaseAdminUrl'));
    const name = `test_${randomUUID().replaceAll('-', '')}`;
    const admin = new pg.Client({ connectionString: adminUrl.toString() });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    adminUrl.pathname = `/${name}`;
    url = adminUrl.toString();
    database = await openDatabase(url, { maxConnections: 2 });
    await migrate(database.db, { migrationsFolder: folder });
  });
  afterAll(async () => {
    await database.close();
    await rm(folder, { recursive: true, force: true });
  });

  it('partitions the points and hours (not the packed days), reading the rows written before it and after it the same', async () => {
    const before = await insertMetric(url);
    await writeRows(database, before, Date.now());
    const written = await readAll(database);
    expect(written.length).toBeGreaterThan(1000);

    await applyMigrations(database);
    expect(await readAll(database)).toEqual(written);
    const kinds = await database.db.execute<{ name: string; kind: string }>(sql`
      select relname as name, relkind::text as kind from pg_class
      where relname in ('metric_point', 'metric_hourly', 'metric_day') order by 1`);
    expect(kinds.rows).toEqual([
      { name: 'metric_day', kind: 'r' },
      { name: 'metric_hourly', kind: 'p' },
      { name: 'metric_point', kind: 'p' },
    ]);
    // The points as they were are the partition of everything before the present hour's end, and
    // none is left in the default partition but those past the hours made ahead.
    const points = await database.db.execute<{ partition: string; count: number }>(sql`
      select tableoid::regclass::text as partition, count(*)::int as count from metric_point
      where time < now() + interval '6 hours' group by 1 order by 1`);
    const hour = new Date(Math.floor(Date.now() / hourMs) * hourMs)
      .toISOString()
      .slice(0, 13)
      .replace(/[-T]/g, '');
    expect(points.rows.map((row) => row.partition)).toContain(`metric_point_p${hour}`);
    expect(points.rows.every((row) => /^metric_point_p\d{10}$/.test(row.partition))).toBe(true);

    const after = await insertMetric(url);
    await writeRows(database, after, Date.now());
    const both = await readAll(database);
    expect(both.filter((row) => row.includes(before))).toEqual(written);
    expect(both.filter((row) => row.includes(after))).toEqual(
      written.map((row) => row.replaceAll(before, after)),
    );
  });
});

describe('partition maintenance', () => {
  let database: Database;
  let url: string;
  let metrics: MetricsRepository;
  // Far from the template's own partitions (made at the run's real time): a Wednesday, 10:20 UTC.
  const startMs = Date.parse('2031-04-16T10:20:00Z');

  beforeAll(async () => {
    url = await createTestDatabase();
    database = await openDatabase(url, { maxConnections: 2 });
    metrics = new MetricsRepository(database.db);
  });
  afterAll(() => database.close());

  const countIn = async (partition: string) =>
    (
      await database.db.execute<{ count: number }>(
        sql`select count(*)::int as count from ${sql.identifier(partition)}`,
      )
    ).rows[0]!.count;

  it('lands a row at a time with no partition in the default one, moved into its partition once made', async () => {
    const metricId = await insertMetric(url);
    await database.db.execute(sql`
      insert into metric_point (metric_id, time, value)
      values (${metricId}::uuid, ${new Date(startMs).toISOString()}::timestamptz, 1.5)`);
    await database.db.execute(sql`
      insert into metric_hourly (metric_id, hour, average, maximum, p95)
      values (${metricId}::uuid, ${new Date(startMs - 20 * minuteMs).toISOString()}::timestamptz, 1, 2, 3)`);
    expect(await countIn('metric_point_default')).toBe(1);
    expect(await countIn('metric_hourly_default')).toBe(1);

    const first = await metrics.maintainPartitions(metricPartitionPlans, new Date(startMs));
    // 10:00 to 16:00 by the hour; the weeks from Monday 2031-04-14 to two weeks ahead.
    expect(first.created).toBe(7 + 3);
    expect(await countIn('metric_point_default')).toBe(0);
    expect(await countIn('metric_point_p2031041610')).toBe(1);
    expect(await countIn('metric_hourly_p2031041400')).toBe(1);
    const point = await database.db.execute<{ value: number }>(
      sql`select value from metric_point where metric_id = ${metricId}::uuid`,
    );
    expect(point.rows).toEqual([{ value: 1.5 }]);
  });

  it('reads only the partitions a time-bounded query needs', async () => {
    const since = new Date(startMs + 3 * hourMs).toISOString();
    const plan = await database.db.execute<{ 'QUERY PLAN': unknown }>(sql`
      explain (format json) select time, value from metric_point
      where metric_id = ${randomUUID()}::uuid and time >= ${since}::timestamptz`);
    const scanned = JSON.stringify(plan.rows[0]!['QUERY PLAN']);
    expect(scanned).toContain('metric_point_p2031041613');
    expect(scanned).toContain('metric_point_p2031041616');
    expect(scanned).not.toContain('metric_point_p2031041610');
    expect(scanned).not.toContain('metric_point_p2031041612');
  });

  it('is idempotent: a second run at the same time makes, drops and deletes nothing', async () => {
    const tables = ['metric_point', 'metric_hourly'];
    const before = await Promise.all(tables.map((table) => partitionsOf(database, table)));
    expect(await metrics.maintainPartitions(metricPartitionPlans, new Date(startMs))).toEqual({
      created: 0,
      dropped: 0,
      deleted: 0,
    });
    expect(await Promise.all(tables.map((table) => partitionsOf(database, table)))).toEqual(before);
  });

  it('drops the partitions wholly past retention, keeps the rest, and deletes expired rows of the default', async () => {
    const metricId = await insertMetric(url);
    // Points at 10:20 (in 10:00's partition, from the first test), 11:30 and 12:10, one far behind
    // in the default partition; made at the start, partitions cover 10:00 to 17:00.
    await database.db.execute(sql`
      insert into metric_point (metric_id, time, value) values
        (${metricId}::uuid, ${new Date(startMs + 70 * minuteMs).toISOString()}::timestamptz, 2),
        (${metricId}::uuid, ${new Date(startMs + 110 * minuteMs).toISOString()}::timestamptz, 3),
        (${metricId}::uuid, ${new Date(startMs - 30 * dayMs).toISOString()}::timestamptz, 4)`);
    expect(await countIn('metric_point_default')).toBe(1);

    // 48 hours after 12:00: the hours from 10:00 and 11:00 are wholly past, 12:00's not yet.
    const later = new Date(startMs + 48 * hourMs + 100 * minuteMs);
    const summary = await metrics.maintainPartitions(metricPartitionPlans, later);
    expect(summary.dropped).toBe(2);
    expect(summary.deleted).toBe(1);
    const points = await database.db.execute<{ value: number }>(
      sql`select value from metric_point order by value`,
    );
    expect(points.rows).toEqual([{ value: 3 }]);
    const partitions = await partitionsOf(database, 'metric_point');
    expect(partitions).not.toContain('metric_point_p2031041610');
    expect(partitions).not.toContain('metric_point_p2031041611');
    expect(partitions).toContain('metric_point_p2031041612');
    expect(partitions).toContain('metric_point_p2031041816');
    // The weeks are kept: 90 days have not passed.
    expect(await partitionsOf(database, 'metric_hourly')).toContain('metric_hourly_p2031041400');

    const next = await metrics.maintainPartitions(metricPartitionPlans, later);
    expect(next).toEqual({ created: 0, dropped: 0, deleted: 0 });
  });
});
