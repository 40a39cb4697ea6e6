import { automationLogResponseSchema } from '@cloudtrim/contracts/recommendations';
import { scheduleResponseSchema } from '@cloudtrim/contracts/schedule';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/database';
import {
  metricPoints,
  metrics,
  recommendations,
  resources,
  scheduledChanges,
  tenants,
} from '../../db/schema';
import { connectTenant, createCloudTestContext, type CloudTestContext } from '../../../test/azure-emulator';
import { bearer, createUser, logIn, type TestUser } from '../../../test/helper';
import { createAutomationFixture } from './testing/automation.fixture';

let context: CloudTestContext;
let owner: TestUser;
let ownerToken: string;
let strangerToken: string;
let tenantId: string;
let readerTenantId: string;
let db: Db;

beforeAll(async () => {
  context = await createCloudTestContext({
    emulator: { fleetSize: 24, operationDurationMs: 100, isClusterBound: true },
  });
  db = context.container.database.db;
  owner = await createUser(context);
  ownerToken = await logIn(context, owner);
  strangerToken = await logIn(context, await createUser(context));
  tenantId = await connectTenant(context, owner.teamId, 0, 0);
  await context.container.inventory.syncTenant(tenantId);
  // The size catalogue tells the guard which resizes make a VM smaller.
  await context.container.pricing.ensureFreshForTenant(tenantId);
  // Fabrikam through its reader principal: it reads everything and may change nothing.
  readerTenantId = await connectTenant(context, owner.teamId, 1, 1);
  await context.container.inventory.syncTenant(readerTenantId);
}, 60_000);
afterAll(() => context.close());

const { readVm, pickTargetSize, pickRunningVm, insertRecommendation } = createAutomationFixture(
  () => context,
  () => db,
  () => owner.teamId,
  () => tenantId,
);

const apply = (token: string, timing: 'now' | 'maintenancewindow', id: number | string) =>
  context.app.inject({
    method: 'GET',
    url: `/api/v1/log/recommendation/apply/${timing}?id=${id}`,
    headers: bearer(token),
  });

const changesOf = (resourceId: string) =>
  db.select().from(scheduledChanges).where(eq(scheduledChanges.resourceId, resourceId));

async function readLog(armId: string): Promise<string[]> {
  const response = await context.app.inject({
    method: 'GET',
    url: `/api/v1/log/automation?resourceId=${encodeURIComponent(armId)}`,
    headers: bearer(ownerToken),
  });
  expect(response.statusCode).toBe(200);
  return automationLogResponseSchema
    .parse(response.json())
    .Data.map((entry) => entry.Action)
    .reverse();
}

