// Automation pipelines against PostgreSQL and the Azure emulator: the calls (create, versions, pause,
// delete, refusals naming their field with nothing saved, another team's 404, templates), the builder's
// preview and a dry run writing nothing to Azure (counted at the emulator), the gates (opt-out tag,
// N in a row, blast radius), approval of a production VM's stop (the proposer refused, a colleague's
// approval stopping it, the log and Recent Activity naming the pipeline), a disk's deletion waiting for
// its grace period after approval, a rejection, a notify run's mails, YAML export and import, and the
// schedule firing at 09:00 London time across both 2027 daylight-saving changes.
import { readCurrentPowerState } from '@cloudtrim/azure-emulator/arm/arm.views';
import type { ActivityLogResponse } from '@cloudtrim/contracts/activity';
import type {
  ApprovalListResponse,
  Approval,
  Pipeline,
  PipelineDefinitionRequest,
  PipelineListResponse,
  PipelinePreviewResponse,
  PipelineRunDetail,
  PipelineRunListResponse,
  PipelineTemplatesResponse,
} from '@cloudtrim/contracts/pipelines';
import { automationLogResponseSchema } from '@cloudtrim/contracts/recommendations';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCloudTestContext, type CloudTestContext } from '../../../test/azure-emulator';
import { createUser, logIn, type TestUser } from '../../../test/helper';
import { createPipelineClient, createPipelineTeam, neverInTests } from '../../../test/pipelines';
import type { Db } from '../../db/database';
import { pipelineRuns, pipelines, recommendations, resources, scheduledChanges } from '../../db/schema';

let clockMs = Date.now();
const readClock = () => new Date(clockMs);

let context: CloudTestContext;
let db: Db;
let owner: TestUser;
let ownerToken: string;
let colleague: TestUser;
let colleagueToken: string;
let strangerToken: string;
let tenantId: string;
let vms: (typeof resources.$inferSelect)[];

const { call, createPipeline, runPipeline } = createPipelineClient(
  () => context,
  () => ownerToken,
);

// Tags the VMs as Azure would have them (the pipeline reads what inventory stored).
async function tagVms(tagged: { vm: typeof resources.$inferSelect; tags: Record<string, string> }[]) {
  for (const { vm, tags } of tagged) {
    await db.update(resources).set({ tags }).where(eq(resources.id, vm.id));
  }
}

function outcomesByName(run: PipelineRunDetail) {
  return Object.fromEntries(run.items.map((item) => [item.resourceName, [item.outcome, item.reason]]));
}

// The mails queued, one a recipient (no mail worker runs here).
async function countQueuedMails(): Promise<number> {
  const { rows } = await context.container.database.pool.query<{ count: number }>(
    "select count(*)::int as count from pgboss.job where name = 'send-email'",
  );
  return rows[0]!.count;
}

async function countPipelines(): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(pipelines)
    .where(eq(pipelines.teamId, owner.teamId));
  return row!.count;
}

beforeAll(async () => {
  context = await createCloudTestContext({
    now: readClock,
    emulator: { fleetSize: 12, operationDurationMs: 100 },
  });
  db = context.container.database.db;
  // Every VM untagged to start with; each test tags the ones it uses.
  ({ owner, ownerToken, tenantId, vms } = await createPipelineTeam(context, {
    minimumVms: 8,
    isUntagged: true,
  }));
  colleague = await createUser(context, { teamId: owner.teamId, role: 'Approver' });
  colleagueToken = await logIn(context, colleague);
  strangerToken = await logIn(context, await createUser(context));
}, 120_000);

afterAll(() => context.close());

