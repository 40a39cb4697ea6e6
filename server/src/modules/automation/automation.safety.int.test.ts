// The executor's guarantees with production: a change acts only while it is still wanted, one at a
// time per VM, exactly once when runs overlap, and never leaves a VM half-done. Races are driven
// by holding transactions open at chosen points; Azure's faults come from the emulator.
import { findVirtualMachineSize } from '@cloudtrim/azure-emulator/catalog/sku.catalog';
import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createAzureGateway } from '../../cloud/azure/azure-gateway';
import type { CloudProvider } from '../../cloud/cloud-provider';
import type { Db } from '../../db/database';
import { createTransactionRunner } from '../../db/transaction';
import { automationLogs, resources, scheduledChanges, tenants } from '../../db/schema';
import { connectTenant, createCloudTestContext, type CloudTestContext } from '../../../test/azure-emulator';
import { bearer, createUser, logIn, type TestUser } from '../../../test/helper';
import { AutomationExecutor, defaultExecutorOptions } from './automation.executor';
import { AutomationRepository } from './automation.repository';
import { createAutomationFixture, type ResourceRow } from './testing/automation.fixture';

let context: CloudTestContext;
let owner: TestUser;
let ownerToken: string;
let tenantId: string;
let db: Db;

beforeAll(async () => {
  context = await createCloudTestContext({
    emulator: { fleetSize: 36, operationDurationMs: 300, isClusterBound: true },
  });
  db = context.container.database.db;
  owner = await createUser(context);
  ownerToken = await logIn(context, owner);
  tenantId = await connectTenant(context, owner.teamId, 0, 0);
  await context.container.inventory.syncTenant(tenantId);
  await context.container.pricing.ensureFreshForTenant(tenantId);
}, 60_000);
afterEach(() => {
  context.emulator.setFaults({});
  context.emulator.setUnallocatableSizes([]);
});
afterAll(() => context.close());

const { readVm, pickTargetSize, pickRunningVm, insertRecommendation } = createAutomationFixture(
  () => context,
  () => db,
  () => owner.teamId,
  () => tenantId,
);

const executor = () => context.container.automation.executor;
const cloud = () => createAzureGateway(context.config.azure);

// The container's executor with waits shortened (Azure's 409s are waited out 5 s, 10 s, …).
const createQuickExecutor = (cloudProvider: CloudProvider) =>
  new AutomationExecutor(
    new AutomationRepository(db),
    createTransactionRunner(context.container.database),
    context.container.tenants,
    cloudProvider,
    context.container.activity,
    () => new Date(),
    (error) => (error instanceof Error ? error.message : String(error)),
    (transaction, settlement) => context.container.pipelines.recordSettledChange(transaction, settlement),
    { ...defaultExecutorOptions, sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms / 20)) },
  );

const apply = (timing: 'now' | 'maintenancewindow', id: number) =>
  context.app.inject({
    method: 'GET',
    url: `/api/v1/log/recommendation/apply/${timing}?id=${id}`,
    headers: bearer(ownerToken),
  });

const readChange = async (id: number) =>
  (await db.select().from(scheduledChanges).where(eq(scheduledChanges.id, id)))[0]!;

const changesOf = (resourceId: string) =>
  db
    .select()
    .from(scheduledChanges)
    .where(eq(scheduledChanges.resourceId, resourceId))
    .orderBy(scheduledChanges.id);

const readActions = async (resourceId: string) =>
  (
    await db
      .select({ action: automationLogs.action })
      .from(automationLogs)
      .where(eq(automationLogs.resourceId, resourceId))
      .orderBy(automationLogs.id)
  ).map((row) => row.action);

const readActivity = async (resource: ResourceRow) =>
  (await context.container.activity.listEntries(owner.teamId, 0, resource.armId)).map(
    (entry) => entry.LogText,
  );

const countResizes = (resource: ResourceRow) => readVm(resource.armId).machine.sizeHistory.length;