describe('apply now', () => {
  it('resizes in place, reads the VM back, logs each step once and a second click adds nothing', async () => {
    const resource = await pickRunningVm();
    const target = pickTargetSize(resource, true);
    const id = await insertRecommendation(resource, { targetSize: target });

    const response = await apply(ownerToken, 'now', id);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: 'The change has started.' });
    expect((await apply(ownerToken, 'now', id)).statusCode).toBe(200);
    const [change, ...others] = await changesOf(resource.id);
    expect(others).toEqual([]);
    expect(change).toMatchObject({ state: 'claimed', kind: 'resize', origin: 'now', newSize: target });

    await context.container.automation.executor.execute(change!.id);
    // The job delivered again (a retry, a second worker) finds the change done.
    await context.container.automation.executor.execute(change!.id);

    expect(readVm(resource.armId)).toMatchObject({ size: { name: target }, powerState: 'running' });
    const [done] = await changesOf(resource.id);
    expect(done).toMatchObject({ state: 'succeeded', previousSize: resource.sku, wasRunning: true });
    expect(done!.guardUntil).not.toBeNull();
    expect(await readLog(resource.armId)).toEqual([
      `Resize to ${target} started`,
      `Resize to ${target} submitted`,
      'Resize done',
      `Resized from ${resource.sku} to ${target}`,
    ]);
    const [recommendation] = await db.select().from(recommendations).where(eq(recommendations.id, id));
    expect(recommendation!.status).toBe('applied');
    const [stored] = await db.select().from(resources).where(eq(resources.id, resource.id));
    expect(stored!.sku).toBe(target);
    const activity = await context.container.activity.listEntries(owner.teamId, 0, resource.armId);
    expect(activity.map((entry) => entry.LogText)).toContain(
      `${resource.name}: Resized from ${resource.sku} to ${target}`,
    );
    expect((await apply(ownerToken, 'now', id)).statusCode).toBe(200);
    expect(await changesOf(resource.id)).toHaveLength(1);
  });

  it('deallocates first when the hardware cluster lacks the size, then starts the VM again', async () => {
    const resource = await pickRunningVm();
    const target = pickTargetSize(resource, false);
    const id = await insertRecommendation(resource, { targetSize: target });
    expect((await apply(ownerToken, 'now', id)).statusCode).toBe(200);
    const [change] = await changesOf(resource.id);
    await context.container.automation.executor.execute(change!.id);

    expect(readVm(resource.armId)).toMatchObject({ size: { name: target }, powerState: 'running' });
    const [done] = await changesOf(resource.id);
    expect(done).toMatchObject({ state: 'succeeded', needsDeallocation: true });
    expect(await readLog(resource.armId)).toEqual([
      `Resize to ${target} started`,
      `${target} is not available on the VM's hardware cluster while it runs; deallocating first`,
      'Deallocation submitted',
      'Deallocation done',
      `Resize to ${target} submitted`,
      'Resize done',
      'Start submitted',
      'Start done',
      `Resized from ${resource.sku} to ${target}`,
    ]);
  });

  it('fails visibly and leaves the VM as it was when Azure refuses the write', async () => {
    const resource = await pickRunningVm({ tenant: readerTenantId });
    // The role was taken away after the tenant's last write check.
    await db.update(tenants).set({ canWrite: true }).where(eq(tenants.id, readerTenantId));
    const before = readVm(resource.armId);
    const id = await insertRecommendation(resource, { targetSize: pickTargetSize(resource, true) });
    expect((await apply(ownerToken, 'now', id)).statusCode).toBe(200);
    const [change] = await changesOf(resource.id);
    await context.container.automation.executor.execute(change!.id);

    const [failed] = await changesOf(resource.id);
    expect(failed!.state).toBe('failed');
    expect(failed!.error).toMatch(/AuthorizationFailed/);
    expect(readVm(resource.armId)).toMatchObject({ size: { name: before.size.name }, powerState: 'running' });
    const log = await readLog(resource.armId);
    expect(log.at(-1)).toMatch(/^Resize to .* failed: .*AuthorizationFailed/);
    const activity = await context.container.activity.listEntries(owner.teamId, 0, resource.armId);
    expect(activity[0]!.LogText).toMatch(/failed/);
    await db.update(tenants).set({ canWrite: false }).where(eq(tenants.id, readerTenantId));
  });

  it('starts the VM again when the resize after a deallocation exceeds the quota', async () => {
    const resource = await pickRunningVm();
    const before = readVm(resource.armId);
    const target = pickTargetSize(resource, false);
    const id = await insertRecommendation(resource, { targetSize: target });
    context.emulator.setVcpuQuota(1);
    try {
      expect((await apply(ownerToken, 'now', id)).statusCode).toBe(200);
      const [change] = await changesOf(resource.id);
      await context.container.automation.executor.execute(change!.id);
    } finally {
      context.emulator.setVcpuQuota(undefined);
    }
    const [failed] = await changesOf(resource.id);
    expect(failed).toMatchObject({ state: 'failed', needsDeallocation: true });
    expect(failed!.error).toMatch(/QuotaExceeded/);
    expect(readVm(resource.armId)).toMatchObject({ size: { name: before.size.name }, powerState: 'running' });
    expect((await readLog(resource.armId)).at(-1)).toMatch(
      new RegExp(`^Resize to ${target} failed: .*QuotaExceeded.*; started again as it was running$`),
    );
  });

  it('fails visibly when the VM was deleted in Azure', async () => {
    const resource = await pickRunningVm();
    const id = await insertRecommendation(resource, { targetSize: pickTargetSize(resource, true) });
    expect((await apply(ownerToken, 'now', id)).statusCode).toBe(200);
    expect(context.emulator.fleet.deleteResource(resource.armId)).toBe(true);
    const [change] = await changesOf(resource.id);
    await context.container.automation.executor.execute(change!.id);
    const [failed] = await changesOf(resource.id);
    expect(failed!.state).toBe('failed');
    expect(failed!.error).toMatch(/ResourceNotFound/);
    expect((await readLog(resource.armId)).at(-1)).toMatch(/failed: .*ResourceNotFound/);
  });

  it('deallocates on a shutdown recommendation', async () => {
    const resource = await pickRunningVm();
    const id = await insertRecommendation(resource, { kind: 'shutdown' });
    expect((await apply(ownerToken, 'now', id)).statusCode).toBe(200);
    const [change] = await changesOf(resource.id);
    await context.container.automation.executor.execute(change!.id);
    expect(readVm(resource.armId).powerState).toBe('deallocated');
    expect((await changesOf(resource.id))[0]!.state).toBe('succeeded');
  });
});

