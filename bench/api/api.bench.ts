// GET /api/v1/resource and GET /api/v1/log with a 10,000-resource estate, 10 connections, each
// beside a bare Fastify route answering the same bytes from memory. Target: p99 ≤ 25 ms.
import { mkdtemp, rm } from 'node:fs/promises';
import http, { type IncomingHttpHeaders } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
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

// What Chromium sends: the answer is measured as a browser receives it.
const acceptEncoding = 'gzip, deflate, br, zstd';
const headers = { authorization: `Bearer ${token}`, 'accept-encoding': acceptEncoding };

const routes = process.env.BENCH_ROUTES?.split(',') ?? ['/api/v1/resource', '/api/v1/log'];
for (const route of routes) {
  const sample = await getRaw(`${server.url}${route}`, headers);
  if (sample.status !== 200) throw new Error(`${route} answered ${sample.status}`);
  const json = decode(sample.body, sample.headers['content-encoding']);
  const count = (JSON.parse(json.toString()) as unknown[]).length;
  const ours = await measure({ url: `${server.url}${route}`, headers });
  const baseline = await startBaseline('GET', route, sample.body, pickHeaders(sample.headers));
  const bare = await measure({ url: `${baseline.url}${route}`, headers });
  await baseline.stop();
  printComparison(
    `GET ${route} (${count} entries, ${kib(json.length)} KiB of JSON, ${kib(sample.body.length)} KiB sent as ` +
      `${sample.headers['content-encoding'] ?? 'identity'}; 10 connections, 10 s; target p99 ≤ 25 ms)`,
    ours,
    bare,
  );
}

await server.stop();
await emulator.stop();
await rm(emulatorDir, { recursive: true, force: true });

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
