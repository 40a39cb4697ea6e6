// The recommendations-analyse job on a 10,000-VM estate (BENCH_FLEET_SIZE to change it): the job's
// whole path, PostgreSQL reads of 14 days of hourly CPU, memory and network per VM, the rightsizing
// core, and the writes, run on this thread (the API's, as a single-threaded server would run it;
// production runs it on the job thread), with the event-loop delay measured meanwhile.
// The packed days the analysis reads are written by SQL (a daily cycle with per-VM scale and noise)
// rather than back-filled through the emulator, which would take minutes; the hourly rows they copy
// are not seeded, since the analysis never reads them (nor 1-minute points).
// Targets (issue 7 §4): 10,000 VMs ≤ 5 s; event-loop p99 ≤ 20 ms.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { azureEnvironment, startEmulatorProcess } from '../support/emulator-process';
import { connectEstate } from '../support/estate';
import { monitorEventLoop } from '../support/event-loop';
import { startBenchServer } from '../support/harness';

const fleetSize = Number(process.env.BENCH_FLEET_SIZE ?? 10_000);
const emulatorDir = await mkdtemp(path.join(os.tmpdir(), 'cloudtrim-bench-emulator-'));
const emulator = await startEmulatorProcess({ dataDir: emulatorDir, fleetSize, seed: 42 });
const server = await startBenchServer(azureEnvironment(emulator));
const { container } = server;
const { pool } = container.database;

const { tenantIds } = await connectEstate(server, emulator, 'analyse-bench@example.com');
await Promise.all(tenantIds.map((tenantId) => container.inventory.syncTenant(tenantId)));
for (const tenantId of tenantIds) await container.pricing.ensureFreshForTenant(tenantId);
// Only the analysis is measured: the sync's queued back-fill and collections are dropped.
await pool.query(`delete from pgboss.job where name like 'metrics-%'`);

const seedStarted = performance.now();
const hourMs = 3_600_000;
const untilMs = Math.floor(Date.now() / hourMs) * hourMs;
// Each metric's 14 days packed a UTC day to a row (metric_day, what the analysis reads), day by day
// as the roll-up creates each day's rows at its first hour: a daily cycle per VM with noise, the
// last day's hours carrying their lowest minute as hours rolled up from 1-minute points do.
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
     and metric.name in ('Percentage CPU', 'Available Memory Bytes', 'Network In Total', 'Network Out Total')
   order by days.day`,
  [new Date(untilMs).toISOString()],
);
await pool.query(
  `update metric set last_collected_at = $1::timestamptz
   from resource where resource.id = metric.resource_id and resource.type = 'Microsoft.Compute/virtualMachines'`,
  [new Date(untilMs).toISOString()],
);
// As autovacuum leaves a table hours after its inserts: hint bits set, statistics current. Read
// straight after a bulk insert, every page would first be dirtied and written back.
await pool.query('vacuum analyze metric_day');
const seedSeconds = (performance.now() - seedStarted) / 1000;
const { rows: counted } = await pool.query<{ machines: number; days: number }>(
  `select (select count(*)::int from resource where type = 'Microsoft.Compute/virtualMachines') as machines,
          (select count(*)::int from metric_day) as days`,
);

// Where the time goes: the repository's reads and writes are timed; the rest is the engine and the
// job's own shaping of its input.
const phaseMs = new Map<string, number>();
const repository = (container.recommendations as unknown as { recommendations: Record<string, unknown> })
  .recommendations;
for (const name of ['listDueVmIds', 'findVms', 'listHourlySeries', 'listOpen', 'writeAnalysis']) {
  const original = repository[name] as (...parameters: unknown[]) => Promise<unknown>;
  repository[name] = async (...parameters: unknown[]) => {
    const phaseStarted = performance.now();
    try {
      return await original.apply(repository, parameters);
    } finally {
      phaseMs.set(name, (phaseMs.get(name) ?? 0) + performance.now() - phaseStarted);
    }
  };
}

// The reads alone, every VM's hourly series batch by batch as the job reads them: with the next
// batch read during the analysis of the current one, the job's own phases overlap.
const readStarted = performance.now();
const { rows: vmIds } = await pool.query<{ id: string }>(
  `select id from resource where type = 'Microsoft.Compute/virtualMachines' order by id`,
);
const readUntil = new Date(untilMs);
for (let start = 0; start < vmIds.length; start += 200) {
  await container.recommendations['recommendations'].listHourlySeries(
    vmIds.slice(start, start + 200).map((row) => row.id),
    new Date(untilMs - 14 * 24 * hourMs),
    readUntil,
  );
}
const readSeconds = (performance.now() - readStarted) / 1000;
phaseMs.clear();

const eventLoop = monitorEventLoop();
const started = performance.now();
const summaries = [];
for (const tenantId of tenantIds) summaries.push(await container.recommendations.analyseTenant(tenantId));
const seconds = (performance.now() - started) / 1000;
const delay = eventLoop.stop();

const analysed = summaries.reduce((sum, summary) => sum + (summary?.analysedCount ?? 0), 0);
const created = summaries.reduce((sum, summary) => sum + (summary?.newCount ?? 0), 0);
const { rows: kinds } = await pool.query<{ kind: string; count: number }>(
  `select kind, count(*)::int as count from recommendation group by kind order by kind`,
);

// A second pass over the same hours finds nothing due: the cost of a cycle with no new hour.
const idleStarted = performance.now();
for (const tenantId of tenantIds) await container.recommendations.analyseTenant(tenantId);
const idleSeconds = (performance.now() - idleStarted) / 1000;

console.log(
  `\nRecommendation analysis (${counted[0]!.machines} VMs, ${counted[0]!.days} packed metric-days seeded in ${seedSeconds.toFixed(1)} s)`,
);
console.log(
  `  analysed                      ${analysed} VMs in ${seconds.toFixed(2)} s   (target 10,000 ≤ 5 s)`,
);
console.log(
  `  recommendations               ${created} (${kinds.map((row) => `${row.kind} ${row.count}`).join(', ')})`,
);
console.log(
  `  event-loop delay (this thread) p99 ${delay.p99Milliseconds.toFixed(1)} ms, max ${delay.maxMilliseconds.toFixed(1)} ms   (target p99 ≤ 20 ms)`,
);
console.log(`  next cycle, nothing due       ${idleSeconds.toFixed(2)} s`);
console.log(
  `  hourly series read alone      ${readSeconds.toFixed(2)} s (before the run, batch after batch)`,
);
console.log(
  `  time in PostgreSQL calls      ${[...phaseMs].map(([name, ms]) => `${name} ${(ms / 1000).toFixed(2)} s`).join(', ')}`,
);

await server.stop();
await emulator.stop();
await rm(emulatorDir, { recursive: true, force: true });