describe('the pipeline calls', () => {
  const definition: PipelineDefinitionRequest = {
    name: 'Stop dev VMs',
    scope: { tags: [{ key: 'env', op: 'equals', value: 'dev' }] },
    action: { type: 'stop' },
    schedule: { cron: '0 19 * * 1-5', timeZone: 'Europe/London' },
  };

  it('creates, lists, edits as a new version, pauses, resumes and deletes', async () => {
    const created = await createPipeline(definition);
    expect(created).toMatchObject({
      name: 'Stop dev VMs',
      state: 'active',
      version: 1,
      scopeSummary: 'tag env = dev',
      lastRun: null,
      createdBy: owner.email,
      definition: {
        gates: { dryRun: true, inARow: 1, blastRadius: 10, approval: 'destructive', graceMinutes: 60 },
      },
    });
    expect(created.nextRunAt).not.toBeNull();
    const firstRun = await runPipeline(created.id, true);
    expect(firstRun.version).toBe(1);

    const edited = await call('PUT', `/api/v1/pipeline/${created.id}`, {
      ...definition,
      name: 'Stop dev VMs at 20:00',
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json<Pipeline>()).toMatchObject({
      name: 'Stop dev VMs at 20:00',
      version: 2,
      state: 'active',
    });
    const runs = (await call('GET', `/api/v1/pipeline/${created.id}/runs`)).json<PipelineRunListResponse>();
    expect(runs.runs.map((run) => run.version)).toEqual([1]);
    expect((await runPipeline(created.id, true)).version).toBe(2);

    const paused = (await call('POST', `/api/v1/pipeline/${created.id}/pause`)).json<Pipeline>();
    expect(paused).toMatchObject({ state: 'paused', nextRunAt: null });
    expect((await call('POST', `/api/v1/pipeline/${created.id}/resume`)).json<Pipeline>().state).toBe(
      'active',
    );

    const list = (await call('GET', '/api/v1/pipeline')).json<PipelineListResponse>();
    expect(list.pipelines.find((item) => item.id === created.id)).toMatchObject({
      lastRun: { matched: 0, acted: 0, dryRun: true },
    });

    expect((await call('GET', `/api/v1/pipeline/${created.id}`, undefined, strangerToken)).statusCode).toBe(
      404,
    );
    expect(
      (await call('DELETE', `/api/v1/pipeline/${created.id}`, undefined, strangerToken)).statusCode,
    ).toBe(404);
    expect((await call('DELETE', `/api/v1/pipeline/${created.id}`)).statusCode).toBe(204);
    expect((await call('GET', `/api/v1/pipeline/${created.id}`)).statusCode).toBe(404);
  });

  it('refuses a bad definition naming its field, and saves nothing', async () => {
    const before = await countPipelines();
    const refusals: [PipelineDefinitionRequest, string][] = [
      [{ ...definition, name: '' }, 'name'],
      [{ ...definition, schedule: { cron: '61 19 * * *', timeZone: 'Europe/London' } }, 'schedule.cron'],
      [{ ...definition, schedule: { cron: '0 19 * * *', timeZone: 'Europe/Londres' } }, 'schedule.timeZone'],
      [{ ...definition, action: { type: 'delete' } }, 'action.type'],
    ];
    for (const [body, field] of refusals) {
      const response = await call('POST', '/api/v1/pipeline', body);
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json<{ field: string }>().field).toBe(field);
    }
    // A tenant that is not the team's is not found, as every other team's object is.
    const unknownTenant = await call('POST', '/api/v1/pipeline', {
      ...definition,
      scope: { tenantIds: ['00000000-0000-0000-0000-000000000001'] },
    });
    expect(unknownTenant.statusCode, unknownTenant.body).toBe(404);
    expect(unknownTenant.json<{ message: string }>().message).toBe('Tenant not found.');
    expect(await countPipelines()).toBe(before);
  });

  it('offers the five templates, each a valid dry run', async () => {
    const response = await call('GET', '/api/v1/pipeline/templates');
    const { templates } = response.json<PipelineTemplatesResponse>();
    expect(templates.map((template) => template.title)).toEqual([
      'Stop dev VMs outside business hours',
      'Start dev VMs for business hours',
      'Deallocate stopped VMs',
      'Snapshot and delete disks unattached 30 days',
      'Apply high-confidence right-sizing in the window',
    ]);
    for (const template of templates) {
      expect(template.definition.gates.dryRun).toBe(true);
      const preview = await call('POST', '/api/v1/pipeline/preview', template.definition);
      expect(preview.statusCode, preview.body).toBe(200);
    }
  });
});

