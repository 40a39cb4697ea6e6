// Pipelines' tag action and resumed runs against PostgreSQL and the Azure emulator: a tag pipeline's
// changes go through automation's executor and tag each matched VM once (counted at the emulator),
// the next sync reads the tag and a tagged VM no longer matches "tag absent"; a run whose worker died
// after its commit, one recommendation applied and one not, is finished by a later tick, each item
// acted on once.
import type { ActivityLogResponse } from '@cloudtrim/contracts/activity';
import type {
  PipelineDefinitionRequest,
  PipelinePreviewResponse,
  PipelineRunDetail,
} from '@cloudtrim/contracts/pipelines';
import { automationLogResponseSchema } from '@cloudtrim/contracts/recommendations';
import { readWriteCount } from '@cloudtrim/azure-emulator/emulator.stats';
import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCloudTestContext, type CloudTestContext } from '../../../test/azure-emulator';
import { type TestUser } from '../../../test/helper';
import { createPipelineClient, createPipelineTeam, neverInTests } from '../../../test/pipelines';
import type { Db } from '../../db/database';
import { pipelineRuns, recommendations, resources, scheduledChanges } from '../../db/schema';

let clockMs = Date.now();
const readClock = () => new Date(clockMs);

let context: CloudTestContext;
let db: Db;
let owner: TestUser;
let ownerToken: string;
let tenantId: string;
let vms: (typeof resources.$inferSelect)[];

const client = createPipelineClient(
  () => context,
  () => ownerToken,
);
const { call } = client;
const createPipeline = async (definition: PipelineDefinitionRequest) =>
  (await client.createPipeline(definition)).id;

function changesOf(resourceIds: string[]) {
  return db
    .select()
    .from(scheduledChanges)
    .where(inArray(scheduledChanges.resourceId, resourceIds))
    .orderBy(scheduledChanges.id);
}

// The VMs as Azure has them, read in by a sync.
async function tagInAzure(vm: typeof resources.$inferSelect, tags: Record<string, string>): Promise<void> {
  context.emulator.fleet.findVirtualMachine(vm.armId)!.tags = tags;
}

beforeAll(async () => {
  context = await createCloudTestContext({
    now: readClock,
    emulator: { fleetSize: 8, operationDurationMs: 100 },
  });
  db = context.container.database.db;
  ({ owner, ownerToken, tenantId, vms } = await createPipelineTeam(context, { minimumVms: 4 }));
}, 120_000);

afterAll(() => context.close());

describe('a tag pipeline', () => {
  it('tags each matched VM once through the executor; the sync reads the tag, which then keeps them out', async () => {
    const [first, second] = vms;
    await tagInAzure(first!, { team: 'tagging' });
    await tagInAzure(second!, { team: 'tagging' });
    await context.container.inventory.syncTenant(tenantId);
    const definition: PipelineDefinitionRequest = {
      name: 'Tag the owners',
      scope: { tags: [{ key: 'team', op: 'equals', value: 'tagging' }] },
      condition: { tags: [{ key: 'owner', op: 'notExists' }] },
      action: { type: 'tag', tag: { key: 'owner', value: 'ops' } },
      schedule: neverInTests,
    };
    const pipelineId = await createPipeline(definition);
    const run = (
      await call('POST', `/api/v1/pipeline/${pipelineId}/run`, { dryRun: false })
    ).json<PipelineRunDetail>();
    expect(run).toMatchObject({ state: 'succeeded', matched: 2, acted: 2 });
    expect(run.items.map((item) => [item.resourceName, item.outcome, item.detail])).toEqual([
      [first!.name, 'acted', 'Tag owner = ops'],
      [second!.name, 'acted', 'Tag owner = ops'],
    ]);

    const changes = await changesOf([first!.id, second!.id]);
    expect(changes).toMatchObject([
      { kind: 'tag', origin: 'pipeline', tags: { owner: 'ops' }, pipelineRunId: run.id, state: 'claimed' },
      { kind: 'tag', origin: 'pipeline', tags: { owner: 'ops' }, pipelineRunId: run.id, state: 'claimed' },
    ]);
    for (const change of changes) await context.container.automation.executor.execute(change.id);
    // A second run of the same change (a pg-boss retry) finds it done and writes nothing.
    await context.container.automation.executor.execute(changes[0]!.id);
    expect((await changesOf([first!.id, second!.id])).map((change) => change.state)).toEqual([
      'succeeded',
      'succeeded',
    ]);
    expect(readWriteCount(context.emulator.stats, first!.armId)).toBe(1);
    expect(readWriteCount(context.emulator.stats, second!.armId)).toBe(1);
    expect(context.emulator.fleet.findVirtualMachine(first!.armId)!.tags).toEqual({
      team: 'tagging',
      owner: 'ops',
    });

    const log = automationLogResponseSchema.parse(
      (await call('GET', `/api/v1/log/automation?resourceId=${encodeURIComponent(first!.armId)}`)).json(),
    );
    expect(log.Data.map((entry) => entry.Action)).toEqual(
      expect.arrayContaining(['Pipeline Tag the owners: Tag owner = ops', 'Tagged owner = ops']),
    );
    const activity = (await call('GET', '/api/v1/log/0')).json<ActivityLogResponse>();
    expect(
      activity
        .filter((entry) => entry.ServiceName === 'Pipeline: Tag the owners')
        .map((entry) => entry.LogText)
        .sort(),
    ).toEqual([`${first!.name}: Tag owner = ops`, `${second!.name}: Tag owner = ops`].sort());
    // Our copy of the tags has the merge already: the next run would plan no second write even
    // before a sync reads them back.
    const unsynced = (
      await call('POST', '/api/v1/pipeline/preview', definition)
    ).json<PipelinePreviewResponse>();
    expect(unsynced).toMatchObject({ matched: 0, wouldAct: 0 });

    await context.container.inventory.syncTenant(tenantId);
    const synced = await db
      .select()
      .from(resources)
      .where(inArray(resources.id, [first!.id, second!.id]));
    expect(synced.map((resource) => resource.tags)).toEqual([
      { team: 'tagging', owner: 'ops' },
      { team: 'tagging', owner: 'ops' },
    ]);
    const preview = (
      await call('POST', '/api/v1/pipeline/preview', definition)
    ).json<PipelinePreviewResponse>();
    expect(preview).toMatchObject({ matched: 0, wouldAct: 0 });
    const again = (
      await call('POST', `/api/v1/pipeline/${pipelineId}/run`, { dryRun: false })
    ).json<PipelineRunDetail>();
    expect(again).toMatchObject({ matched: 0, acted: 0 });
    expect(await changesOf([first!.id, second!.id])).toHaveLength(2);
    await call('DELETE', `/api/v1/pipeline/${pipelineId}`);
  });
});

