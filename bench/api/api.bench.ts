// GET /api/v1/resource and GET /api/v1/log with a 10,000-resource estate, 10 connections, each
// beside a bare Fastify route answering the same bytes from memory, then again beside a login
// flood (POST /api/v1/token from a second load process). Targets: throughput ≥ 0.25 of the bare
// route, p99 ≤ 25 ms, p99 under the flood ≤ 2× the quiet p99, no errors.
// BENCH_DURATION sets each run's seconds (10 by default; 60 for the full run).
import { mkdtemp, rm } from 'node:fs/promises';
import http, { type IncomingHttpHeaders } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { azureEnvironment, startEmulatorProcess } from '../support/emulator-process';
import { hashPassword } from '../../server/src/lib/password-hasher';
import { benchPassword, connectEstate } from '../support/estate';
import { measure, printComparison, startBaseline, startBenchServer } from '../support/harness';
import { runLoad, type LoadResult } from '../support/load-process';
import { profiled } from '../support/cpu-profile';

const fleetSize = Number(process.env.BENCH_FLEET_SIZE ?? 10_000);
const activityEntries = 10_000;
const duration = Number(process.env.BENCH_DURATION ?? 10);
const floodAccounts = 4;
const emulatorDir = await mkdtemp(path.join(os.tmpdir(), 'cloudtrim-bench-emulator-'));
const emulator = await startEmulatorProcess({ dataDir: emulatorDir, fleetSize, seed: 42, throttling: true });
// The flood comes from many addresses (X-Forwarded-For through one trusted hop), as a botnet's
// would: from one address the per-client login bound would turn it into cheap 429s within 100 tries.
const server = await startBenchServer({ ...azureEnvironment(emulator), TRUST_PROXY: '1' });
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

for (let index = 0; index < floodAccounts; index += 1) {
  await container.repositories.account.createWithTeam({
    email: floodEmail(index),
    passwordHash: await hashPassword(benchPassword),
    firstName: 'Flood',
    lastName: 'User',
  });
}

const login = await fetch(`${server.url}/api/v1/token`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ emailAddress: 'api-bench@example.com', password: benchPassword }),
});
const token = (await login.json()) as string;

// What Chromium sends: the answer is measured as a browser receives it.
const acceptEncoding = 'gzip, deflate, br, zstd';
const headers = { authorization: `Bearer ${token}`, 'accept-encoding': acceptEncoding };

const routes = process.env.BENCH_ROUTES?.split(',') ?? ['/api/v1/resource', '/api/v1/log'];
for (const route of routes) {
  const sample = await getRaw(`${server.url}${route}`, headers);
  if (sample.status !== 200) throw new Error(`${route} answered ${sample.status}`);
  const json = decode(sample.body, sample.headers['content-encoding']);
  const count = (JSON.parse(json.toString()) as unknown[]).length;
  const ours = await profiled(`api${route.replaceAll('/', '-')}`, () =>
    measure({ url: `${server.url}${route}`, headers, duration }),
  );
  const baseline = await startBaseline('GET', route, sample.body, pickHeaders(sample.headers));
  const bare = await measure({ url: `${baseline.url}${route}`, headers, duration });
  await baseline.stop();
  printComparison(
    `GET ${route} (${count} entries, ${kib(json.length)} KiB of JSON, ${kib(sample.body.length)} KiB sent as ` +
      `${sample.headers['content-encoding'] ?? 'identity'}; 10 connections, ${duration} s; target ratio ≥ 0.25, p99 ≤ 25 ms)`,
    ours,
    bare,
  );
  const { list, flood } = await measureBesideFlood({ url: `${server.url}${route}`, headers, duration });
  printComparison(
    `GET ${route} beside a login flood (target p99 ≤ 2× the quiet ${ours.p99Milliseconds} ms)`,
    list,
    bare,
  );
  console.log(
    `  p99 beside the flood / quiet p99: ${(list.p99Milliseconds / Math.max(ours.p99Milliseconds, 0.001)).toFixed(2)}×` +
      `   the flood: ${flood.requestsPerSecond.toFixed(0)} logins/s, answers ${formatCounts(flood.statusCounts)}`,
  );
}

await server.stop();
await emulator.stop();
await rm(emulatorDir, { recursive: true, force: true });

// The list calls measured while a second load process floods POST /api/v1/token: right and wrong
// passwords in turn for each of a few accounts (a success clears an account's failures, so the
// per-account bound rarely stops it), from a new address each time. The flood starts first and
// ends last, so it covers the whole measurement.
async function measureBesideFlood(options: {
  url: string;
  headers: Record<string, string>;
  duration: number;
}): Promise<{ list: LoadResult; flood: LoadResult }> {
  const requests = Array.from({ length: 1_024 }, (_unused, index) => ({
    method: 'POST' as const,
    path: '/api/v1/token',
    headers: {
      'content-type': 'application/json',
      'x-forwarded-for': `10.${(index >> 8) & 255}.${index & 255}.${1 + (index % 200)}`,
    },
    body: JSON.stringify({
      emailAddress: floodEmail((index >> 1) % floodAccounts),
      password: index % 2 === 0 ? 'Wrong-Password-2026' : benchPassword,
    }),
  }));
  const floodDone = runLoad({ url: server.url, connections: 10, duration: options.duration + 4, requests });
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  const list = await measure(options);
  return { list, flood: await floodDone };
}

function floodEmail(index: number): string {
  return `api-bench-flood-${index}@example.com`;
}

function formatCounts(counts: Record<string, number>): string {
  return Object.entries(counts)
    .map(([status, count]) => `${count} × ${status}`)
    .join(', ');
}

function getRaw(url: string, requestHeaders: Record<string, string>) {
  return new Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    http
      .get(url, { headers: requestHeaders }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks) }),
        );
        response.on('error', reject);
      })
      .on('error', reject);
  });
}

function decode(body: Buffer, encoding: string | undefined): Buffer {
  if (encoding === 'br') return brotliDecompressSync(body);
  if (encoding === 'gzip') return gunzipSync(body);
  return body;
}

// The headers that make the baseline's answer the same bytes a browser gets from ours.
function pickHeaders(source: IncomingHttpHeaders): Record<string, string> {
  const picked: Record<string, string> = {};
  for (const name of ['content-type', 'content-encoding', 'vary', 'etag', 'cache-control']) {
    const value = source[name];
    if (typeof value === 'string') picked[name] = value;
  }
  return picked;
}

function kib(bytes: number): string {
  return (bytes / 1024).toFixed(0);
}