// A resize down of a fresh VM applied now: claimed, its job sent, not yet run.
async function applyResizeNow(resource?: ResourceRow) {
  const vm = resource ?? (await pickRunningVm());
  const previous = readVm(vm.armId).size.name;
  const target = pickTargetSize(vm, true);
  const id = await insertRecommendation(vm, { targetSize: target });
  const response = await apply('now', id);
  expect(response.statusCode, response.body).toBe(200);
  const [change] = (await changesOf(vm.id)).filter((row) => row.recommendationId === id);
  return { vm, previous, target, recommendationId: id, changeId: change!.id };
}

describe('a change runs only while its reason holds', () => {
  it('is cancelled, with no Azure write, when its recommendation was replaced after the apply', async () => {
    const { vm, previous, recommendationId, changeId } = await applyResizeNow();
    // The analysis supersedes the row while the change waits for its worker.
    await db.execute(sql`update recommendation set status = 'superseded' where id = ${recommendationId}`);
    const writes = countResizes(vm);
    await executor().execute(changeId);

    expect(await readChange(changeId)).toMatchObject({ state: 'cancelled' });
    expect(countResizes(vm)).toBe(writes);
    expect(readVm(vm.armId).size.name).toBe(previous);
    expect((await readActions(vm.id)).at(-1)).toMatch(
      /cancelled: a newer recommendation has replaced this one$/,
    );
    expect((await readActivity(vm))[0]).toMatch(/cancelled: a newer recommendation has replaced this one$/);
  });

  it('cancels the changes an analysis replaces while they wait for their window', async () => {
    const vm = await pickRunningVm();
    const id = await insertRecommendation(vm, { targetSize: pickTargetSize(vm, true) });
    expect((await apply('maintenancewindow', id)).statusCode).toBe(200);
    expect(
      await context.container.automation.service.cancelChangesOfRecommendations(
        [id],
        'a newer recommendation has replaced this one',
      ),
    ).toBe(1);
    expect(await changesOf(vm.id)).toMatchObject([{ state: 'cancelled' }]);
  });

  it('is cancelled when an automated resource left Automate, or a hold began, before it acts', async () => {
    const vm = await pickRunningVm();
    await db.update(resources).set({ automated: 1 }).where(eq(resources.id, vm.id));
    await insertRecommendation(vm, { targetSize: pickTargetSize(vm, true) });
    expect(await context.container.automation.service.planAutomatedResources(tenantId)).toBe(1);
    const [planned] = await changesOf(vm.id);
    await db
      .update(scheduledChanges)
      .set({ changeAt: new Date(Date.now() - 1000) })
      .where(eq(scheduledChanges.id, planned!.id));
    await context.container.automation.service.dispatchDueChanges();
    // Someone set Recommend Only straight in the table, so nothing but the executor's check sees it.
    await db.update(resources).set({ automated: 0 }).where(eq(resources.id, vm.id));
    await executor().execute(planned!.id);
    expect(await readChange(planned!.id)).toMatchObject({
      state: 'cancelled',
      error: 'the resource is no longer set to Automate',
    });

    const { vm: held, changeId } = await applyResizeNow();
    const heldUntil = new Date(Date.now() + 86_400_000);
    await db.update(resources).set({ recommendationsHeldUntil: heldUntil }).where(eq(resources.id, held.id));
    await executor().execute(changeId);
    expect((await readChange(changeId)).error).toBe(
      `the resource's recommendations are held after a rollback until ${heldUntil.toISOString()}`,
    );
  });

  it('leaves a VM a human resized alone: cancelled, said in the log and Recent Activity, no Azure write', async () => {
    const { vm, target, changeId } = await applyResizeNow();
    const { machine } = readVm(vm.armId);
    const byHand = pickTargetSize(vm, false);
    context.emulator.fleet.recordResize(machine, findVirtualMachineSize(byHand)!, Date.now());
    const writes = countResizes(vm);
    await executor().execute(changeId);

    const change = await readChange(changeId);
    expect(change.state).toBe('cancelled');
    expect(change.error).toMatch(new RegExp(`^the VM is now ${byHand}, not `));
    expect(countResizes(vm)).toBe(writes);
    expect(readVm(vm.armId).size.name).not.toBe(target);
    expect((await readActivity(vm))[0]).toContain('cancelled: the VM is now');
  });

  it("answers 409 to apply now on a VM whose size in Azure is no longer the recommendation's", async () => {
    const vm = await pickRunningVm();
    const id = await insertRecommendation(vm, {
      targetSize: pickTargetSize(vm, true),
      currentSize: pickTargetSize(vm, false),
    });
    const response = await apply('now', id);
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toContain(`${vm.name} is now ${readVm(vm.armId).size.name}, not `);
    expect(await changesOf(vm.id)).toEqual([]);
  });
});

