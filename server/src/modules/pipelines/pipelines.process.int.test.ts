// Once a tick across real processes: two worker processes run the pipeline tick at the same instant
// for a pipeline that is due; one run is recorded, and each VM it deallocates gets one change.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectTenant, createCloudTestContext, type CloudTestContext } from '../../../test/azure-emulator';
import { createUser, type TestUser } from '../../../test/helper';
import { runWorkerScript } from '../../../test/server-process';
import { pipelineRunItems, pipelineRuns, resources, scheduledChanges } from '../../db/schema';

// Ten minutes before an hour: the pipeline is created then, and the tick of the hour is due after.
let clockMs = Date.UTC(2026, 10, 10, 9, 50);
const readClock = () => new Date(clockMs);

let context: CloudTestContext;
let owner: TestUser;

// A worker process running the pipeline tick at `startAt` (wall clock); answers the runs it made.
function runTick(startAt: number): Promise<number> {
  return runWorkerScript({
    emulator: context.emulator,
    databaseUrl: context.databaseUrl,
    secrets: context.secrets,
    clockMs,
    startAt,
    work: 'return container.pipelines.runDuePipelines();',
  });
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
