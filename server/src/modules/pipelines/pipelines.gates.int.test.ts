// The pipeline gates against careless or hostile definitions (issue 23), on PostgreSQL and the Azure
// emulator with a movable clock: a cron that never fires refused at save, an old bad row failing only
// its own run while the tick goes on and the list still answers; alias bombs and junk files never a
// 500; a deleteDisk recommendation applied by a pipeline waiting for approval; a prod tag added in
// Azure since inventory cancelling a pipeline's stop at act time; a disk never deleted while its
// snapshot is not Succeeded.
import type { PipelineDefinitionRequest, PipelineListResponse } from '@cloudtrim/contracts/pipelines';
import { and, eq, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PipelineRunDetail } from '@cloudtrim/contracts/pipelines';
import { createCloudTestContext, listRunningVms, type CloudTestContext } from '../../../test/azure-emulator';
import { bearer, createUser, logIn, type TestUser } from '../../../test/helper';
import { createPipelineClient, createPipelineTeam, neverInTests } from '../../../test/pipelines';
import type { CloudProvider } from '../../cloud/cloud-provider';
import { createAzureGateway } from '../../cloud/azure/azure-gateway';
import type { Db } from '../../db/database';
import { createTransactionRunner } from '../../db/transaction';
import {
  automationLogs,
  pipelineRuns,
  pipelines,
  pipelineVersions,
  recommendations,
  resources,
  scheduledChanges,
} from '../../db/schema';
import { AutomationExecutor, defaultExecutorOptions } from '../automation/automation.executor';
import { AutomationRepository } from '../automation/automation.repository';
import { snapshotIdOf } from '../automation/automation.resource-steps';
import { PipelinesRepository } from './pipelines.repository';

let clockMs = Date.UTC(2026, 10, 10, 9, 50);
const readClock = () => new Date(clockMs);

let context: CloudTestContext;
let db: Db;
let owner: TestUser;
let ownerToken: string;
let tenantId: string;

const { call, createPipeline } = createPipelineClient(
  () => context,
  () => ownerToken,
);

async function countPipelines(teamId: string): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(pipelines)
    .where(eq(pipelines.teamId, teamId));
  return row!.count;
}

// A row as an older release saved it, past today's checks.
async function overwriteSchedule(pipelineId: string, schedule: { cron: string; timeZone: string }) {
  const [version] = await db
    .select()
    .from(pipelineVersions)
    .where(eq(pipelineVersions.pipelineId, pipelineId));
  await db
    .update(pipelineVersions)
    .set({ definition: { ...version!.definition, schedule } })
    .where(eq(pipelineVersions.pipelineId, pipelineId));
}

beforeAll(async () => {
  context = await createCloudTestContext({
    now: readClock,
    emulator: { fleetSize: 12, operationDurationMs: 100 },
  });
  db = context.container.database.db;
  ({ owner, ownerToken, tenantId } = await createPipelineTeam(context));
}, 120_000);

const changesOf = (resourceId: string) =>
  db
    .select()
    .from(scheduledChanges)
    .where(eq(scheduledChanges.resourceId, resourceId))
    .orderBy(scheduledChanges.id);

// An unattached disk, as someone detaching it from its VM leaves it (in Azure and in inventory).
async function detachDisk(): Promise<typeof resources.$inferSelect> {
  const [disk] = await db
    .select()
    .from(resources)
    .where(
      and(
        eq(resources.tenantId, tenantId),
        eq(resources.type, 'Microsoft.Compute/disks'),
        sql`not (details ? 'osType')`,
        sql`not exists (select 1 from recommendation r where r.resource_id = ${resources.id})`,
      ),
    )
    .orderBy(resources.armId)
    .limit(1);
  const record = context.emulator.fleet.managedDisks.find((item) => item.id === disk!.armId)!;
  record.machine = undefined;
  record.lastOwnershipUpdateMs = Date.now();
  await db
    .update(resources)
    .set({ details: { ...disk!.details, diskState: 'Unattached' } })
    .where(eq(resources.id, disk!.id));
  return disk!;
}

async function recommendDeletion(disk: typeof resources.$inferSelect): Promise<number> {
  const [row] = await db
    .insert(recommendations)
    .values({
      teamId: owner.teamId,
      tenantId,
      resourceId: disk.id,
      kind: 'deleteDisk',
      predictionMethod: 'cloudtrim-waste',
      currentSize: disk.sku,
      targetSize: null,
      recommendation: 'Delete the unattached disk',
      annualCostSavings: 240,
      status: 'open',
    })
    .returning({ id: recommendations.id });
  return row!.id;
}

