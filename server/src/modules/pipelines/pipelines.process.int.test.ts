// Once a tick across real processes: two worker processes run the pipeline tick at the same instant
// for a pipeline that is due; one run is recorded, and each VM it deallocates gets one change.
import { spawn } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectTenant,
  createAzureEnvironment,
  createCloudTestContext,
  type CloudTestContext,
} from '../../../test/azure-emulator';
import { createUser, type TestUser } from '../../../test/helper';
import { pipelineRunItems, pipelineRuns, resources, scheduledChanges } from '../../db/schema';

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
// Ten minutes before an hour: the pipeline is created then, and the tick of the hour is due after.
let clockMs = Date.UTC(2026, 10, 10, 9, 50);
const readClock = () => new Date(clockMs);

let context: CloudTestContext;
let owner: TestUser;

// A worker process of its own: the app's container on the test's database and clock, running the
// pipeline tick at `startAt` (wall clock), printing how many runs it made, then exiting.
const tickScript = `
const { loadConfig } = await import('./src/config.ts');
const { createContainer } = await import('./src/container.ts');
const { openDatabase } = await import('./src/db/database.ts');
const { createJobDefinitions } = await import('./src/jobs/definitions.ts');
const { JobQueue } = await import('./src/jobs/queue.ts');
const config = loadConfig(process.env);
const database = await openDatabase(config.databaseUrl, { maxConnections: 4 });
const log = { info() {}, warn() {}, error() {} };
const queue = new JobQueue(database.url, log, { isSendOnly: true });
const secrets = { jwtSecret: process.env.JWT_SECRET, encryptionKey: Buffer.from(process.env.ENCRYPTION_KEY, 'hex') };
const container = createContainer({ config, secrets, database, queue, now: () => new Date(Number(process.env.CLOCK_MS)) });
await queue.start(createJobDefinitions(container));
await new Promise((resolve) => setTimeout(resolve, Math.max(0, Number(process.env.START_AT) - Date.now())));
const runs = await container.pipelines.runDuePipelines();
console.log('runs=' + runs);
await queue.stop();
await database.close();
process.exit(0);
`;

async function runTick(startAt: number): Promise<number> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'cloudtrim-pipeline-tick-'));
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', tickScript], {
    cwd: serverDir,
    env: {
      ...process.env,
      ...createAzureEnvironment(context.emulator),
      ROLE: 'worker',
      DATA_DIR: dataDir,
      DATABASE_URL: context.databaseUrl,
      DEMO: '0',
      LOG_LEVEL: 'silent',
      PUBLIC_URL: 'http://cloudtrim.test',
      JWT_SECRET: context.secrets.jwtSecret,
      ENCRYPTION_KEY: context.secrets.encryptionKey.toString('hex'),
      CLOCK_MS: String(clockMs),
      START_AT: String(startAt),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  const match = /runs=(\d+)/.exec(output);
  if (code !== 0 || !match) throw new Error(`the tick failed (${code}):\n${output}`);
  return Number(match[1]);
}

beforeAll(async () => {
  context = await createCloudTestContext({ now: readClock, emulator: { fleetSize: 6 } });
  owner = await createUser(context);
  const tenantId = await connectTenant(context, owner.teamId, 0, 0);
  await context.container.inventory.syncTenant(tenantId);
}, 120_000);

afterAll(() => context?.close());

describe('a pipeline ticked by two worker processes at once', () => {
  it('runs once, and plans one change per VM', async () => {
    const db = context.container.database.db;
    const vms = await db
      .select()
      .from(resources)
      .where(
        and(eq(resources.type, 'Microsoft.Compute/virtualMachines'), eq(resources.powerState, 'running')),
      )
      .orderBy(resources.name)
      .limit(2);
    expect(vms).toHaveLength(2);
    for (const vm of vms) {
      await db
        .update(resources)
        .set({ tags: { shift: 'night' } })
        .where(eq(resources.id, vm.id));
    }
    const pipeline = await context.container.pipelines.createPipeline(
      { sessionId: '', userId: owner.userId, teamId: owner.teamId, email: owner.email, firstName: 'Ada' },
      {
        name: 'Night shift',
        scope: { tags: [{ key: 'shift', op: 'equals', value: 'night' }] },
        action: { type: 'deallocate' },
        schedule: { cron: '0 * * * *', timeZone: 'UTC' },
        gates: { dryRun: false },
      },
    );

    clockMs = Date.UTC(2026, 10, 10, 10, 1);
    // Both start their tick at the same instant, once both are up.
    const startAt = Date.now() + 25_000;
    const runs = await Promise.all([runTick(startAt), runTick(startAt)]);
    expect(runs.reduce((total, count) => total + count, 0)).toBe(1);

    const recorded = await db.select().from(pipelineRuns).where(eq(pipelineRuns.pipelineId, pipeline.id));
    expect(recorded).toHaveLength(1);
    expect(recorded[0]).toMatchObject({
      trigger: 'schedule',
      scheduledFor: new Date(Date.UTC(2026, 10, 10, 10, 0)),
      acted: 2,
    });
    expect(
      await db.select().from(pipelineRunItems).where(eq(pipelineRunItems.runId, recorded[0]!.id)),
    ).toHaveLength(2);
    const changes = await db
      .select()
      .from(scheduledChanges)
      .where(eq(scheduledChanges.pipelineRunId, recorded[0]!.id));
    expect(changes.map((change) => change.resourceId).sort()).toEqual(vms.map((vm) => vm.id).sort());
  }, 120_000);
});