describe('preview and dry runs', () => {
  it('match the scope and write nothing to Azure', async () => {
    await tagVms([
      { vm: vms[0]!, tags: { env: 'dev' } },
      { vm: vms[1]!, tags: { Env: 'dev' } },
    ]);
    const definition: PipelineDefinitionRequest = {
      name: 'Dry dev',
      scope: { tags: [{ key: 'env', op: 'equals', value: 'dev' }] },
      action: { type: 'deallocate' },
      schedule: neverInTests,
    };
    const writesBefore = context.emulator.stats.calls['arm-write'];
    const preview = (
      await call('POST', '/api/v1/pipeline/preview', definition)
    ).json<PipelinePreviewResponse>();
    expect(preview).toMatchObject({ matched: 2, wouldAct: 2 });
    expect(preview.items.map((item) => [item.resourceName, item.outcome, item.detail])).toEqual([
      // No price read, no pipeline to start them: what stopping them saves is not known.
      [vms[0]!.name, 'matched', 'Would deallocate: no pipeline starts it again'],
      [vms[1]!.name, 'matched', 'Would deallocate: no pipeline starts it again'],
    ]);
    const pipeline = await createPipeline(definition);
    const run = await runPipeline(pipeline.id, true);
    expect(run).toMatchObject({ dryRun: true, state: 'succeeded', matched: 2, acted: 0 });
    expect(context.emulator.stats.calls['arm-write']).toBe(writesBefore);
    const changes = await db
      .select()
      .from(scheduledChanges)
      .where(inArray(scheduledChanges.resourceId, [vms[0]!.id, vms[1]!.id]));
    expect(changes).toEqual([]);
    await call('DELETE', `/api/v1/pipeline/${pipeline.id}`);
    await tagVms([
      { vm: vms[0]!, tags: {} },
      { vm: vms[1]!, tags: {} },
    ]);
  });
});

describe('the gates', () => {
  it('act only after N evaluations in a row, never on an opted-out resource, at most K a run', async () => {
    const [first, second, third, optedOut] = [vms[2]!, vms[3]!, vms[4]!, vms[5]!];
    await tagVms([
      { vm: first, tags: { team: 'gates' } },
      { vm: second, tags: { team: 'gates' } },
      { vm: third, tags: { team: 'gates' } },
      { vm: optedOut, tags: { team: 'gates', 'cloudtrim:exclude': '' } },
    ]);
    const pipeline = await createPipeline({
      name: 'Gated',
      scope: { tags: [{ key: 'team', op: 'equals', value: 'gates' }] },
      action: { type: 'deallocate' },
      schedule: { cron: '0 * * * *', timeZone: 'UTC' },
      gates: { dryRun: false, inARow: 2, blastRadius: 2 },
    });
    // The in-a-row gate counts scheduled evaluations only: each of the next hours' ticks.
    const evaluate = async () => {
      clockMs = (Math.floor(clockMs / 3_600_000) + 1) * 3_600_000 + 60_000;
      await context.container.pipelines.runDuePipelines();
      const [latest] = (
        await call('GET', `/api/v1/pipeline/${pipeline.id}/runs`)
      ).json<PipelineRunListResponse>().runs;
      return (await call('GET', `/api/v1/pipeline/run/${latest!.id}`)).json<PipelineRunDetail>();
    };

    const once = await evaluate();
    expect(outcomesByName(once)).toEqual({
      [first.name]: ['skipped', 'notEnoughInARow'],
      [second.name]: ['skipped', 'notEnoughInARow'],
      [third.name]: ['skipped', 'notEnoughInARow'],
      [optedOut.name]: ['skipped', 'optedOut'],
    });
    // The third VM stops matching: its count starts again.
    await tagVms([{ vm: third, tags: {} }]);
    const twice = await evaluate();
    expect(twice).toMatchObject({ matched: 3, acted: 2, skipped: 1, state: 'succeeded' });
    expect(outcomesByName(twice)).toEqual({
      [first.name]: ['acted', null],
      [second.name]: ['acted', null],
      [optedOut.name]: ['skipped', 'optedOut'],
    });
    await tagVms([{ vm: third, tags: { team: 'gates' } }]);
    expect(outcomesByName(await evaluate())[third.name]).toEqual(['skipped', 'notEnoughInARow']);

    const capped = (await evaluate()).items;
    expect(capped.filter((item) => item.outcome === 'acted')).toHaveLength(2);
    expect(capped.filter((item) => item.reason === 'overBlastRadius')).toHaveLength(1);

    const changes = await db
      .select({ resourceId: scheduledChanges.resourceId, origin: scheduledChanges.origin })
      .from(scheduledChanges)
      .where(eq(scheduledChanges.origin, 'pipeline'));
    expect(changes.map((change) => change.resourceId)).not.toContain(optedOut.id);
    await call('DELETE', `/api/v1/pipeline/${pipeline.id}`);
  });
});

