// GET /api/v1/resource and GET /api/v1/log with a 10,000-resource estate, 10 connections, each
// beside a bare Fastify route answering the same bytes from memory. Target: p99 ≤ 25 ms.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { azureEnvironment, startEmulatorProcess } from '../support/emulator-process';
import { benchPassword, connectEstate } from '../support/estate';
import { measure, printComparison, startBaseline, startBenchServer } from '../support/harness';

const fleetSize = Number(process.env.BENCH_FLEET_SIZE ?? 10_000);
const activityEntries = 10_000;
const emulatorDir = await mkdtemp(path.join(os.tmpdir(), 'cloudtrim-bench-emulator-'));
const emulator = await startEmulatorProcess({ dataDir: emulatorDir, fleetSize, seed: 42, throttling: true });
const server = await startBenchServer(azureEnvironment(emulator));
const { container } = server;

const { teamId, tenantIds } = await connectEstate(server, emulator, 'api-bench@example.com');
for (const tenantId of tenantIds) await container.inventory.syncTenant(tenantId);
// A long activity history, as months of syncs would leave.
await container.database.pool.query(
  `insert into activity_log (team_id, service_name, resource_arm_id, log_text, created_at)
   select $1, 'Inventory', arm_id, 'Resource read: size ' || coalesce(sku, 'n/a'), now() - (n || ' seconds')::interval
     from generate_series(1, $2) as n
     join lateral (select arm_id, sku from resource offset (n % 1000) limit 1) as picked on true`,
  [teamId, activityEntries],
);

const login = await fetch(`${server.url}/api/v1/token`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ emailAddress: 'api-bench@example.com', password: benchPassword }),
});
const token = (await login.json()) as string;
const headers = { authorization: `Bearer ${token}` };

const routes = process.env.BENCH_ROUTES?.split(',') ?? ['/api/v1/resource', '/api/v1/log'];
for (const route of routes) {
  const sample = await fetch(`${server.url}${route}`, { headers });
  const body = await sample.text();
  if (!sample.ok) throw new Error(`${route} answered ${sample.status}: ${body.slice(0, 200)}`);
  const count = (JSON.parse(body) as unknown[]).length;
  const ours = await measure({ url: `${server.url}${route}`, headers });
  const baseline = await startBaseline('GET', route, body);
  const bare = await measure({ url: `${baseline.url}${route}`, headers });
  await baseline.stop();
  printComparison(
    `GET ${route} (${count} entries, ${(body.length / 1024).toFixed(0)} KiB; 10 connections, 10 s; target p99 ≤ 25 ms)`,
    ours,
    bare,
  );
}

await server.stop();
await emulator.stop();
await rm(emulatorDir, { recursive: true, force: true });
