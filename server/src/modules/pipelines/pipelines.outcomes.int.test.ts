// A pipeline run tells the truth about its changes (PostgreSQL, the Azure emulator, the job workers and
// a real SMTP server): a stop whose Azure operation fails turns its item failed with the executor's
// reason, ends the run failed and raises one alert, mailed to every member whatever their cost-mail
// preferences, however often the change's execution is replayed; an applied recommendation's change
// carries its run and its failure reaches the item the same way, while its cancellation before it
// began (its recommendation replaced) and the guard's hold are skips, which raise nothing; a change that
// succeeds leaves its item acted and raises nothing.
import type { ActivityLogResponse } from '@cloudtrim/contracts/activity';
import type { AlertListResponse } from '@cloudtrim/contracts/alerts';
import { wastePredictionMethod } from '@cloudtrim/contracts/recommendations';
import type { PipelineDefinitionRequest, PipelineRunDetail } from '@cloudtrim/contracts/pipelines';
import type { AzureEmulator } from '@cloudtrim/azure-emulator/emulator';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  createAzureEnvironment,
  createTenantRequest,
  listRunningVms,
  startTestEmulator,
  waitFor,
} from '../../../test/azure-emulator';
import { bearer, createUser, logIn, type TestUser } from '../../../test/helper';
import { createPipelineClient, neverInTests } from '../../../test/pipelines';
import { createMailTestContext, waitForMailJobs, type MailTestContext } from '../../../test/mailbox';
import type { Db } from '../../db/database';
import { createTransactionRunner } from '../../db/transaction';
import { recommendations, resources, scheduledChanges, tenants } from '../../db/schema';

let emulator: AzureEmulator;
let context: MailTestContext;
let db: Db;
let owner: TestUser;
let member: TestUser;
let token: string;
let tenantId: string;
let vms: (typeof resources.$inferSelect)[];

// Azure refuses every write (a 400 is no transient failure: the change fails at its first attempt).
const refusedWrites = { errorRate: 1, errorStatus: 400, kinds: ['arm-write'] as const };

const client = createPipelineClient(
  () => context,
  () => token,
);
const { call, readRun } = client;

async function runPipeline(definition: PipelineDefinitionRequest): Promise<PipelineRunDetail> {
  return client.runPipeline((await client.createPipeline(definition)).id, false);
}

const listAlerts = async () => (await call('GET', '/api/v1/alert')).json<AlertListResponse>();

// The change the run asked for on the VM, once the job workers have ended it.
async function waitForSettledChange(runId: string, resourceId: string) {
  return waitFor(async () => {
    const [change] = await db
      .select()
      .from(scheduledChanges)
      .where(and(eq(scheduledChanges.pipelineRunId, runId), eq(scheduledChanges.resourceId, resourceId)));
    return change && ['succeeded', 'failed', 'cancelled'].includes(change.state) ? change : undefined;
  });
}

// The team tag alone, in Azure as in inventory (the executor reads Azure's tags again before a stop).
async function tag(vm: typeof resources.$inferSelect, value: string): Promise<void> {
  emulator.fleet.findVirtualMachine(vm.armId)!.tags = { team: value };
  await db
    .update(resources)
    .set({ tags: { team: value } })
    .where(eq(resources.id, vm.id));
}

async function recommendDeallocation(vm: typeof resources.$inferSelect): Promise<number> {
  // The VM stopped from inside its guest two days ago (still billed), and the row the stopped-VM finder
  // writes for it: the workers' own analysis, which a metrics collection may start at any moment,
  // keeps that row (refreshing its saving) where it would withdraw a running VM's deallocation and
  // cancel its change before the executor reached Azure.
  const stoppedAt = new Date(Date.now() - 2 * 86_400_000);
  emulator.fleet.recordPowerState(
    emulator.fleet.findVirtualMachine(vm.armId)!,
    'stopped',
    stoppedAt.getTime(),
  );
  await db
    .update(resources)
    .set({ powerState: 'stopped', stateSince: stoppedAt })
    .where(eq(resources.id, vm.id));
  const [row] = await db
    .insert(recommendations)
    .values({
      teamId: owner.teamId,
      tenantId,
      resourceId: vm.id,
      kind: 'deallocate',
      predictionMethod: wastePredictionMethod,
      recommendation: 'Deallocate the idle VM',
      currentSize: vm.sku,
      annualCostSavings: 120,
      status: 'open',
    })
    .returning({ id: recommendations.id });
  return row!.id;
}

const applyDeallocations = (name: string, team: string, schedule: PipelineDefinitionRequest['schedule']) =>
  runPipeline({
    name,
    scope: { tags: [{ key: 'team', op: 'equals', value: team }] },
    condition: { finding: { kind: 'recommendation', recommendationKind: 'deallocate' } },
    action: { type: 'applyRecommendation' },
    schedule,
    gates: { dryRun: false },
  });