describe('approval of a destructive action', () => {
  it('refuses the proposer, and a colleague approving stops the production VM under the pipeline name', async () => {
    const production = vms[6]!;
    await tagVms([{ vm: production, tags: { environment: 'Production', team: 'approval' } }]);
    const pipeline = await createPipeline({
      name: 'Stop production at night',
      scope: { tags: [{ key: 'team', op: 'equals', value: 'approval' }] },
      action: { type: 'stop' },
      schedule: neverInTests,
      gates: { dryRun: false, graceMinutes: 0 },
    });
    const mailsBefore = await countQueuedMails();
    const run = await runPipeline(pipeline.id, false);
    expect(run).toMatchObject({ state: 'awaitingApproval', acted: 0 });
    // The notice: one mail, to the colleague (not the proposer), and a Recent Activity entry.
    expect((await countQueuedMails()) - mailsBefore).toBe(1);
    expect(outcomesByName(run)).toEqual({ [production.name]: ['skipped', 'awaitingApproval'] });
    expect(
      await db.select().from(scheduledChanges).where(eq(scheduledChanges.resourceId, production.id)),
    ).toEqual([]);

    expect((await call('GET', '/api/v1/approval')).json<ApprovalListResponse>().approvals).toEqual([]);
    const [approval] = (
      await call('GET', '/api/v1/approval', undefined, colleagueToken)
    ).json<ApprovalListResponse>().approvals;
    expect(approval).toMatchObject({
      pipelineName: 'Stop production at night',
      state: 'waiting',
      proposedBy: owner.email,
    });

    const own = await call('POST', `/api/v1/approval/${approval!.id}`, { decision: 'approve' });
    expect(own.statusCode).toBe(403);
    expect(own.json<{ message: string }>().message).toBe('A colleague must approve this: you proposed it.');
    expect(
      (await call('POST', `/api/v1/approval/${approval!.id}`, { decision: 'approve' }, strangerToken))
        .statusCode,
    ).toBe(404);

    const approved = await call(
      'POST',
      `/api/v1/approval/${approval!.id}`,
      { decision: 'approve' },
      colleagueToken,
    );
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json<Approval>()).toMatchObject({ state: 'done', items: [{ outcome: 'acted' }] });
    const [change] = await db
      .select()
      .from(scheduledChanges)
      .where(eq(scheduledChanges.resourceId, production.id));
    expect(change).toMatchObject({ kind: 'deallocate', origin: 'pipeline', pipelineRunId: run.id });
    await context.container.automation.executor.execute(change!.id);
    expect(readCurrentPowerState(context.emulator.fleet.findVirtualMachine(production.armId)!)).toBe(
      'deallocated',
    );

    const log = automationLogResponseSchema.parse(
      (await call('GET', `/api/v1/log/automation?resourceId=${encodeURIComponent(production.armId)}`)).json(),
    );
    expect(log.Data.map((entry) => entry.Action)).toContain(
      `Pipeline Stop production at night: Stop (deallocate): no pipeline starts it again (approved by ${colleague.email})`,
    );
    const activity = (await call('GET', '/api/v1/log/0')).json<ActivityLogResponse>();
    expect(
      activity.filter((entry) => entry.ServiceName === 'Pipeline: Stop production at night').length,
    ).toBeGreaterThanOrEqual(2);
    const detail = (await call('GET', `/api/v1/pipeline/run/${run.id}`)).json<PipelineRunDetail>();
    expect(detail).toMatchObject({ state: 'succeeded', acted: 1 });
  });
});

