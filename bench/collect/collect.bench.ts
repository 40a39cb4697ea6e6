// One metric collection cycle for a 10,000-VM estate against the Azure emulator with Azure's
// throttling on: wall time, Azure calls (⌈VMs/50⌉ per subscription and region for the batch
// call), 429s met and honoured, points written per second, and the server's event-loop delay p99
// meanwhile. Targets: cycle ≤ 30 s, event-loop p99 ≤ 20 ms.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { azureEnvironment, startEmulatorProcess } from '../support/emulator-process';
import { connectEstate } from '../support/estate';
import { startBenchServer } from '../support/harness';

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
  // Deallocated machines publish no metrics, so a cycle does not ask for them.
  `select count(*) as machines from resource
    where type = 'Microsoft.Compute/virtualMachines' and power_state is distinct from 'deallocated'
    group by subscription_id, region`,
);
const machineCount = groups.reduce((sum, group) => sum + Number(group.machines), 0);
const expectedBatchCalls = groups.reduce((sum, group) => sum + Math.ceil(Number(group.machines) / 50), 0);

await emulator.resetStats();
const eventLoopDelay = monitorEventLoopDelay({ resolution: 10 });
eventLoopDelay.enable();
const cycleStarted = performance.now();
const summaries = await Promise.all(tenantIds.map((tenantId) => container.metrics.collectTenant(tenantId)));
const cycleSeconds = (performance.now() - cycleStarted) / 1000;
eventLoopDelay.disable();
const stats = await emulator.readStats();

const points = summaries.reduce((sum, summary) => sum + (summary?.pointCount ?? 0), 0);
const failed = summaries.reduce((sum, summary) => sum + (summary?.failedResourceCount ?? 0), 0);
const eventLoopP99 = eventLoopDelay.percentile(99) / 1e6;
const { rows: stored } = await container.database.pool.query<{ count: string }>(
  'select count(*) from metric_point',
);

console.log(
  `\nMetric collection, one cycle (${fleetSize} VMs, ${machineCount} running, in ${groups.length} subscription/region groups)`,
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
console.log(`  resources failed              ${failed}`);
console.log(
  `  points written                ${points} (${stored[0]!.count} rows)   ${(points / cycleSeconds).toFixed(0)} points/s`,
);
console.log(`  event-loop delay p99          ${eventLoopP99.toFixed(1)} ms   (target ≤ 20 ms)`);

await server.stop();
await emulator.stop();
await rm(emulatorDir, { recursive: true, force: true });