afterAll(() => context?.close());

describe('a cron with no next firing', () => {
  const hourly: PipelineDefinitionRequest = {
    name: 'Hourly notice',
    scope: { tags: [{ key: 'shift', op: 'equals', value: 'none' }] },
    action: { type: 'notify' },
    schedule: { cron: '0 * * * *', timeZone: 'UTC' },
  };

  it('is refused at save naming the cron, and nothing is saved', async () => {
    const before = await countPipelines(owner.teamId);
    for (const cron of ['0 0 31 2,4 *', '0 0 * 2 1#5']) {
      const response = await call('POST', '/api/v1/pipeline', {
        ...hourly,
        schedule: { cron, timeZone: 'UTC' },
      });
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json()).toMatchObject({
        field: 'schedule.cron',
        message: 'Cron: it never fires within a year.',
      });
    }
    expect(await countPipelines(owner.teamId)).toBe(before);
  });

  it('saved by an older release, fails only its own run: the tick goes on and the list answers', async () => {
    clockMs = Date.UTC(2026, 10, 10, 9, 50);
    const never = await createPipeline({ ...hourly, name: 'Never' });
    await overwriteSchedule(never.id, { cron: '0 0 31 2,4 *', timeZone: 'UTC' });
    const unreadable = await createPipeline({ ...hourly, name: 'Unreadable zone' });
    await overwriteSchedule(unreadable.id, { cron: '0 * * * *', timeZone: 'Not/AZone' });
    const good = await createPipeline({ ...hourly, name: 'Good' });

    clockMs = Date.UTC(2026, 10, 10, 10, 1);
    await context.container.pipelines.runDuePipelines();

    const runsOf = (pipelineId: string) =>
      db
        .select()
        .from(pipelineRuns)
        .where(and(eq(pipelineRuns.pipelineId, pipelineId)));
    expect(await runsOf(never.id)).toHaveLength(0);
    expect((await runsOf(unreadable.id)).map((run) => run.state)).toEqual(['failed']);
    expect((await runsOf(good.id)).map((run) => [run.state, run.scheduledFor])).toEqual([
      ['succeeded', new Date(Date.UTC(2026, 10, 10, 10, 0))],
    ]);
    // The failed tick is not tried again each minute.
    clockMs = Date.UTC(2026, 10, 10, 10, 2);
    await context.container.pipelines.runDuePipelines();
    expect(await runsOf(unreadable.id)).toHaveLength(1);

    // (A zone the contract refuses cannot be answered in the list's contract either: gone first.)
    await db.delete(pipelines).where(eq(pipelines.id, unreadable.id));
    const list = await call('GET', '/api/v1/pipeline');
    expect(list.statusCode, list.body).toBe(200);
    const byName = new Map(list.json<PipelineListResponse>().pipelines.map((item) => [item.name, item]));
    expect(byName.get('Never')?.nextRunAt).toBeNull();
    expect(byName.get('Good')?.nextRunAt).toBe('2026-11-10T11:00:00.000Z');
  }, 60_000);
});

describe('a hostile pipeline file', () => {
  it('answers 400 with the line for an alias bomb, and no junk file answers 500', async () => {
    const before = await countPipelines(owner.teamId);
    const bomb = [
      'name: Bomb',
      'a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]',
      ...'bcdefgh'
        .split('')
        .map((name, index) => `${name}: &${name} [${Array(9).fill(`*${'abcdefgh'[index]}`).join(', ')}]`),
      '',
    ].join('\n');
    const response = await call('POST', '/api/v1/pipeline/import', { yaml: bomb });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json()).toMatchObject({
      message: 'Line 5: A pipeline file may use at most 20 aliases.',
      line: 5,
    });

    const token = fc.constantFrom(
      'name: x',
      'a: &x [1]',
      'b: *x',
      '<<: *x',
      '*z',
      '{',
      '- ',
      ': ',
      '!!binary x',
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof(token, fc.string({ maxLength: 8 })), { maxLength: 12 }),
        async (parts) => {
          const answer = await call('POST', '/api/v1/pipeline/import', { yaml: parts.join('\n') || ' ' });
          expect(answer.statusCode, answer.body).toBeLessThan(500);
        },
      ),
      { numRuns: 40, seed: 23 },
    );
    expect(await countPipelines(owner.teamId)).toBe(before);
  }, 60_000);
});