describe('an approval with a grace period', () => {
  it('deletes an unattached disk only once a colleague approved and the grace period is over', async () => {
    const [disk] = await db
      .select()
      .from(resources)
      .where(and(eq(resources.tenantId, tenantId), eq(resources.type, 'Microsoft.Compute/disks')))
      .orderBy(resources.name)
      .limit(1);
    expect(disk).toBeDefined();
    await db
      .update(resources)
      .set({ tags: { team: 'grace' } })
      .where(eq(resources.id, disk!.id));
    const [recommendation] = await db
      .insert(recommendations)
      .values({
        teamId: owner.teamId,
        tenantId,
        resourceId: disk!.id,
        kind: 'deleteDisk',
        predictionMethod: 'waste',
        recommendation: 'Delete the unattached disk',
        annualCostSavings: 84,
        status: 'open',
      })
      .returning({ id: recommendations.id });
    const pipeline = await createPipeline({
      name: 'Delete waste',
      scope: { tags: [{ key: 'team', op: 'equals', value: 'grace' }] },
      condition: { finding: { kind: 'recommendation', recommendationKind: 'deleteDisk' } },
      action: { type: 'delete' },
      schedule: neverInTests,
      gates: { dryRun: false, graceMinutes: 60 },
    });
    const run = await runPipeline(pipeline.id, false);
    expect(run.items).toMatchObject([{ outcome: 'skipped', reason: 'awaitingApproval', annualSaving: 84 }]);
    const [approval] = (await call('GET', '/api/v1/approval', undefined, colleagueToken))
      .json<ApprovalListResponse>()
      .approvals.filter((item) => item.pipelineId === pipeline.id);
    const approved = await call(
      'POST',
      `/api/v1/approval/${approval!.id}`,
      { decision: 'approve' },
      colleagueToken,
    );
    expect(approved.json<Approval>()).toMatchObject({ state: 'approved', decidedBy: colleague.email });
    const changesOfDisk = () =>
      db.select().from(scheduledChanges).where(eq(scheduledChanges.resourceId, disk!.id));
    await context.container.pipelines.runDuePipelines();
    expect(await changesOfDisk()).toEqual([]);

    clockMs += 61 * 60_000;
    await context.container.pipelines.runDuePipelines();
    expect(await changesOfDisk()).toMatchObject([
      { kind: 'deleteDisk', recommendationId: recommendation!.id },
    ]);
    const detail = (await call('GET', `/api/v1/pipeline/run/${run.id}`)).json<PipelineRunDetail>();
    expect(detail).toMatchObject({ state: 'succeeded', acted: 1, items: [{ outcome: 'acted' }] });
    await call('DELETE', `/api/v1/pipeline/${pipeline.id}`);
  });

  it('leaves the resource alone once a colleague rejects', async () => {
    const production = vms[5]!;
    await tagVms([{ vm: production, tags: { env: 'prod', team: 'reject' } }]);
    const pipeline = await createPipeline({
      name: 'Rejected stop',
      scope: { tags: [{ key: 'team', op: 'equals', value: 'reject' }] },
      action: { type: 'deallocate' },
      schedule: neverInTests,
      gates: { dryRun: false, graceMinutes: 0 },
    });
    const run = await runPipeline(pipeline.id, false);
    const [approval] = (await call('GET', '/api/v1/approval', undefined, colleagueToken))
      .json<ApprovalListResponse>()
      .approvals.filter((item) => item.pipelineId === pipeline.id);
    const rejected = await call(
      'POST',
      `/api/v1/approval/${approval!.id}`,
      { decision: 'reject' },
      colleagueToken,
    );
    expect(rejected.json<Approval>()).toMatchObject({ state: 'rejected', items: [{ reason: 'rejected' }] });
    const again = await call(
      'POST',
      `/api/v1/approval/${approval!.id}`,
      { decision: 'approve' },
      colleagueToken,
    );
    expect(again.statusCode).toBe(409);
    expect(
      await db.select().from(scheduledChanges).where(eq(scheduledChanges.pipelineRunId, run.id)),
    ).toEqual([]);
    expect((await call('GET', `/api/v1/pipeline/run/${run.id}`)).json<PipelineRunDetail>().state).toBe(
      'succeeded',
    );
    await call('DELETE', `/api/v1/pipeline/${pipeline.id}`);
  });
});