describe('one change at a time per VM', () => {
  it('answers 409 naming the change in flight to a second apply for the same VM', async () => {
    const { vm, changeId } = await applyResizeNow();
    const second = await insertRecommendation(vm, { kind: 'shutdown', targetSize: null });
    for (const timing of ['now', 'maintenancewindow'] as const) {
      const response = await apply(timing, second);
      expect(response.statusCode).toBe(409);
      expect(response.json().message).toContain(`change ${changeId}`);
    }
    expect(await changesOf(vm.id)).toHaveLength(1);
    await executor().execute(changeId);
  });

  it('queues the guard and active hours behind a change in flight, never beside it', async () => {
    const { vm, changeId } = await applyResizeNow();
    const [queuedId] = await createTransactionRunner(context.container.database)((transaction) =>
      context.container.automation.service.requestChanges(transaction, [
        {
          change: {
            teamId: owner.teamId,
            tenantId,
            resourceId: vm.id,
            recommendationId: null,
            kind: 'deallocate',
            origin: 'activeHours',
            predictionMethod: 'Active hours',
            previousSize: null,
            newSize: null,
            changeAt: new Date(),
          },
          resourceArmId: vm.armId,
          resourceName: vm.name,
          action: 'Deallocation for active hours',
        },
      ]),
    );
    expect(await readChange(queuedId!)).toMatchObject({ state: 'planned' });
    expect(await context.container.automation.service.dispatchDueChanges()).toBe(0);
    await executor().execute(changeId);
    expect(await context.container.automation.service.dispatchDueChanges()).toBe(1);
    await executor().execute(queuedId!);
    expect(await readChange(queuedId!)).toMatchObject({ state: 'succeeded' });
    expect(readVm(vm.armId).powerState).toBe('deallocated');
  });

  it('skips a VM whose lock an apply holds: the dispatcher claims its change only after', async () => {
    const vm = await pickRunningVm();
    const id = await insertRecommendation(vm, { targetSize: pickTargetSize(vm, true) });
    expect((await apply('maintenancewindow', id)).statusCode).toBe(200);
    const [planned] = await changesOf(vm.id);
    await db
      .update(scheduledChanges)
      .set({ changeAt: new Date(Date.now() - 1000) })
      .where(eq(scheduledChanges.id, planned!.id));

    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let isLocked!: () => void;
    const locked = new Promise<void>((resolve) => (isLocked = resolve));
    const holder = createTransactionRunner(context.container.database)(async (transaction) => {
      await new AutomationRepository(transaction.db).lockResource(vm.id);
      isLocked();
      await held;
    });
    await locked;
    expect(await context.container.automation.service.dispatchDueChanges()).toBe(0);
    release();
    await holder;
    expect(await context.container.automation.service.dispatchDueChanges()).toBe(1);
    await executor().execute(planned!.id);
    expect(await readChange(planned!.id)).toMatchObject({ state: 'succeeded' });
  });

  it('refuses a second change in flight for one VM in the database itself', async () => {
    const { vm, changeId } = await applyResizeNow();
    const change = await readChange(changeId);
    await expect(
      db.insert(scheduledChanges).values({ ...change, id: undefined, state: 'claimed', version: 1 }),
    ).rejects.toThrow();
    await executor().execute(changeId);
    expect(await changesOf(vm.id)).toHaveLength(1);
  });
});

