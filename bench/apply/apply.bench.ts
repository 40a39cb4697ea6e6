// 1,000 resizes due in the same maintenance-window hour across 1,000 VMs, against the Azure emulator
// (in a process of its own) with Azure's throttling on, carried out as production does: the
// dispatch job claims the due changes and sends their executions in one transaction, the job
// thread works them off. Reports: all done, 429s met, retries sent before their Retry-After (must be
// 0), the wall time against the floor Azure's write budgets allow, and the event-loop delay p99 of the
// thread serving the API meanwhile.
// Targets: every change succeeded exactly once, 0 unhonoured 429s, event-loop p99 ≤ 20 ms.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { listSizesOfferedInRegion } from '@cloudtrim/azure-emulator/catalog/sku.catalog';
import { azureThrottleLimits } from '@cloudtrim/azure-emulator/throttle/throttle.policy';
import { automationDispatchJob } from '../../server/src/queue/automation-work';
import { startJobThread } from '../../server/src/jobs/job-thread';
import { azureEnvironment, startEmulatorProcess } from '../support/emulator-process';
import { connectEstate } from '../support/estate';
import { monitorEventLoop } from '../support/event-loop';
import { startBenchServer } from '../support/harness';

const changeCount = Number(process.env.BENCH_CHANGES ?? 1000);
const fleetSize = Number(process.env.BENCH_FLEET_SIZE ?? Math.ceil(changeCount * 1.6));
const operationDurationMs = Number(process.env.BENCH_OPERATION_MS ?? 1000);

const emulatorDir = await mkdtemp(path.join(os.tmpdir(), 'cloudtrim-bench-emulator-'));
const emulator = await startEmulatorProcess({
  dataDir: emulatorDir,
  fleetSize,
  seed: 42,
  throttling: true,
  operationDurationMs,
});
const server = await startBenchServer(azureEnvironment(emulator));
const { container } = server;
const { pool } = container.database;
const { teamId, tenantIds } = await connectEstate(server, emulator, 'apply-bench@example.com');
await Promise.all(tenantIds.map((tenantId) => container.inventory.syncTenant(tenantId)));
// The syncs queued back-fills and first collections; this run measures the changes alone.
await pool.query(`delete from pgboss.job where name like 'metrics-%' or name like 'inventory-%'`);

// Running VMs of tenants that may write, each with a recommendation to another size of its family.
const { rows: machines } = await pool.query<{
  id: string;
  tenant_id: string;
  subscription_id: string;
  region: string;
  sku: string;
}>(
  `select r.id, r.tenant_id, r.subscription_id, r.region, r.sku from resource r
     join tenant t on t.id = r.tenant_id
    where r.type = 'Microsoft.Compute/virtualMachines' and r.power_state = 'running'
      and t.can_write is distinct from false
    order by r.id limit $1`,
  [changeCount],
);
if (machines.length < changeCount) {
  throw new Error(`only ${machines.length} running VMs can be written; raise BENCH_FLEET_SIZE`);
}
const writesBySubscription = new Map<string, number>();
for (const machine of machines) {
  const current = listSizesOfferedInRegion(machine.region).find((size) => size.name === machine.sku);
  const target = listSizesOfferedInRegion(machine.region).find(
    (size) => size.family === current?.family && size.name !== machine.sku,
  );
  if (!target) throw new Error(`no other size of ${machine.sku}'s family in ${machine.region}`);
  const { rows } = await pool.query<{ id: string }>(
    `insert into recommendation (team_id, tenant_id, resource_id, kind, prediction_method, current_size,
       target_size, recommendation, annual_cost_savings)
     values ($1, $2, $3, 'resize', 'cloudtrim-forecast', $4, $5, $6, 100) returning id`,
    [teamId, machine.tenant_id, machine.id, machine.sku, target.name, `Resize to ${target.name}`],
  );
  await container.automation.service.applyRecommendation(teamId, Number(rows[0]!.id), 'window');
  writesBySubscription.set(
    machine.subscription_id,
    (writesBySubscription.get(machine.subscription_id) ?? 0) + 1,
  );
}
// The window opens: every change is due now.
await pool.query(
  `update scheduled_change set change_at = now() - interval '1 second' where state = 'planned'`,
);

// The floor: each subscription's writes drain its bucket (capacity, then the refill rate); the
// subscriptions drain side by side; one operation's duration follows the last write. Each VM is
// written once, far inside Compute's per-VM update budget.
const { writeCapacity, writeRefillPerSecond } = azureThrottleLimits;
const floorSeconds =
  Math.max(
    ...[...writesBySubscription.values()].map(
      (writes) => Math.max(0, writes - writeCapacity) / writeRefillPerSecond,
    ),
  ) +
  operationDurationMs / 1000;

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
await emulator.resetStats();
const eventLoop = monitorEventLoop();
const started = performance.now();
// What the every-minute schedule sends when the window opens.
await container.queue.send(automationDispatchJob, {});
const outcome = await waitForChanges();
const wallSeconds = (performance.now() - started) / 1000;
const eventLoopDelay = eventLoop.stop();
const stats = await emulator.readStats();
await jobThread.stop();

const { rows: submitted } = await pool.query<{ count: string; duplicates: string }>(
  `select count(*) as count, count(*) filter (where entries > 1) as duplicates from (
     select scheduled_change_id, count(*) as entries from automation_log
      where action like 'Resize to % submitted' group by scheduled_change_id) per_change`,
);

console.log(
  `\nApplying ${changeCount} resizes due in one window (${writesBySubscription.size} subscriptions, operations of ${operationDurationMs} ms, throttling on)`,
);
console.log(
  `  changes                       ${outcome.succeeded} succeeded, ${outcome.failed} failed   (target: all ${changeCount} succeeded)`,
);
console.log(
  `  resize PATCHes sent           ${stats.calls['arm-write']}   (one per change: ${stats.calls['arm-write'] === changeCount ? 'yes' : 'NO'}); 'submitted' log entries ${submitted[0]!.count}, duplicated ${submitted[0]!.duplicates}`,
);
console.log(`  Resource Manager reads        ${stats.calls['arm-read']}`);
console.log(
  `  429s met                      ${stats.throttled}; retries before Retry-After ${stats.retriesBeforeRetryAfter}   (target 0)`,
);
console.log(`  server errors injected        ${stats.faultsInjected}`);
console.log(
  `  wall time                     ${wallSeconds.toFixed(1)} s; floor ${floorSeconds.toFixed(1)} s (writes ${writeCapacity} then ${writeRefillPerSecond}/s per subscription, plus one operation); ratio ${(wallSeconds / floorSeconds).toFixed(2)}`,
);
console.log(
  `  API thread event-loop delay   p99 ${eventLoopDelay.p99Milliseconds.toFixed(1)} ms, max ${eventLoopDelay.maxMilliseconds.toFixed(1)} ms   (target p99 ≤ 20 ms)`,
);

await server.stop();
await emulator.stop();
await rm(emulatorDir, { recursive: true, force: true });

// Until no change is pending, as the change rows record it.
async function waitForChanges(): Promise<{ succeeded: number; failed: number }> {
  for (;;) {
    const { rows } = await pool.query<{ pending: number; succeeded: number; failed: number }>(
      `select count(*) filter (where state in ('planned', 'claimed', 'submitted'))::int as pending,
              count(*) filter (where state = 'succeeded')::int as succeeded,
              count(*) filter (where state = 'failed')::int as failed
         from scheduled_change`,
    );
    if (rows[0]!.pending === 0) return rows[0]!;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