describe('apply at the maintenance window', () => {
  it('plans the change at the next window start, once, and a newer plan bumps the version', async () => {
    const resource = await pickRunningVm();
    await db.update(resources).set({ maintenanceWindow: 3 }).where(eq(resources.id, resource.id));
    const first = await insertRecommendation(resource, { targetSize: pickTargetSize(resource, true) });
    const response = await apply(ownerToken, 'maintenancewindow', first);
    expect(response.statusCode).toBe(200);
    expect((await apply(ownerToken, 'maintenancewindow', first)).statusCode).toBe(200);
    const [planned, ...others] = await changesOf(resource.id);
    expect(others).toEqual([]);
    expect(planned!.state).toBe('planned');
    expect(planned!.changeAt.getUTCHours()).toBe(3);
    expect(planned!.changeAt.getTime()).toBeGreaterThan(Date.now());
    expect(planned!.changeAt.getTime() - Date.now()).toBeLessThanOrEqual(24 * 60 * 60 * 1000);

    const schedule = await context.app.inject({
      method: 'GET',
      url: `/api/v1/resource/schedule?resourceId=${encodeURIComponent(resource.armId)}`,
      headers: bearer(ownerToken),
    });
    expect(schedule.statusCode).toBe(200);
    expect(scheduleResponseSchema.parse(schedule.json()).Data).toEqual([
      {
        Id: planned!.id,
        ResourceId: resource.armId,
        FriendlyName: resource.name,
        ChangeDateTime: planned!.changeAt.toISOString(),
        NewSize: planned!.newSize,
        Version: '1',
      },
    ]);

    // A newer recommendation replaces the superseded one's plan.
    await db.update(recommendations).set({ status: 'superseded' }).where(eq(recommendations.id, first));
    const second = await insertRecommendation(resource, { targetSize: pickTargetSize(resource, true) });
    expect((await apply(ownerToken, 'maintenancewindow', second)).statusCode).toBe(200);
    const [replanned, ...rest] = await changesOf(resource.id);
    expect(rest).toEqual([]);
    expect(replanned).toMatchObject({ id: planned!.id, version: 2, recommendationId: second });

    // Apply now brings the planned change forward instead of adding a second.
    expect((await apply(ownerToken, 'now', second)).statusCode).toBe(200);
    const [started, ...none] = await changesOf(resource.id);
    expect(none).toEqual([]);
    expect(started).toMatchObject({ id: planned!.id, state: 'claimed', version: 3 });
  });

  it('uses the team default window for a resource without one, and dispatches due changes once', async () => {
    const resource = await pickRunningVm();
    const id = await insertRecommendation(resource, { targetSize: pickTargetSize(resource, true) });
    expect((await apply(ownerToken, 'maintenancewindow', id)).statusCode).toBe(200);
    const [planned] = await changesOf(resource.id);
    expect(planned!.changeAt.getUTCHours()).toBe(2);
    await db
      .update(scheduledChanges)
      .set({ changeAt: new Date(Date.now() - 1000) })
      .where(eq(scheduledChanges.id, planned!.id));
    const [first, second] = await Promise.all([
      context.container.automation.service.dispatchDueChanges(),
      context.container.automation.service.dispatchDueChanges(),
    ]);
    expect(first + second).toBe(1);
    const jobs = await db.execute<{ count: string }>(
      sql`select count(*) from pgboss.job where name = 'automation-execute' and data->>'changeId' = ${String(planned!.id)}`,
    );
    expect(Number(jobs.rows[0]!.count)).toBe(1);
    expect((await changesOf(resource.id))[0]!.state).toBe('claimed');
  });
});

describe('refusals', () => {
  it("answers 404 for another team's or an unknown recommendation and schedules nothing", async () => {
    const resource = await pickRunningVm();
    const id = await insertRecommendation(resource, { targetSize: pickTargetSize(resource, true) });
    expect((await apply(strangerToken, 'now', id)).statusCode).toBe(404);
    expect((await apply(strangerToken, 'maintenancewindow', id)).statusCode).toBe(404);
    expect((await apply(ownerToken, 'now', 999_999_999)).statusCode).toBe(404);
    expect((await apply(ownerToken, 'now', 'abc')).statusCode).toBe(400);
    expect(await changesOf(resource.id)).toEqual([]);
    const schedule = await context.app.inject({
      method: 'GET',
      url: '/api/v1/resource/schedule',
      headers: bearer(strangerToken),
    });
    expect(schedule.json()).toEqual({ Data: [] });
    const log = await context.app.inject({
      method: 'GET',
      url: '/api/v1/log/automation',
      headers: bearer(strangerToken),
    });
    expect(log.json()).toEqual({ Data: [] });
  });

  it('answers 409 for a recommendation a newer one replaced, and plans nothing', async () => {
    const resource = await pickRunningVm();
    const id = await insertRecommendation(resource, {
      targetSize: pickTargetSize(resource, true),
      status: 'superseded',
    });
    const response = await apply(ownerToken, 'maintenancewindow', id);
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toBe('A newer recommendation has replaced this one.');
    expect(await changesOf(resource.id)).toEqual([]);
  });

  it('names the role to grant when the tenant can only read', async () => {
    const resource = await pickRunningVm({ tenant: readerTenantId });
    await db.update(tenants).set({ canWrite: false }).where(eq(tenants.id, readerTenantId));
    const id = await insertRecommendation(resource, { targetSize: pickTargetSize(resource, true) });
    const response = await apply(ownerToken, 'now', id);
    expect(response.statusCode).toBe(403);
    expect(response.json().message).toContain('Virtual Machine Contributor');
    expect(await changesOf(resource.id)).toEqual([]);
  });
});

