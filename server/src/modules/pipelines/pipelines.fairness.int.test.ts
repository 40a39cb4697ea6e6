// Fairness across teams (issue 23): the tick sends each due pipeline as its own pipeline-run job,
// ranked by its place in its own team's turn, so the workers share a minute's runs and one team's many
// slow pipelines delay only themselves. 200 quarter-hourly pipelines of one team, each act held open
// by Azure (the emulator answers its reads of the VM 8 s late), fill every worker and queue for
// minutes; another team's pipeline due a few minutes later still runs within 60 s of its tick
// (PostgreSQL, pg-boss workers, the emulator through the Azure SDK, a movable clock).
import { pipelineDefinitionSchema } from '@cloudtrim/contracts/pipelines';
import { and, eq, ne, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectTenant,
  createCloudTestContext,
  listRunningVms,
  waitFor,
  type CloudTestContext,
} from '../../../test/azure-emulator';
import { createUser } from '../../../test/helper';
import { pipelineRuns, recommendations, resources } from '../../db/schema';
import { createPipelineTickJob } from '../../jobs/pipeline-tick.job';
import { PipelinesRepository } from './pipelines.repository';

let clockMs = Date.UTC(2026, 10, 10, 9, 50);
const readClock = () => new Date(clockMs);
const busyPipelines = 200;

let context: CloudTestContext;

beforeAll(async () => {
  context = await createCloudTestContext({ now: readClock, hasWorkers: true, emulator: { fleetSize: 2 } });
}, 120_000);

afterAll(async () => {
  context?.emulator.setFaults({});
  await context?.close();
});

// The scheduled runs made (or only those finished: their recommendations applied or refused).
const countScheduledRuns = async (isFinished = false) => {
  const [row] = await context.container.database.db
    .select({ count: sql<number>`count(*)::int` })
    .from(pipelineRuns)
    .where(
      and(eq(pipelineRuns.trigger, 'schedule'), isFinished ? ne(pipelineRuns.state, 'running') : undefined),
    );
  return row!.count;
};

describe("one team's many slow pipelines", () => {
  it("do not hold up another team's run past a minute of its tick", async () => {
    const db = context.container.database.db;
    const busy = await createUser(context);
    const other = await createUser(context);
    const tenantId = await connectTenant(context, busy.teamId, 0, 0);
    await context.container.inventory.syncTenant(tenantId);
    // The work adding a tenant queued (its syncs, its analysis) done first: none of it retags the VM
    // or replaces its recommendation under the test.
    await waitFor(async () => {
      const { rows } = await context.container.database.pool.query<{ count: number }>(
        "select count(*)::int as count from pgboss.job where state < 'completed'",
      );
      return rows[0]!.count === 0;
    }, 120_000);
    const [vm] = await listRunningVms(db, tenantId);
    await db
      .update(resources)
      .set({ tags: { fairness: 'slow' } })
      .where(eq(resources.id, vm!.id));
    context.emulator.fleet.findVirtualMachine(vm!.armId)!.tags = { fairness: 'slow' };
    // A resize recommendation made when the VM had another size (in place of the analysis' own): each
    // pipeline applying it reads the VM's size from Azure first, finds it changed, and leaves it (the
    // item fails, the recommendation stays open for the next pipeline, which reads Azure again).
    await db.delete(recommendations).where(eq(recommendations.resourceId, vm!.id));
    await db.insert(recommendations).values({
      teamId: busy.teamId,
      tenantId,
      resourceId: vm!.id,
      kind: 'resize',
      predictionMethod: 'cloudtrim-rightsizing',
      currentSize: vm!.sku === 'Standard_E64s_v5' ? 'Standard_E32s_v5' : 'Standard_E64s_v5',
      targetSize: 'Standard_B1s',
      recommendation: 'Resize to Standard_B1s',
      annualCostSavings: 1_000,
      status: 'open',
    });
    const repository = new PipelinesRepository(db);
    const slow = pipelineDefinitionSchema.parse({
      name: 'Quarter-hourly resize',
      scope: { tags: [{ key: 'fairness', op: 'equals', value: 'slow' }] },
      condition: { finding: { kind: 'recommendation' } },
      action: { type: 'applyRecommendation' },
      schedule: { cron: '*/15 * * * *', timeZone: 'UTC' },
      gates: { dryRun: false },
    });
    for (let index = 0; index < busyPipelines; index += 1) {
      await repository.insert(busy.teamId, busy.userId, slow, readClock());
    }
    // The other team's notice fires four minutes into each quarter: behind the busy team's backlog.
    const otherPipeline = await repository.insert(
      other.teamId,
      other.userId,
      pipelineDefinitionSchema.parse({
        name: 'Quarter-hourly notice',
        scope: { tags: [{ key: 'fairness', op: 'equals', value: 'none' }] },
        action: { type: 'notify' },
        schedule: { cron: '4-59/15 * * * *', timeZone: 'UTC' },
      }),
      readClock(),
    );
    context.emulator.setFaults({ delayMs: 8_000, kinds: ['arm-read'] });
    const tick = createPipelineTickJob(context.container);

    clockMs = Date.UTC(2026, 10, 10, 10, 0, 20);
    await tick.handle({});
    // The busy team's runs have taken every worker, each held open by Azure.
    await waitFor(async () => (await countScheduledRuns()) >= 4, 60_000);

    clockMs = Date.UTC(2026, 10, 10, 10, 4, 20);
    const dispatchedAt = Date.now();
    await tick.handle({});
    const run = await waitFor(async () => {
      const [row] = await db
        .select()
        .from(pipelineRuns)
        .where(and(eq(pipelineRuns.pipelineId, otherPipeline), eq(pipelineRuns.trigger, 'schedule')));
      return row?.state === 'succeeded' && row;
    }, 60_000);
    expect(Date.now() - dispatchedAt).toBeLessThan(60_000);
    expect(run.scheduledFor).toEqual(new Date(Date.UTC(2026, 10, 10, 10, 4)));
    expect(await countScheduledRuns(), 'the busy team still has runs queued').toBeLessThan(busyPipelines);

    const { rows } = await context.container.database.pool.query<{ count: number }>(
      "select count(*)::int as count from pgboss.job where name = 'pipeline-run'",
    );
    expect(rows[0]!.count).toBe(busyPipelines + 1);
    // Azure answers at once again: the backlog drains, each tick run once; a tick in the same quarter
    // sends nothing for the ticks already claimed.
    context.emulator.setFaults({});
    await waitFor(async () => (await countScheduledRuns(true)) === busyPipelines + 1, 180_000);
    // Each of them read Azure and left the VM as it is.
    const { rows: outcomes } = await context.container.database.pool.query<{
      outcome: string;
      count: number;
    }>('select outcome, count(*)::int as count from pipeline_run_item group by outcome');
    expect(outcomes).toEqual([{ outcome: 'failed', count: busyPipelines }]);
    clockMs = Date.UTC(2026, 10, 10, 10, 5, 20);
    expect(await context.container.pipelines.dispatchDuePipelines(async () => {})).toBe(0);
  }, 360_000);
});