describe('a run whose worker died after its commit', () => {
  it('is finished by a later tick, each recommendation applied once', async () => {
    const [, , third, fourth] = vms;
    await tagInAzure(third!, { team: 'resume' });
    await tagInAzure(fourth!, { team: 'resume' });
    await context.container.inventory.syncTenant(tenantId);
    for (const vm of [third!, fourth!]) {
      await db.insert(recommendations).values({
        teamId: owner.teamId,
        tenantId,
        resourceId: vm.id,
        kind: 'deallocate',
        predictionMethod: 'waste',
        recommendation: 'Deallocate the idle VM',
        currentSize: vm.sku,
        annualCostSavings: 120,
        status: 'open',
      });
    }
    const pipelineId = await createPipeline({
      name: 'Apply deallocations',
      scope: { tags: [{ key: 'team', op: 'equals', value: 'resume' }] },
      condition: { finding: { kind: 'recommendation', recommendationKind: 'deallocate' } },
      action: { type: 'applyRecommendation' },
      schedule: neverInTests,
    });
    // The process dies as it applies the second VM's recommendation, after the run and the first
    // VM's change committed.
    await db.execute(sql`
      create or replace function test_die_on_apply() returns trigger language plpgsql as $$
      begin
        if new.resource_id = ${sql.raw(`'${fourth!.id}'`)}::uuid then
          raise exception 'process died while applying';
        end if;
        return new;
      end $$`);
    await db.execute(sql`
      create trigger test_die_on_apply before insert on scheduled_change
      for each row execute function test_die_on_apply()`);
    try {
      const response = await call('POST', `/api/v1/pipeline/${pipelineId}/run`, { dryRun: false });
      expect(response.statusCode).toBe(500);
    } finally {
      await db.execute(sql`drop trigger test_die_on_apply on scheduled_change`);
    }
    const [cut] = await db.select().from(pipelineRuns).where(eq(pipelineRuns.pipelineId, pipelineId));
    expect(cut).toMatchObject({ state: 'running', finishedAt: null });
    const runOf = async () =>
      (await call('GET', `/api/v1/pipeline/run/${cut!.id}`)).json<PipelineRunDetail>();
    expect(
      Object.fromEntries((await runOf()).items.map((item) => [item.resourceName, item.outcome])),
    ).toEqual({
      [third!.name]: 'acted',
      [fourth!.name]: 'matched',
    });
    expect(await changesOf([third!.id, fourth!.id])).toHaveLength(1);

    // Within a few minutes the run is left to its worker.
    await context.container.pipelines.runDuePipelines();
    expect((await runOf()).state).toBe('running');

    clockMs += 6 * 60_000;
    await context.container.pipelines.runDuePipelines();
    const finished = await runOf();
    expect(finished).toMatchObject({
      state: 'succeeded',
      matched: 2,
      acted: 2,
      failed: 0,
      annualSaving: 240,
    });
    expect(finished.finishedAt).not.toBeNull();
    const changes = await changesOf([third!.id, fourth!.id]);
    expect(changes.map((change) => [change.resourceId, change.kind, change.origin])).toEqual([
      [third!.id, 'deallocate', 'now'],
      [fourth!.id, 'deallocate', 'now'],
    ]);

    await context.container.pipelines.runDuePipelines();
    expect(await changesOf([third!.id, fourth!.id])).toHaveLength(2);
    const activity = (await call('GET', '/api/v1/log/0')).json<ActivityLogResponse>();
    expect(
      activity
        .filter((entry) => entry.ServiceName === 'Pipeline: Apply deallocations')
        .map((entry) => entry.LogText)
        .sort(),
    ).toEqual([`${third!.name}: Recommendation applied`, `${fourth!.name}: Recommendation applied`].sort());
    await call('DELETE', `/api/v1/pipeline/${pipelineId}`);
  });
});