describe('approval decided on the change an item makes', () => {
  it('a pipeline applying a deleteDisk recommendation waits for approval and deletes nothing', async () => {
    const disk = await detachDisk();
    await db
      .update(resources)
      .set({ tags: { gates: 'delete' } })
      .where(eq(resources.id, disk.id));
    await recommendDeletion(disk);
    const pipeline = await createPipeline({
      name: 'Apply what is recommended',
      scope: { tags: [{ key: 'gates', op: 'equals', value: 'delete' }] },
      condition: { finding: { kind: 'recommendation' } },
      action: { type: 'applyRecommendation' },
      schedule: neverInTests,
      gates: { dryRun: false },
    });
    const response = await call('POST', `/api/v1/pipeline/${pipeline.id}/run`, { dryRun: false });
    expect(response.statusCode, response.body).toBe(200);
    const run = response.json<PipelineRunDetail>();
    expect(run.state).toBe('awaitingApproval');
    expect(run.items.map((item) => [item.resourceName, item.outcome, item.reason])).toEqual([
      [disk.name, 'skipped', 'awaitingApproval'],
    ]);
    expect(await changesOf(disk.id)).toEqual([]);
    expect(context.emulator.fleet.findResource(disk.armId)).toBeDefined();
  }, 60_000);
});

describe('the executor at act time', () => {
  it("cancels a pipeline's stop of a VM tagged prod in Azure since inventory, said on the run's item", async () => {
    const [vm] = (await listRunningVms(db, tenantId)).filter((row) => !row.tags.gates);
    await db
      .update(resources)
      .set({ tags: { gates: 'stop' } })
      .where(eq(resources.id, vm!.id));
    context.emulator.fleet.findVirtualMachine(vm!.armId)!.tags = { gates: 'stop', Environment: 'Prod' };
    const pipeline = await createPipeline({
      name: 'Stop at night',
      scope: { tags: [{ key: 'gates', op: 'equals', value: 'stop' }] },
      action: { type: 'deallocate' },
      schedule: neverInTests,
      gates: { dryRun: false },
    });
    const run = (
      await call('POST', `/api/v1/pipeline/${pipeline.id}/run`, { dryRun: false })
    ).json<PipelineRunDetail>();
    expect(run.items.map((item) => item.outcome)).toEqual(['acted']);
    const [change] = await changesOf(vm!.id);
    await context.container.automation.executor.execute(change!.id);

    expect((await changesOf(vm!.id))[0]!.state).toBe('cancelled');
    const after = (await call('GET', `/api/v1/pipeline/run/${run.id}`)).json<PipelineRunDetail>();
    expect(after.items.map((item) => [item.outcome, item.reason, item.detail])).toEqual([
      ['skipped', 'optedOut', 'it is tagged as production in Azure now'],
    ]);
    expect(context.emulator.fleet.findVirtualMachine(vm!.armId)).toBeDefined();
    expect(
      (await listRunningVms(db, tenantId)).some((row) => row.id === vm!.id),
      'the VM still runs in inventory',
    ).toBe(true);
  }, 60_000);

  it('never deletes a disk while its snapshot is not Succeeded: the change fails and says why', async () => {
    const disk = await detachDisk();
    const recommendationId = await recommendDeletion(disk);
    const apply = await context.app.inject({
      method: 'GET',
      url: `/api/v1/log/recommendation/apply/now?id=${recommendationId}`,
      headers: bearer(ownerToken),
    });
    expect(apply.statusCode, apply.body).toBe(200);
    const [change] = await changesOf(disk.id);
    // Azure as it is when a copy stalls: the snapshot stays Creating however long the executor waits.
    const gateway = createAzureGateway(context.config.azure);
    const stalled: CloudProvider = Object.assign(Object.create(gateway) as CloudProvider, {
      getResourceState: async (...args: Parameters<CloudProvider['getResourceState']>) => {
        const state = await gateway.getResourceState(...args);
        return args[1] === snapshotIdOf(disk.armId, change!.id) && state
          ? { ...state, provisioningState: 'Creating', details: { completionPercent: 100 } }
          : state;
      },
    });
    const executor = new AutomationExecutor(
      new AutomationRepository(db),
      createTransactionRunner(context.container.database),
      context.container.tenants,
      stalled,
      context.container.activity,
      readClock,
      (error) => (error instanceof Error ? error.message : String(error)),
      async () => {},
      // Pauses a hundredth as long: the deadline's backoff runs out in a fraction of a second.
      {
        ...defaultExecutorOptions,
        stepDeadlineMs: 20_000,
        sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms / 100)),
      },
    );
    await executor.execute(change!.id);

    expect((await changesOf(disk.id))[0]!.state).toBe('failed');
    expect(context.emulator.fleet.findResource(disk.armId), 'the disk is still in Azure').toBeDefined();
    const actions = (
      await db
        .select({ action: automationLogs.action })
        .from(automationLogs)
        .where(eq(automationLogs.resourceId, disk.id))
    ).map((row) => row.action);
    expect(actions.at(-1)).toContain('is Creating, not Succeeded, so the disk is kept');
  }, 60_000);
});

