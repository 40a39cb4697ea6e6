// One metric collection cycle for a 10,000-VM estate against the Azure emulator with Azure's
// throttling on, run as production runs it: the schedule's fan-out job queues one collection per
// tenant, worked off by the job thread. The cycle is the one the schedule runs every 5 minutes (each
// metric's last 5 minutes); a newly connected estate's first collection (60 minutes, 12 times the
// points) is measured after it. Reports wall time (queued to done), Azure calls (⌈VMs/50⌉
// per subscription and region for the batch call), 429s met and honoured, points written per
// second, the event-loop delay p99 of the thread serving the API meanwhile, and the peak RSS of
// this process in each phase (its main thread and the job thread, as a ROLE=all process has them).
// Targets: cycle ≤ 30 s, event-loop p99 ≤ 20 ms, RSS ≤ 1 GiB.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { azureEnvironment, startEmulatorProcess } from '../support/emulator-process';
import { connectEstate } from '../support/estate';
import { startJobThread } from '../../server/src/jobs/job-thread';
import { monitorEventLoop } from '../support/event-loop';
import { startBenchServer } from '../support/harness';
import { describePostgresActivity, watchPostgresActivity } from '../support/postgres-activity';
import { formatResident, sampleMemory } from '../support/process-memory';

const fleetSize = Number(process.env.BENCH_FLEET_SIZE ?? 10_000);
const emulatorDir = await mkdtemp(path.join(os.tmpdir(), 'cloudtrim-bench-emulator-'));
const emulator = await startEmulatorProcess({ dataDir: emulatorDir, fleetSize, seed: 42, throttling: true });
const server = await startBenchServer(azureEnvironment(emulator));
const { container } = server;

const { tenantIds } = await connectEstate(server, emulator, 'collect-bench@example.com');

const syncStarted = performance.now();
await Promise.all(tenantIds.map((tenantId) => container.inventory.syncTenant(tenantId)));
const syncSeconds = (performance.now() - syncStarted) / 1000;

const { rows: groups } = await container.database.pool.query<{ machines: string }>(
  // Deallocated machines publish no metrics, so a cycle does not ask for them. B-series machines are
  // asked for their CPU credits too, so they are batched apart.
  `select count(*) as machines from resource
    where type = 'Microsoft.Compute/virtualMachines' and power_state is distinct from 'deallocated'
    group by subscription_id, region, lower(sku) ~ '^standard_b[0-9]'`,
);
const machineCount = groups.reduce((sum, group) => sum + Number(group.machines), 0);
const expectedBatchCalls = groups.reduce((sum, group) => sum + Math.ceil(Number(group.machines) / 50), 0);

// Connecting queued each tenant's inventory sync, which the run did above, and the sync queued the new
// resources' back-fill and first collection; this run measures one collection cycle alone, so that
// queued work is dropped (the queued syncs, left, would run a second sync of 10,000 VMs beside the cycle
// on the job thread).
await container.database.pool.query(
  `delete from pgboss.job where name like 'metrics-%' or (name = 'inventory-sync' and state = 'created')`,
);
const jobThread = await startJobThread(
  {
    config: server.config,
    secrets: server.secrets,
    databaseUrl: server.databaseUrl,
    isScheduling: false,
    foreground: server.foreground.buffer,
  },
  (error) => {
    throw error;
  },
);

// A newly connected estate's first collection: every metric's last 60 minutes (and the B-series
// VMs' credit metrics created).
const firstActivity = await watchPostgresActivity(container.database.pool);
const firstMemory = sampleMemory([{ label: 'bench', pid: process.pid }]);
const firstStarted = performance.now();
await container.metrics.enqueueCollectionForAllTenants();
const firstJobs = await waitForCollections(tenantIds.length);
const firstSeconds = (performance.now() - firstStarted) / 1000;
const firstPeak = firstMemory.stop().get('bench')!.bytes;
const firstPostgres = await firstActivity.read();
const firstPoints = await countPoints();

// The cycle the schedule runs every 5 minutes: each metric collected up to the previous cycle's end,
// 5 minutes before its own (the minutes after that mark are dropped, so it reads and writes them).
await startAtFiveMinuteCycle();
await container.database.pool.query(
  `delete from pgboss.job where name = 'metrics-collect' or (name = 'recommendations-analyse' and state = 'created')`,
);
const pointsBefore = await countPoints();
await emulator.resetStats();
const eventLoop = monitorEventLoop();
const cycleActivity = await watchPostgresActivity(container.database.pool);
const cycleMemory = sampleMemory([{ label: 'bench', pid: process.pid }]);
const cycleStarted = performance.now();
await container.metrics.enqueueCollectionForAllTenants();
const jobs = await waitForCollections(tenantIds.length);
const cycleSeconds = (performance.now() - cycleStarted) / 1000;
const cyclePeak = cycleMemory.stop().get('bench')!.bytes;
const cyclePostgres = await cycleActivity.read();
const eventLoopDelay = eventLoop.stop();
const stats = await emulator.readStats();
const points = (await countPoints()) - pointsBefore;
await jobThread.stop();
const { rows: failures } = await container.database.pool.query<{ log_text: string }>(
  `select log_text from activity_log where service_name = 'Metrics'`,
);

