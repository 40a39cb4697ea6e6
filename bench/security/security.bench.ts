// A 10,000-VM estate's security scan (the emulator in a process of its own, Azure's throttling on,
// its pages of 1,000): every tenant scanned as the inventory sync job does, on the VMs and disks the
// sync just read, timed, with the Resource Manager calls the scan made printed beside the floor:
// ⌈resources/page⌉ list calls per type and subscription for what the sync did not read (VMs and
// disks cost the scan nothing), plus the per-server SQL reads Azure offers no list for (firewall
// rules, auditing, the databases and each one's TDE).
// Target: ≤ 30 s. BENCH_FLEET_SIZE sets the estate.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createAzureGateway } from '../../server/src/cloud/azure/azure-gateway';
import type { SecurityInventory } from '../../server/src/cloud/security-inventory';
import { azureEnvironment, startEmulatorProcess } from '../support/emulator-process';
import { connectEstate } from '../support/estate';
import { startBenchServer } from '../support/harness';

const fleetSize = Number(process.env.BENCH_FLEET_SIZE ?? 10_000);
const pageSize = 1000;

const emulatorDir = await mkdtemp(path.join(os.tmpdir(), 'cloudtrim-bench-emulator-'));
const emulator = await startEmulatorProcess({
  dataDir: emulatorDir,
  fleetSize,
  seed: 42,
  throttling: true,
  pageSize,
});
const server = await startBenchServer(azureEnvironment(emulator));
const { container } = server;
const { tenantIds } = await connectEstate(server, emulator, 'security-bench@example.com');
const synced = new Map<string, Awaited<ReturnType<typeof container.inventory.syncTenant>>>();
for (const tenantId of tenantIds) synced.set(tenantId, await container.inventory.syncTenant(tenantId));

await emulator.resetStats();
const started = performance.now();
let findings = 0;
for (const tenantId of tenantIds) {
  const summary = synced.get(tenantId);
  findings += await container.security.scanTenant(tenantId, {}, summary?.resourcesBySubscription);
}
const seconds = (performance.now() - started) / 1000;
const stats = await emulator.readStats();

// The floor, from what the scan read: each list's pages (the VMs and disks came from the sync), each
// SQL server's reads.
function countFloor(inventory: SecurityInventory): { calls: number; resources: number } {
  const lists = [
    inventory.networkSecurityGroups,
    inventory.networkInterfaces,
    inventory.virtualNetworks,
    inventory.networkWatchers,
    inventory.storageAccounts,
    inventory.keyVaults,
    inventory.diagnosticSettings,
    inventory.roleDefinitions,
    inventory.pricings,
    inventory.secureScores,
    inventory.sqlServers,
  ];
  let calls = 0;
  let resources = 0;
  for (const list of lists) {
    calls += Math.max(1, Math.ceil(list.length / pageSize));
    resources += list.length;
  }
  for (const server of inventory.sqlServers) calls += 3 + server.databases.length;
  return { calls, resources };
}

const gateway = createAzureGateway(server.config.azure);
let floor = 0;
let resources = 0;
let subscriptionCount = 0;
for (const tenant of emulator.tenants) {
  const principal = tenant.principals.find((candidate) => candidate.writeSubscriptionIds.length > 0)!;
  const credentials = {
    tenantId: tenant.tenantId,
    applicationId: principal.applicationId,
    secret: principal.secret,
  };
  for (const subscription of tenant.subscriptions) {
    const inventory = await gateway.readSecurityInventory(credentials, subscription.subscriptionId);
    const counted = countFloor(inventory);
    floor += counted.calls;
    resources += counted.resources;
    subscriptionCount += 1;
  }
}

console.log(
  `\nSecurity scan of ${fleetSize} VMs after the sync (${resources} more resources read in ${subscriptionCount} subscriptions):`,
);
console.log(`  findings              ${findings}`);
console.log(`  Resource Manager reads ${stats.calls['arm-read']} (429s met: ${stats.throttled})`);
console.log(
  `  floor                 ${floor} (⌈resources/${pageSize}⌉ per type and subscription + SQL per server)`,
);
console.log(`  wall time             ${seconds.toFixed(1)} s (target ≤ 30 s)`);

await server.stop();
await emulator.stop();
await rm(emulatorDir, { recursive: true, force: true });