describe("a team's limits", () => {
  const notice: PipelineDefinitionRequest = {
    name: 'Notice',
    scope: { tags: [{ key: 'gates', op: 'equals', value: 'none' }] },
    action: { type: 'notify' },
    schedule: neverInTests,
  };

  it('refuses a pipeline that would act more often than every 15 minutes, or notify more often than every 5', async () => {
    const before = await countPipelines(owner.teamId);
    const refusals: [PipelineDefinitionRequest, string][] = [
      [
        {
          ...notice,
          action: { type: 'deallocate' },
          gates: { dryRun: false },
          schedule: { cron: '*/10 * * * *', timeZone: 'UTC' },
        },
        'Cron: a pipeline that acts may run at most every 15 minutes (a notice or dry run every 5).',
      ],
      [
        { ...notice, schedule: { cron: '* * * * *', timeZone: 'UTC' } },
        'Cron: a pipeline may run at most every 5 minutes.',
      ],
    ];
    for (const [body, message] of refusals) {
      const response = await call('POST', '/api/v1/pipeline', body);
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json()).toMatchObject({ field: 'schedule.cron', message });
    }
    expect(await countPipelines(owner.teamId)).toBe(before);
    await createPipeline({ ...notice, schedule: { cron: '*/5 * * * *', timeZone: 'UTC' } });
    await createPipeline({
      ...notice,
      action: { type: 'deallocate' },
      gates: { dryRun: false },
      schedule: { cron: '*/15 * * * *', timeZone: 'UTC' },
    });
  });

  it('keeps a team to 100 pipelines and 100 budgets, the 101st refused naming the limit', async () => {
    const team = await createUser(context);
    const token = await logIn(context, team);
    const definition = (await import('@cloudtrim/contracts/pipelines')).pipelineDefinitionSchema.parse(
      notice,
    );
    const repository = new PipelinesRepository(db);
    for (let index = 0; index < 100; index += 1) {
      await repository.insert(team.teamId, team.userId, definition, readClock());
    }
    const answer = await context.app.inject({
      method: 'POST',
      url: '/api/v1/pipeline',
      headers: { ...bearer(token), 'content-type': 'application/json' },
      payload: JSON.stringify(notice),
    });
    expect(answer.statusCode, answer.body).toBe(409);
    expect(answer.json()).toMatchObject({ message: 'A team may have at most 100 pipelines.' });
    expect(await countPipelines(team.teamId)).toBe(100);

    for (let index = 0; index < 100; index += 1) {
      await context.container.budgets.createBudget(team.teamId, {
        Name: `Budget ${index}`,
        Amount: 100,
        Period: 'monthly',
        StartDate: '2026-11-01',
      });
    }
    const budget = await context.app.inject({
      method: 'POST',
      url: '/api/v1/budget',
      headers: { ...bearer(token), 'content-type': 'application/json' },
      payload: JSON.stringify({ Name: 'One more', Amount: 100, Period: 'monthly', StartDate: '2026-11-01' }),
    });
    expect(budget.statusCode, budget.body).toBe(409);
    expect(budget.json()).toMatchObject({ message: 'A team may have at most 100 budgets.' });
  }, 60_000);

  it('counts only scheduled evaluations in a row: pressing Run does not satisfy the gate', async () => {
    clockMs = Date.UTC(2026, 10, 11, 8, 50);
    ownerToken = await logIn(context, owner);
    const [vm] = (await listRunningVms(db, tenantId)).filter((row) => !row.tags.gates);
    await db
      .update(resources)
      .set({ tags: { gates: 'in-a-row' } })
      .where(eq(resources.id, vm!.id));
    const pipeline = await createPipeline({
      ...notice,
      name: 'Three in a row',
      scope: { tags: [{ key: 'gates', op: 'equals', value: 'in-a-row' }] },
      schedule: { cron: '0 * * * *', timeZone: 'UTC' },
      gates: { inARow: 3 },
    });
    const press = async () =>
      (await call('POST', `/api/v1/pipeline/${pipeline.id}/run`, { dryRun: true })).json<PipelineRunDetail>();
    for (let press_ = 0; press_ < 3; press_ += 1) {
      expect((await press()).items.map((item) => item.reason)).toEqual(['notEnoughInARow']);
    }
    for (const hour of [9, 10]) {
      clockMs = Date.UTC(2026, 10, 11, hour, 1);
      await context.container.pipelines.runDuePipelines();
    }
    ownerToken = await logIn(context, owner);
    const [third] = (await press()).items;
    expect(third).toMatchObject({ outcome: 'matched', reason: null });
  }, 60_000);
});