describe('the opt-out tag after an approval', () => {
  it('still wins: a resource tagged cloudtrim:exclude since the proposal is left alone', async () => {
    const production = vms[4]!;
    await tagVms([{ vm: production, tags: { env: 'production', team: 'late-opt-out' } }]);
    const pipeline = await createPipeline({
      name: 'Late opt-out',
      scope: { tags: [{ key: 'team', op: 'equals', value: 'late-opt-out' }] },
      action: { type: 'stop' },
      schedule: neverInTests,
      gates: { dryRun: false, graceMinutes: 0 },
    });
    const run = await runPipeline(pipeline.id, false);
    await tagVms([
      { vm: production, tags: { env: 'production', team: 'late-opt-out', 'cloudtrim:exclude': '' } },
    ]);
    const [approval] = (await call('GET', '/api/v1/approval', undefined, colleagueToken))
      .json<ApprovalListResponse>()
      .approvals.filter((item) => item.pipelineId === pipeline.id);
    const approved = await call(
      'POST',
      `/api/v1/approval/${approval!.id}`,
      { decision: 'approve' },
      colleagueToken,
    );
    expect(approved.json<Approval>()).toMatchObject({
      state: 'done',
      items: [{ outcome: 'skipped', reason: 'optedOut' }],
    });
    expect(
      await db.select().from(scheduledChanges).where(eq(scheduledChanges.pipelineRunId, run.id)),
    ).toEqual([]);
    await call('DELETE', `/api/v1/pipeline/${pipeline.id}`);
  });
});

describe('a notify pipeline', () => {
  it('mails every member the resources it matched, and notes each in Recent Activity', async () => {
    await tagVms([{ vm: vms[7]!, tags: { team: 'notify' } }]);
    const pipeline = await createPipeline({
      name: 'Tell us',
      scope: { tags: [{ key: 'team', op: 'equals', value: 'notify' }] },
      action: { type: 'notify' },
      schedule: neverInTests,
      gates: { dryRun: false, approval: 'always' },
    });
    const mailsBefore = await countQueuedMails();
    const run = await runPipeline(pipeline.id, false);
    expect(run).toMatchObject({ state: 'succeeded', acted: 1 });
    expect((await countQueuedMails()) - mailsBefore).toBe(2);
    const activity = (await call('GET', '/api/v1/log/0')).json<ActivityLogResponse>();
    expect(activity).toContainEqual(
      expect.objectContaining({
        ServiceName: 'Pipeline: Tell us',
        LogText: `${vms[7]!.name}: Notify the team`,
      }),
    );
    await call('DELETE', `/api/v1/pipeline/${pipeline.id}`);
  });
});

describe('pipelines as code', () => {
  it('exports YAML that imports as a new pipeline, and refuses a bad file by line and field', async () => {
    const pipeline = await createPipeline({
      name: 'Right-size in the window',
      condition: { finding: { kind: 'recommendation', recommendationKind: 'resize', minConfidence: 0.8 } },
      action: { type: 'applyRecommendation' },
      schedule: { maintenanceWindow: true },
    });
    const exported = await call('GET', `/api/v1/pipeline/${pipeline.id}/export`);
    expect(exported.statusCode).toBe(200);
    expect(exported.headers['content-type']).toBe('application/yaml; charset=utf-8');
    expect(exported.body).toContain('minConfidence: 0.8');
    const imported = await call('POST', '/api/v1/pipeline/import', { yaml: exported.body });
    expect(imported.statusCode, imported.body).toBe(201);
    expect(imported.json<Pipeline>().definition).toEqual(pipeline.definition);

    const before = await countPipelines();
    const badField = await call('POST', '/api/v1/pipeline/import', {
      yaml: [
        'name: Bad',
        'action:',
        '  type: stop',
        'schedule:',
        '  maintenanceWindow: true',
        'gates:',
        '  blastRadius: 0',
        '',
      ].join('\n'),
    });
    expect(badField.statusCode).toBe(400);
    expect(badField.json()).toMatchObject({ line: 7, field: 'gates.blastRadius' });
    const badSyntax = await call('POST', '/api/v1/pipeline/import', { yaml: 'name: Bad\naction: [stop\n' });
    expect(badSyntax.statusCode).toBe(400);
    expect(badSyntax.json<{ line: number }>().line).toBeGreaterThanOrEqual(2);
    expect(await countPipelines()).toBe(before);

    const schema = await context.app.inject({ method: 'GET', url: '/api/v1/pipeline/schema.json' });
    expect(schema.statusCode).toBe(200);
    expect(schema.json<{ required: string[] }>().required).toEqual(['name', 'action', 'schedule']);
    await call('DELETE', `/api/v1/pipeline/${pipeline.id}`);
    await call('DELETE', `/api/v1/pipeline/${imported.json<Pipeline>().id}`);
  });
});