console.log(
  `\nMetric collection, one 5-minute cycle (${fleetSize} VMs, ${machineCount} running, in ${groups.length} subscription/region groups, B-series apart)`,
);
console.log(`  inventory sync beforehand     ${syncSeconds.toFixed(1)} s`);
console.log(`  cycle wall time               ${cycleSeconds.toFixed(2)} s   (target ≤ 30 s)`);
console.log(
  `  getBatch calls                ${stats.calls.getBatch}   (⌈VMs/50⌉ per group: ${expectedBatchCalls}; ${
    stats.calls.getBatch === expectedBatchCalls ? 'as expected' : 'MISMATCH'
  })`,
);
console.log(`  per-resource metric calls     ${stats.calls.metrics}   (App Service plans, SQL databases)`);
console.log(`  429s met and honoured         ${stats.throttled}`);
console.log(`  collection jobs               ${jobs.completed} completed, ${jobs.failed} failed`);
console.log(
  `  failures reported             ${failures.length ? failures.map((row) => row.log_text).join('; ') : 'none'}`,
);
console.log(`  points written                ${points}   ${(points / cycleSeconds).toFixed(0)} points/s`);
console.log(`  PostgreSQL meanwhile          ${describePostgresActivity(cyclePostgres)}`);
console.log(
  `  API thread event-loop delay   p99 ${eventLoopDelay.p99Milliseconds.toFixed(1)} ms, max ${eventLoopDelay.maxMilliseconds.toFixed(1)} ms   (target p99 ≤ 20 ms; the job thread does the work)`,
);
console.log(
  `  peak RSS of this process      ${formatResident(cyclePeak)} in the cycle, ${formatResident(firstPeak)} in the first collection   (target ≤ 1 GiB; the API's thread and the job thread, as ROLE=all runs them)`,
);
console.log(
  `  first collection (60 minutes) ${firstSeconds.toFixed(2)} s   ${firstPoints} points, ${(firstPoints / firstSeconds).toFixed(0)} points/s (${firstJobs.completed} completed, ${firstJobs.failed} failed; once per new resource, within the 5-minute schedule); PostgreSQL meanwhile ${describePostgresActivity(firstPostgres)}`,
);

// For comparison, a 5-minute cycle again on this (the API's) thread, as a single-threaded server
// would run it.
await startAtFiveMinuteCycle();
const sameThreadLoop = monitorEventLoop();
const sameThreadStarted = performance.now();
await Promise.all(tenantIds.map((tenantId) => container.metrics.collectTenant(tenantId)));
const sameThreadSeconds = (performance.now() - sameThreadStarted) / 1000;
const sameThreadDelay = sameThreadLoop.stop();
console.log(
  `  for comparison, on the API's own thread: delay p99 ${sameThreadDelay.p99Milliseconds.toFixed(1)} ms, max ${sameThreadDelay.maxMilliseconds.toFixed(1)} ms (cycle ${sameThreadSeconds.toFixed(2)} s)`,
);

await server.stop();
await emulator.stop();
await rm(emulatorDir, { recursive: true, force: true });

// Every metric collected up to 5 minutes before the minute a cycle starting now reads to (Azure's
// ingestion delay, 2 minutes, before now), as the cycle before it leaves them.
async function startAtFiveMinuteCycle(): Promise<void> {
  await container.database.pool.query(
    `with mark as (select date_trunc('minute', now() - interval '2 minutes') - interval '5 minutes' as until),
          dropped as (delete from metric_point where time >= (select until from mark))
     update metric set last_collected_at = (select until from mark)`,
  );
}

async function countPoints(): Promise<number> {
  const { rows } = await container.database.pool.query<{ count: string }>(
    'select count(*) from metric_point',
  );
  return Number(rows[0]!.count);
}

// Until every tenant's collection job has ended, as pg-boss records it.
async function waitForCollections(expected: number): Promise<{ completed: number; failed: number }> {
  for (;;) {
    const { rows } = await container.database.pool.query<{ completed: number; failed: number }>(
      `select count(*) filter (where state = 'completed')::int as completed,
              count(*) filter (where state = 'failed')::int as failed
         from pgboss.job where name = 'metrics-collect'`,
    );
    const [counts] = rows;
    if (counts!.completed + counts!.failed >= expected) return counts!;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
