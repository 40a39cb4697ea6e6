// The bill of a 10,000-resource subscription read from Cost Management (the emulator in a process of
// its own, its query throttled per scope): the backfill (90 days by day and 13 months by month,
// actual and amortized, by resource) against the floor its query budget allows; then GET
// /api/v1/cost over 13 months by month and over 30 days by day, 10 connections, beside a bare
// Fastify route answering the same bytes.
// Targets: backfill ≤ 1.5× the floor with every 429's wait honoured; GET /api/v1/cost p99 ≤ 50 ms.
// BENCH_COST_QUERIES_PER_MINUTE sets the budget's refill (Azure's is about 4; 600 keeps the run
// to minutes while the floor still bounds it), BENCH_FLEET_SIZE the estate.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { azureEnvironment, startEmulatorProcess } from '../support/emulator-process';
import { benchPassword, connectEstate } from '../support/estate';
import { measure, printComparison, startBaseline, startBenchServer } from '../support/harness';

const fleetSize = Number(process.env.BENCH_FLEET_SIZE ?? 10_000);
const queriesPerMinute = Number(process.env.BENCH_COST_QUERIES_PER_MINUTE ?? 600);
const queryCapacity = 4;
const duration = Number(process.env.BENCH_DURATION ?? 10);

const emulatorDir = await mkdtemp(path.join(os.tmpdir(), 'cloudtrim-bench-emulator-'));
const emulator = await startEmulatorProcess({
  dataDir: emulatorDir,
  fleetSize,
  seed: 42,
  throttling: true,
  throttleLimits: { costQueryCapacity: queryCapacity, costQueryRefillPerMinute: queriesPerMinute },
});
const server = await startBenchServer(azureEnvironment(emulator));
const { container } = server;
const { pool } = container.database;
const { tenantIds } = await connectEstate(server, emulator, 'costs-bench@example.com');
const [contosoId] = tenantIds;
await container.inventory.syncTenant(contosoId!);

// One subscription, the production one: the other is marked read, so the floor is one scope's.
const productionId = emulator.tenants[0]!.subscriptions[0]!.subscriptionId.toLowerCase();
await pool.query(
  `insert into cost_sync (tenant_id, subscription_id, backfilled_at, refreshed_at)
   select tenant_id, lower(subscription_id), now(), now() + interval '1 day' from subscription
    where tenant_id = $1 and lower(subscription_id) <> $2
   on conflict (tenant_id, subscription_id) do update set backfilled_at = now(), refreshed_at = now() + interval '1 day'`,
  [contosoId, productionId],
);
const { rows: counted } = await pool.query<{ count: number }>(
  `select count(*)::int as count from resource r join subscription s on s.id = r.subscription_id
    where lower(s.subscription_id) = $1`,
  [productionId],
);

await emulator.resetStats();
const started = performance.now();
let pages = 0;
for (;;) {
  const summary = await container.costs.syncTenant(contosoId!, { signal: AbortSignal.timeout(60 * 60_000) });
  pages += summary?.pagesRead ?? 0;
  const { rows } = await pool.query<{ due: number }>(
    `select count(*)::int as due from cost_sync where tenant_id = $1 and jsonb_array_length(plan) > 0`,
    [contosoId],
  );
  if (rows[0]!.due === 0) break;
}
const seconds = (performance.now() - started) / 1000;
const stats = await emulator.readStats();
const floorSeconds = Math.max(0, pages - queryCapacity) / (queriesPerMinute / 60);
const { rows: stored } = await pool.query<{ days: number; months: number }>(
  `select (select count(*) from cost_day)::int as days, (select count(*) from cost_month)::int as months`,
);
console.log(
  `\nBackfill of one subscription (${counted[0]!.count} resources in inventory, ${queriesPerMinute} queries a minute after ${queryCapacity}):`,
);
console.log(
  `  pages read            ${pages} (${stored[0]!.days} resource-days, ${stored[0]!.months} resource-months stored)`,
);
console.log(
  `  429s met              ${stats.throttled} (each waited out: at most one per query let through)`,
);
console.log(`  wall time             ${seconds.toFixed(1)} s`);
console.log(`  floor (the budget)    ${floorSeconds.toFixed(1)} s`);
console.log(
  `  ratio                 ${(seconds / Math.max(floorSeconds, 0.001)).toFixed(2)}× (target ≤ 1.5×)`,
);

const login = await fetch(`${server.url}/api/v1/token`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ emailAddress: 'costs-bench@example.com', password: benchPassword }),
});
const token = (await login.json()) as string;
const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
const today = new Date();
const day = (offsetDays: number) =>
  new Date(today.getTime() + offsetDays * 86_400_000).toISOString().slice(0, 10);
const thirteenMonthsAgo = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() - 12, 1))
  .toISOString()
  .slice(0, 10);
for (const route of [
  `/api/v1/cost?from=${thirteenMonthsAgo}&to=${day(0)}&granularity=monthly&groupBy=service`,
  `/api/v1/cost?from=${day(-29)}&to=${day(0)}&granularity=daily&groupBy=resourceGroup&costType=amortized`,
  `/api/v1/cost?from=${day(-29)}&to=${day(0)}&granularity=none&groupBy=resource`,
]) {
  const sample = await fetch(`${server.url}${route}`, { headers });
  const body = await sample.text();
  if (sample.status !== 200) throw new Error(`${route} answered ${sample.status}: ${body}`);
  const ours = await measure({ url: `${server.url}${route}`, headers, duration });
  const routePath = route.split('?')[0]!;
  const baseline = await startBaseline('GET', routePath, body);
  const bare = await measure({ url: `${baseline.url}${route}`, headers, duration });
  await baseline.stop();
  const rows = (JSON.parse(body) as { Data: unknown[] }).Data.length;
  printComparison(
    `GET ${route} (${rows} rows, ${(body.length / 1024).toFixed(0)} KiB; target p99 ≤ 50 ms)`,
    ours,
    bare,
  );
}

await server.stop();
await emulator.stop();
await rm(emulatorDir, { recursive: true, force: true });