beforeAll(async () => {
  emulator = await startTestEmulator({ fleetSize: 8, operationDurationMs: 100 });
  context = await createMailTestContext(createAzureEnvironment(emulator));
  db = context.container.database.db;
  owner = await createUser(context);
  member = await createUser(context, { teamId: owner.teamId });
  token = await logIn(context, owner);
  // A failed run is mailed whatever the cost-mail preferences: the member turned them both off.
  const memberToken = await logIn(context, member);
  await context.app.inject({
    method: 'PUT',
    url: '/api/v1/alert/preferences',
    headers: { ...bearer(memberToken), 'content-type': 'application/json' },
    payload: JSON.stringify({ BudgetMails: false, AnomalyMails: false }),
  });
  await context.container.tenants.addTenant(owner.teamId, createTenantRequest(emulator, 0, 0));
  const [tenant] = await db.select().from(tenants).where(eq(tenants.teamId, owner.teamId));
  tenantId = tenant!.id;
  await context.container.inventory.syncTenant(tenantId);
  vms = await listRunningVms(db, tenantId);
  expect(vms.length).toBeGreaterThanOrEqual(5);
}, 120_000);
afterEach(() => emulator.setFaults({}));
afterAll(async () => {
  await context.close();
  await emulator.stop();
});

describe('a pipeline stop whose Azure operation fails', () => {
  it('fails its item with the reason, ends the run failed and alerts the team once, replays included', async () => {
    const vm = vms[0]!;
    await tag(vm, 'failing');
    emulator.setFaults(refusedWrites);
    const run = await runPipeline({
      name: 'Night stop',
      scope: { tags: [{ key: 'team', op: 'equals', value: 'failing' }] },
      action: { type: 'stop' },
      schedule: neverInTests,
      gates: { dryRun: false },
    });
    expect(run.items.map((item) => [item.resourceName, item.outcome])).toEqual([[vm.name, 'acted']]);

    const change = await waitForSettledChange(run.id, vm.id);
    expect(change).toMatchObject({ kind: 'deallocate', origin: 'pipeline', state: 'failed' });
    expect(change.error).toMatch(/400/);
    const failed = await readRun(run.id);
    expect(failed).toMatchObject({ state: 'failed', matched: 1, acted: 0, failed: 1 });
    expect(failed.items).toMatchObject([
      { resourceName: vm.name, outcome: 'failed', reason: null, detail: change.error },
    ]);

    const title = `Pipeline Night stop failed to stop VM ${vm.name}`;
    const alerts = await listAlerts();
    expect(alerts).toMatchObject({ Total: 1, Unacknowledged: 1 });
    expect(alerts.Alerts[0]).toMatchObject({
      Kind: 'pipeline',
      Title: title,
      Scope: `${vm.name}: ${change.error}`,
      Filter: {},
      Amount: failed.items[0]!.annualSaving,
      Expected: null,
      AcknowledgedAt: null,
    });
    const activity = (await call('GET', '/api/v1/log/0')).json<ActivityLogResponse>();
    expect(
      activity.filter((entry) => entry.ServiceName === 'Pipeline: Night stop').map((entry) => entry.LogText),
    ).toContainEqual(expect.stringMatching(/^The run of .* failed on 1 resource: /));
    for (const user of [owner, member]) {
      const mail = await context.mailbox.nextMailTo(user.email);
      expect(mail.subject).toBe('Pipeline failed: Night stop');
      expect(mail.text).toContain(`${title}.`);
      expect(mail.text).toContain('a year until it is done.');
      expect(mail.link).toBe('http://cloudtrim.test/automation');
    }

    // The job replayed (a pg-boss retry, a second worker) finds the change ended; and the run told
    // again of the same end changes nothing either.
    await context.container.automation.executor.execute(change.id);
    await createTransactionRunner(context.container.database)((transaction) =>
      context.container.pipelines.recordSettledChange(transaction, {
        runId: run.id,
        resourceId: vm.id,
        outcome: 'failed',
        reason: 'told twice',
        skip: null,
      }),
    );
    expect(await readRun(run.id)).toEqual(failed);
    await waitForMailJobs(context);
    expect(context.mailbox.mailsTo(owner.email)).toHaveLength(1);
    expect(context.mailbox.mailsTo(member.email)).toHaveLength(1);
    expect((await listAlerts()).Total).toBe(1);

    // Acknowledged as any alert.
    const acknowledged = await call('POST', `/api/v1/alert/${alerts.Alerts[0]!.Id}/acknowledge`);
    expect(acknowledged.statusCode).toBe(200);
    expect((await listAlerts()).Unacknowledged).toBe(0);
  }, 60_000);
});