describe('each change runs exactly once', () => {
  it('two runs of one change at once, with a slow PATCH: one Azure write, one final state', async () => {
    const { vm, target, changeId } = await applyResizeNow();
    context.emulator.setFaults({ delayMs: 800, kinds: ['arm-write'] });
    const writes = countResizes(vm);
    await Promise.all([executor().execute(changeId), executor().execute(changeId)]);

    expect(countResizes(vm) - writes).toBe(1);
    expect(readVm(vm.armId).size.name).toBe(target);
    const change = await readChange(changeId);
    expect(change).toMatchObject({ state: 'succeeded', attempts: 1, claimToken: null });
    expect((await readActions(vm.id)).filter((action) => action.endsWith('submitted'))).toHaveLength(1);
  });

  it("waits out Azure's 409 while another operation runs on the VM, then acts once", async () => {
    const { vm, target, changeId } = await applyResizeNow();
    const credentials = (await context.container.tenants.openForWork(tenantId, 'test'))!.credentials;
    // Someone starts the VM in the portal between our decision and our resize.
    const gateway = cloud();
    const racing: CloudProvider = Object.create(gateway);
    let isFirst = true;
    racing.beginResize = async (...parameters) => {
      if (isFirst) await gateway.beginPowerAction(credentials, vm.armId, 'start');
      isFirst = false;
      return gateway.beginResize(...parameters);
    };
    const conflicts = context.emulator.stats.conflicts;
    await createQuickExecutor(racing).execute(changeId);

    expect(context.emulator.stats.conflicts).toBeGreaterThan(conflicts);
    expect(await readChange(changeId)).toMatchObject({ state: 'succeeded' });
    expect(readVm(vm.armId).size.name).toBe(target);
  });

  it('a run whose lease lapsed (its worker died) is resumed by the dispatcher from its saved operation', async () => {
    const { vm, target, changeId } = await applyResizeNow();
    const controller = new AbortController();
    const run = executor().execute(changeId, controller.signal);
    const submitted = await waitForState(changeId, 'submitted');
    controller.abort();
    await run.catch(() => {});
    // As a worker killed there leaves it: its token on the row, its lease about to lapse.
    await db
      .update(scheduledChanges)
      .set({
        claimToken: submitted.claimToken ?? crypto.randomUUID(),
        leaseUntil: new Date(Date.now() - 1000),
        operationUrl: submitted.operationUrl,
      })
      .where(eq(scheduledChanges.id, changeId));
    const writes = countResizes(vm);

    expect(await context.container.automation.service.dispatchDueChanges()).toBe(1);
    await executor().execute(changeId);
    expect(await readChange(changeId)).toMatchObject({ state: 'succeeded' });
    expect(countResizes(vm)).toBe(writes);
    expect(readVm(vm.armId).size.name).toBe(target);
  });
});