describe('the rollback guard', () => {
  it('restores the previous size at once when the load on the new size rises, and holds the recommendation', async () => {
    const resource = await pickRunningVm();
    const previousSize = readVm(resource.armId).size.name;
    const target = pickTargetSize(resource, true);
    const id = await insertRecommendation(resource, { targetSize: target });
    expect((await apply(ownerToken, 'now', id)).statusCode).toBe(200);
    const [change] = await changesOf(resource.id);
    await context.container.automation.executor.execute(change!.id);
    expect(readVm(resource.armId).size.name).toBe(target);
    expect(await context.container.automation.guard.checkGuardedChanges()).toBe(0);

    // Three hours on the new size, the last two and a half of them above 90% CPU.
    const resizedAt = new Date(Date.now() - 3 * 60 * 60 * 1000);
    await db
      .update(scheduledChanges)
      .set({ completedAt: resizedAt })
      .where(eq(scheduledChanges.id, change!.id));
    const [metric] = await db
      .insert(metrics)
      .values({ resourceId: resource.id, name: 'Percentage CPU', unit: 'Percent' })
      .onConflictDoUpdate({ target: [metrics.resourceId, metrics.name], set: { unit: 'Percent' } })
      .returning({ id: metrics.id });
    await db.delete(metricPoints).where(eq(metricPoints.metricId, metric!.id));
    await db.insert(metricPoints).values(
      Array.from({ length: 180 }, (_, minute) => ({
        metricId: metric!.id,
        time: new Date(resizedAt.getTime() + minute * 60_000),
        value: minute < 30 ? 40 : 93,
      })),
    );

    expect(await context.container.automation.guard.checkGuardedChanges()).toBe(1);
    expect(await context.container.automation.guard.checkGuardedChanges()).toBe(0);
    const rollback = (await changesOf(resource.id)).find((row) => row.kind === 'rollback');
    expect(rollback).toMatchObject({
      origin: 'guard',
      state: 'claimed',
      previousSize: target,
      newSize: previousSize,
    });
    await context.container.automation.executor.execute(rollback!.id);
    expect(readVm(resource.armId)).toMatchObject({ size: { name: previousSize }, powerState: 'running' });

    const [stored] = await db.select().from(resources).where(eq(resources.id, resource.id));
    const heldDays = (stored!.recommendationsHeldUntil!.getTime() - Date.now()) / (24 * 60 * 60 * 1000);
    expect(heldDays).toBeGreaterThan(29.9);
    expect(heldDays).toBeLessThanOrEqual(30);
    const [recommendation] = await db.select().from(recommendations).where(eq(recommendations.id, id));
    expect(recommendation!.status).toBe('held');
    const log = await readLog(resource.armId);
    expect(log).toContain(`Guard: CPU above 80% for 2 h on ${target}; restoring ${previousSize}`);
    expect(log.at(-1)).toBe(`Rolled back from ${target} to ${previousSize}`);
  });
});

describe('automated resources', () => {
  it('plans open recommendations of Automated resources at their window, once', async () => {
    const resource = await pickRunningVm();
    await db
      .update(resources)
      .set({ automated: 1, maintenanceWindow: 5 })
      .where(eq(resources.id, resource.id));
    const id = await insertRecommendation(resource, { targetSize: pickTargetSize(resource, true) });
    expect(await context.container.automation.service.planAutomatedResources(tenantId)).toBe(1);
    expect(await context.container.automation.service.planAutomatedResources(tenantId)).toBe(0);
    const [planned, ...others] = await changesOf(resource.id);
    expect(others).toEqual([]);
    expect(planned).toMatchObject({ recommendationId: id, origin: 'automated', state: 'planned' });
    expect(planned!.changeAt.getUTCHours()).toBe(5);
  });
});