describe("a pipeline's applied recommendation", () => {
  it('carries its run, and its failure in Azure fails the item and the run', async () => {
    const vm = vms[1]!;
    await tag(vm, 'applying');
    await recommendDeallocation(vm);
    emulator.setFaults(refusedWrites);
    const before = (await listAlerts()).Total;
    const run = await applyDeallocations('Apply deallocations', 'applying', neverInTests);

    const change = await waitForSettledChange(run.id, vm.id);
    expect(change, change.error ?? '').toMatchObject({ kind: 'deallocate', origin: 'now', state: 'failed' });
    const failedRun = await readRun(run.id);
    expect(failedRun).toMatchObject({
      state: 'failed',
      acted: 0,
      failed: 1,
      items: [{ resourceName: vm.name, outcome: 'failed', detail: change.error }],
    });
    const alerts = await listAlerts();
    expect(alerts.Total).toBe(before + 1);
    // The saving not made: the item's (the analysis may have priced the row again meanwhile).
    expect(alerts.Alerts[0]).toMatchObject({
      Kind: 'pipeline',
      Title: `Pipeline Apply deallocations failed to apply the recommendation of VM ${vm.name}`,
      Amount: failedRun.items[0]!.annualSaving,
    });
  }, 60_000);

  it('planned at the window and cancelled there, its recommendation replaced, is skipped: the next run takes the new one', async () => {
    const vm = vms[3]!;
    await tag(vm, 'window');
    // Its window half a day away: the change waits, planned, for it.
    await db
      .update(resources)
      .set({ maintenanceWindow: (new Date().getUTCHours() + 12) % 24 })
      .where(eq(resources.id, vm.id));
    const recommendationId = await recommendDeallocation(vm);
    const before = (await listAlerts()).Total;
    const run = await applyDeallocations('Apply at the window', 'window', { maintenanceWindow: true });
    expect(run).toMatchObject({ state: 'succeeded', acted: 1, items: [{ outcome: 'acted' }] });
    const [planned] = await db
      .select()
      .from(scheduledChanges)
      .where(eq(scheduledChanges.pipelineRunId, run.id));
    expect(planned).toMatchObject({ resourceId: vm.id, origin: 'window', state: 'planned' });

    const reason = 'a newer recommendation has replaced this one';
    expect(
      await context.container.automation.service.cancelChangesOfRecommendations([recommendationId], reason),
    ).toBe(1);
    expect(await readRun(run.id)).toMatchObject({
      state: 'succeeded',
      acted: 0,
      skipped: 1,
      failed: 0,
      items: [{ resourceName: vm.name, outcome: 'skipped', reason: 'noRecommendation', detail: reason }],
    });
    expect((await listAlerts()).Total).toBe(before);
  }, 60_000);

  it("stopped by the guard's hold after a rollback, is a 'held' skip: the run succeeds, nothing is raised", async () => {
    const vm = vms[4]!;
    await tag(vm, 'holding');
    await recommendDeallocation(vm);
    // The guard holds the VM's recommendations as the change is planned, after the run's gates let
    // it through: the executor finds the hold before its first write.
    await db.execute(sql`
      create or replace function test_hold_on_plan() returns trigger language plpgsql as $$
      begin
        update resource set recommendations_held_until = now() + interval '1 day' where id = new.resource_id;
        return new;
      end $$`);
    await db.execute(sql`
      create trigger test_hold_on_plan before insert on scheduled_change
      for each row execute function test_hold_on_plan()`);
    const before = (await listAlerts()).Total;
    let run: PipelineRunDetail;
    try {
      run = await applyDeallocations('Apply while held', 'holding', neverInTests);
    } finally {
      await db.execute(sql`drop trigger test_hold_on_plan on scheduled_change`);
    }

    const change = await waitForSettledChange(run.id, vm.id);
    expect(change.state).toBe('cancelled');
    expect(change.error).toMatch(/held after a rollback until/);
    expect(await readRun(run.id)).toMatchObject({
      state: 'succeeded',
      acted: 0,
      skipped: 1,
      failed: 0,
      items: [{ resourceName: vm.name, outcome: 'skipped', reason: 'held', detail: change.error }],
    });
    expect((await listAlerts()).Total).toBe(before);
  }, 60_000);
});

describe('a pipeline stop that succeeds', () => {
  it('leaves its item acted and the run succeeded, and raises nothing', async () => {
    const vm = vms[2]!;
    await tag(vm, 'working');
    const before = (await listAlerts()).Total;
    const run = await runPipeline({
      name: 'Evening stop',
      scope: { tags: [{ key: 'team', op: 'equals', value: 'working' }] },
      action: { type: 'stop' },
      schedule: neverInTests,
      gates: { dryRun: false },
    });

    expect(await waitForSettledChange(run.id, vm.id)).toMatchObject({ state: 'succeeded' });
    expect(await readRun(run.id)).toMatchObject({
      state: 'succeeded',
      acted: 1,
      failed: 0,
      items: [{ resourceName: vm.name, outcome: 'acted' }],
    });
    expect((await listAlerts()).Total).toBe(before);
  }, 60_000);
});