describe('the schedule', () => {
  it('fires 0 9 * * * Europe/London at 09:00 local across both 2027 daylight-saving changes, once a tick', async () => {
    clockMs = Date.UTC(2027, 2, 26, 12, 0);
    ownerToken = await logIn(context, owner);
    const pipeline = await createPipeline({
      name: 'London nine',
      action: { type: 'notify' },
      schedule: { cron: '0 9 * * *', timeZone: 'Europe/London' },
    });
    // The tick job's view at a few minutes of each day: before, at and after 08:00 and 09:00 UTC.
    const moments = [
      '2027-03-27',
      '2027-03-28',
      '2027-03-29',
      '2027-10-30',
      '2027-10-31',
      '2027-11-01',
    ].flatMap((day) =>
      ['07:59', '08:00', '08:01', '08:59', '09:00', '09:01'].map((time) => Date.parse(`${day}T${time}:00Z`)),
    );
    for (const moment of moments) {
      clockMs = moment;
      await context.container.pipelines.runDuePipelines();
    }
    const runs = await db
      .select({ scheduledFor: pipelineRuns.scheduledFor })
      .from(pipelineRuns)
      .where(eq(pipelineRuns.pipelineId, pipeline.id))
      .orderBy(pipelineRuns.scheduledFor);
    expect(runs.map((run) => run.scheduledFor.toISOString())).toEqual([
      '2027-03-27T09:00:00.000Z',
      '2027-03-28T08:00:00.000Z',
      '2027-03-29T08:00:00.000Z',
      '2027-10-30T08:00:00.000Z',
      '2027-10-31T09:00:00.000Z',
      '2027-11-01T09:00:00.000Z',
    ]);
  });

  it("runs a window pipeline in each resource's own window hour, and not in an hour that is nobody's", async () => {
    clockMs = Date.UTC(2027, 10, 2, 4, 0);
    ownerToken = await logIn(context, owner);
    const [early, late] = [vms[0]!, vms[1]!];
    await tagVms([
      { vm: early, tags: { team: 'window' } },
      { vm: late, tags: { team: 'window' } },
    ]);
    await db.update(resources).set({ maintenanceWindow: 5 }).where(eq(resources.id, early.id));
    await db.update(resources).set({ maintenanceWindow: 23 }).where(eq(resources.id, late.id));
    const pipeline = await createPipeline({
      name: 'In the window',
      scope: { tags: [{ key: 'team', op: 'equals', value: 'window' }] },
      action: { type: 'notify' },
      schedule: { maintenanceWindow: true },
    });
    for (const time of ['2027-11-02T05:00:00Z', '2027-11-02T07:00:00Z', '2027-11-02T23:01:00Z']) {
      clockMs = Date.parse(time);
      await context.container.pipelines.runDuePipelines();
    }
    ownerToken = await logIn(context, owner);
    const runs = (await call('GET', `/api/v1/pipeline/${pipeline.id}/runs`)).json<PipelineRunListResponse>()
      .runs;
    expect(runs.map((run) => run.scheduledFor)).toEqual([
      '2027-11-02T23:00:00.000Z',
      '2027-11-02T05:00:00.000Z',
    ]);
    const items = await Promise.all(
      runs.map(async (run) =>
        (await call('GET', `/api/v1/pipeline/run/${run.id}`))
          .json<PipelineRunDetail>()
          .items.map((item) => item.resourceName),
      ),
    );
    expect(items).toEqual([[late.name], [early.name]]);
  });
});
