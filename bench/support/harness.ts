// Shared by the benchmarks: a real PostgreSQL (embedded) with the migrated schema, the real app
// built on it, load from autocannon in another process, and a bare Fastify baseline measured in
// the same run.
import type autocannon from 'autocannon';
import Fastify from 'fastify';
import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../../server/src/app';
import { loadConfig, type Config, type Secrets } from '../../server/src/config';
import { createContainer, type Container } from '../../server/src/container';
import { applyMigrations, openDatabase, startEmbeddedPostgres } from '../../server/src/db/database';
import { createJobDefinitions } from '../../server/src/jobs/definitions';
import { ForegroundGauge } from '../../server/src/lib/foreground';
import { JobQueue } from '../../server/src/queue/queue';
import { runLoad, type LoadResult } from './load-process';

export interface BenchServer {
  url: string;
  container: Container;
  config: Config;
  secrets: Secrets;
  databaseUrl: string;
  // The API's requests in flight: a bench's job thread gives way to them, as ROLE=all's does.
  foreground: ForegroundGauge;
  stop(): Promise<void>;
}

// `webRoot` serves a built web app (the page benchmarks); the API benchmarks serve none.
// `maxConnections` raises PostgreSQL's connection limit for benches that start processes of their own.
export async function startBenchServer(
  environment: Record<string, string> = {},
  options: { webRoot?: string; maxConnections?: number } = {},
): Promise<BenchServer> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'cloudtrim-bench-'));
  await chmod(dataDir, 0o755);
  const postgres = await startEmbeddedPostgres(
    dataDir,
    { info: () => {}, warn: () => {} },
    { maxConnections: options.maxConnections },
  );
  const database = await openDatabase(postgres.url, { maxConnections: 20 });
  await applyMigrations(database);
  const config = loadConfig({
    DATA_DIR: dataDir,
    DATABASE_URL: postgres.url,
    DEMO: '0',
    LOG_LEVEL: 'silent',
    ...environment,
  });
  const queue = new JobQueue(postgres.url, { error: () => {} }, { isSendOnly: true });
  const secrets = { jwtSecret: randomBytes(32).toString('hex'), encryptionKey: randomBytes(32) };
  const container = createContainer({ config, secrets, database, queue });
  // Services enqueue follow-up jobs (a new tenant's sync); nothing here works them off.
  await queue.start(createJobDefinitions(container));
  const foreground = new ForegroundGauge();
  const app = await buildApp(container, {
    webRoot: options.webRoot ?? path.join(dataDir, 'no-web'),
    foreground,
  });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    url,
    container,
    config,
    secrets,
    databaseUrl: postgres.url,
    foreground,
    stop: async () => {
      await app.close();
      await queue.stop();
      await database.close();
      await postgres.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

// A bare Fastify route answering `body` from memory, with `headers` (JSON unless they say
// otherwise): the ceiling a route of ours is compared to.
export async function startBaseline(
  method: 'GET' | 'POST',
  routePath: string,
  body: string | Buffer,
  headers: Record<string, string> = {},
) {
  const app = Fastify();
  app.route({
    method,
    url: routePath,
    handler: (_request, reply) => reply.type('application/json').headers(headers).send(body),
  });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { url, stop: () => app.close() };
}

export async function measure(options: autocannon.Options): Promise<LoadResult> {
  return runLoad({ connections: 10, duration: 10, ...options });
}

export function printComparison(title: string, ours: LoadResult, baseline: LoadResult): void {
  const line = (label: string, result: LoadResult) =>
    `  ${label.padEnd(26)} ${result.requestsPerSecond.toFixed(0).padStart(8)} req/s   p99 ${result.p99Milliseconds
      .toFixed(1)
      .padStart(7)} ms   errors ${result.errors + result.non2xx}`;
  console.log(`\n${title}`);
  console.log(line('Cloudtrim', ours));
  console.log(line('bare Fastify baseline', baseline));
  console.log(
    `  ratio (ours / baseline): throughput ${(ours.requestsPerSecond / baseline.requestsPerSecond).toFixed(4)}, p99 ${(
      ours.p99Milliseconds / Math.max(baseline.p99Milliseconds, 0.001)
    ).toFixed(1)}×`,
  );
}