describe('never half-done', () => {
  it('when the new size cannot be allocated after a deallocation, goes back to the old size and starts', async () => {
    const vm = await pickRunningVm();
    const previous = readVm(vm.armId).size.name;
    const target = pickTargetSize(vm, false);
    const id = await insertRecommendation(vm, { targetSize: target });
    expect((await apply('now', id)).statusCode).toBe(200);
    const [change] = await changesOf(vm.id);
    context.emulator.setUnallocatableSizes([target]);
    await executor().execute(change!.id);

    expect(readVm(vm.armId)).toMatchObject({ size: { name: previous }, powerState: 'running' });
    const ended = await readChange(change!.id);
    expect(ended.state).toBe('failed');
    expect(ended.error).toMatch(/AllocationFailed/);
    expect((await readActions(vm.id)).at(-1)).toContain(`so the VM went back to ${previous} and was started`);
  });

  it('a database failure after Azure finished is retried, not final, and the change completes once', async () => {
    const { vm, target, changeId } = await applyResizeNow();
    // The first attempt to record success fails as a lost connection would.
    await db.execute(sql`create table if not exists test_failure_once (change_id bigint primary key)`);
    await db.execute(sql`insert into test_failure_once values (${changeId})`);
    await db.execute(sql`
      create or replace function test_fail_success_once() returns trigger language plpgsql as $$
      begin
        if new.state = 'succeeded' and exists (select 1 from test_failure_once where change_id = new.id) then
          delete from test_failure_once where change_id = new.id;
          raise exception 'connection lost while recording';
        end if;
        return new;
      end $$`);
    await db.execute(sql`
      create trigger test_fail_success_once before update on scheduled_change
      for each row execute function test_fail_success_once()`);
    try {
      await expect(executor().execute(changeId)).rejects.toThrow();
      // The delete of the marker rolled back with the failed update: take it away for the retry.
      await db.execute(sql`delete from test_failure_once`);
      expect((await readChange(changeId)).state).not.toBe('failed');
      const writes = countResizes(vm);
      await executor().execute(changeId);
      expect(await readChange(changeId)).toMatchObject({ state: 'succeeded' });
      expect(countResizes(vm)).toBe(writes);
      expect(readVm(vm.armId).size.name).toBe(target);
    } finally {
      await db.execute(sql`drop trigger test_fail_success_once on scheduled_change`);
    }
  });

  it('a change whose tenant secret went missing waits for it, says the VM needs attention once, then resumes', async () => {
    const { vm, target, changeId } = await applyResizeNow();
    const [tenant] = await db.select().from(tenants).where(eq(tenants.id, tenantId));
    await db.update(tenants).set({ encryptedSecret: null }).where(eq(tenants.id, tenantId));
    try {
      await executor().execute(changeId);
      await executor().execute(changeId);
      const waiting = await readChange(changeId);
      expect(waiting.state).toBe('claimed');
      expect(waiting.error).toMatch(/^waiting: the tenant's secret is missing/);
      expect(
        (await readActions(vm.id)).filter((action) => action.startsWith('Needs attention')),
      ).toHaveLength(1);
    } finally {
      await db
        .update(tenants)
        .set({ encryptedSecret: tenant!.encryptedSecret, status: tenant!.status, isHealthy: true })
        .where(eq(tenants.id, tenantId));
    }
    await db
      .update(scheduledChanges)
      .set({ leaseUntil: new Date(Date.now() - 1000) })
      .where(eq(scheduledChanges.id, changeId));
    expect(await context.container.automation.service.dispatchDueChanges()).toBe(1);
    await executor().execute(changeId);
    expect(await readChange(changeId)).toMatchObject({ state: 'succeeded' });
    expect(readVm(vm.armId).size.name).toBe(target);
  });
});

describe('windows are windows; holds hold', () => {
  it('moves a window change whose hour passed (workers down) to the next window, logged, never runs it late', async () => {
    const vm = await pickRunningVm();
    const id = await insertRecommendation(vm, { targetSize: pickTargetSize(vm, true) });
    expect((await apply('maintenancewindow', id)).statusCode).toBe(200);
    const [planned] = await changesOf(vm.id);
    const missed = new Date(Date.now() - 7 * 60 * 60 * 1000);
    await db.update(scheduledChanges).set({ changeAt: missed }).where(eq(scheduledChanges.id, planned!.id));

    expect(await context.container.automation.service.dispatchDueChanges()).toBe(0);
    const moved = await readChange(planned!.id);
    expect(moved.state).toBe('planned');
    expect(moved.changeAt.getTime()).toBeGreaterThan(Date.now());
    expect(moved.version).toBe(planned!.version + 1);
    expect((await readActions(vm.id)).at(-1)).toContain(`missed its window at ${missed.toISOString()}`);
  });

  it('refuses apply now and at the window while a hold is in force, naming its end', async () => {
    const vm = await pickRunningVm();
    const heldUntil = new Date(Date.now() + 10 * 86_400_000);
    await db.update(resources).set({ recommendationsHeldUntil: heldUntil }).where(eq(resources.id, vm.id));
    const id = await insertRecommendation(vm, { targetSize: pickTargetSize(vm, true) });
    for (const timing of ['now', 'maintenancewindow'] as const) {
      const response = await apply(timing, id);
      expect(response.statusCode).toBe(409);
      expect(response.json().message).toContain(heldUntil.toISOString());
    }
    expect(await changesOf(vm.id)).toEqual([]);
  });

  it('answers a retried GET of a failed apply with the failure instead of planning again', async () => {
    const { vm, recommendationId, changeId } = await applyResizeNow();
    // A size Azure does not know: refused (400), so the change fails.
    await db
      .update(scheduledChanges)
      .set({ newSize: 'Standard_Unknown_v9' })
      .where(eq(scheduledChanges.id, changeId));
    await executor().execute(changeId);
    expect((await readChange(changeId)).state).toBe('failed');
    const response = await apply('now', recommendationId);
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toMatch(/the change failed/);
    expect(await changesOf(vm.id)).toHaveLength(1);
  });

  it('a second rollback of one VM doubles the hold and sets it to Recommend Only; a failed rollback is tried again', async () => {
    const { vm, previous, target, changeId } = await applyResizeNow();
    await executor().execute(changeId);
    await db.update(resources).set({ automated: 1 }).where(eq(resources.id, vm.id));
    // It was rolled back once before.
    const done = await readChange(changeId);
    await db.insert(scheduledChanges).values({
      ...done,
      id: undefined,
      kind: 'rollback',
      origin: 'guard',
      state: 'succeeded',
      guardUntil: null,
      createdAt: new Date(Date.now() - 40 * 86_400_000),
    });
    await makeHot(vm, done.id);
    // Azure refuses the rollback's first try: it is tried again, never given up.
    context.emulator.setFaults({ errorCount: 1, errorStatus: 400, kinds: ['arm-write'] });

    expect(await context.container.automation.guard.checkGuardedChanges()).toBe(1);
    const [stored] = await db.select().from(resources).where(eq(resources.id, vm.id));
    const heldDays = (stored!.recommendationsHeldUntil!.getTime() - Date.now()) / 86_400_000;
    expect(heldDays).toBeGreaterThan(59.9);
    expect(stored!.automated).toBe(0);
    expect((await readActivity(vm)).some((text) => text?.includes('set to Recommend Only'))).toBe(true);

    const rollback = (await changesOf(vm.id)).find(
      (row) => row.kind === 'rollback' && row.state !== 'succeeded',
    )!;
    await executor().execute(rollback.id);
    const retrying = await readChange(rollback.id);
    expect(retrying.state).toBe('claimed');
    expect((await readActions(vm.id)).at(-1)).toMatch(/attempt 1 failed: .*trying again at/);
    await db
      .update(scheduledChanges)
      .set({ leaseUntil: new Date(Date.now() - 1000) })
      .where(eq(scheduledChanges.id, rollback.id));
    expect(await context.container.automation.service.dispatchDueChanges()).toBe(1);
    await executor().execute(rollback.id);
    expect(await readChange(rollback.id)).toMatchObject({ state: 'succeeded' });
    expect(readVm(vm.armId).size.name).toBe(previous);
    expect(target).not.toBe(previous);
  });
});

// Polled until a deadline rather than a count of tries: a loaded machine answers each read slower.
async function waitForState(changeId: number, state: string) {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const change = await readChange(changeId);
    if (change.state === state && change.operationUrl) return change;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`change ${changeId} never reached ${state}`);
}

// Two and a half hours above 90% CPU on the new size, as the guard reads it.
async function makeHot(vm: ResourceRow, changeId: number): Promise<void> {
  const resizedAt = new Date(Date.now() - 3 * 60 * 60 * 1000);
  await db.update(scheduledChanges).set({ completedAt: resizedAt }).where(eq(scheduledChanges.id, changeId));
  const [metric] = await db
    .execute<{ id: string }>(
      sql`
    insert into metric (resource_id, name, unit) values (${vm.id}, 'Percentage CPU', 'Percent')
    on conflict (resource_id, name) do update set unit = 'Percent' returning id`,
    )
    .then((result) => result.rows);
  await db.execute(sql`delete from metric_point where metric_id = ${metric!.id}`);
  await db.execute(sql`
    insert into metric_point (metric_id, time, value)
    select ${metric!.id}, ${resizedAt}::timestamptz + make_interval(mins => minute), case when minute < 30 then 40 else 93 end
    from generate_series(0, 179) as minute`);
}