describe("the team's blast radius an hour", () => {
  it('is a team setting from 1 to 1,000, refused past it', async () => {
    expect((await call('GET', '/api/v1/pipeline/limits')).json()).toEqual({ blastRadiusPerHour: 50 });
    const refused = await call('PUT', '/api/v1/pipeline/limits', { blastRadiusPerHour: 1_001 });
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json()).toMatchObject({ field: 'blastRadiusPerHour' });
    expect((await call('GET', '/api/v1/pipeline/limits')).json()).toEqual({ blastRadiusPerHour: 50 });
  });

  it('holds across two runs at once: of 4 resources two pipelines would stop, 3 are acted on', async () => {
    clockMs = Date.UTC(2026, 10, 12, 9, 0);
    ownerToken = await logIn(context, owner);
    const set = await call('PUT', '/api/v1/pipeline/limits', { blastRadiusPerHour: 3 });
    expect(set.statusCode, set.body).toBe(200);
    const running = (await listRunningVms(db, tenantId)).filter((row) => !row.tags.gates).slice(0, 4);
    expect(running).toHaveLength(4);
    const ids: string[] = [];
    for (const [index, group] of ['radius-a', 'radius-b'].entries()) {
      for (const vm of running.slice(index * 2, index * 2 + 2)) {
        await db
          .update(resources)
          .set({ tags: { gates: group } })
          .where(eq(resources.id, vm.id));
        context.emulator.fleet.findVirtualMachine(vm.armId)!.tags = { gates: group };
      }
      ids.push(
        (
          await createPipeline({
            name: `Radius ${group}`,
            scope: { tags: [{ key: 'gates', op: 'equals', value: group }] },
            action: { type: 'deallocate' },
            schedule: neverInTests,
            gates: { dryRun: false },
          })
        ).id,
      );
    }
    const runs = await Promise.all(
      ids.map(async (id) =>
        (await call('POST', `/api/v1/pipeline/${id}/run`, { dryRun: false })).json<PipelineRunDetail>(),
      ),
    );
    const items = runs.flatMap((run) => run.items);
    expect(items.filter((item) => item.outcome === 'acted')).toHaveLength(3);
    expect(items.filter((item) => item.reason === 'overBlastRadius').map((item) => item.detail)).toEqual([
      "Over the team's blast radius of 3 an hour",
    ]);
    await call('PUT', '/api/v1/pipeline/limits', { blastRadiusPerHour: 50 });
  }, 60_000);
});

describe('run items', () => {
  it('are purged after 90 days, the run kept', async () => {
    clockMs = Date.UTC(2026, 10, 12, 10, 0);
    ownerToken = await logIn(context, owner);
    const pipeline = await createPipeline({
      name: 'Kept 90 days',
      scope: { tags: [{ key: 'gates', op: 'equals', value: 'radius-a' }] },
      action: { type: 'notify' },
      schedule: neverInTests,
    });
    const old = (
      await call('POST', `/api/v1/pipeline/${pipeline.id}/run`, { dryRun: true })
    ).json<PipelineRunDetail>();
    expect(old.items).toHaveLength(2);
    clockMs += 89 * 86_400_000;
    await context.container.pipelines.purgeRunItems();
    ownerToken = await logIn(context, owner);
    expect(
      (await call('GET', `/api/v1/pipeline/run/${old.id}`)).json<PipelineRunDetail>().items,
    ).toHaveLength(2);
    clockMs += 2 * 86_400_000;
    expect(await context.container.pipelines.purgeRunItems()).toBeGreaterThanOrEqual(2);
    ownerToken = await logIn(context, owner);
    const purged = (await call('GET', `/api/v1/pipeline/run/${old.id}`)).json<PipelineRunDetail>();
    expect(purged).toMatchObject({ id: old.id, matched: 2, items: [] });
  }, 60_000);
});
