// Waste beyond VMs applied through the executor, against the emulator: each kind of change made
// with exactly one Azure write per step, a disk copied to a snapshot before it is deleted (its id in
// the log), deletions never at the window nor automated, a resource changed meanwhile left alone,
// and a run that died between Azure's answer and the save resumed without a second write.
import { readCurrentPowerState } from '@cloudtrim/azure-emulator/arm/arm.views';
import { readWriteCount } from '@cloudtrim/azure-emulator/emulator.stats';
import { listSmallerObjectives } from '@cloudtrim/rightsizing/waste/database-objectives';
import { listSmallerPlanTiers } from '@cloudtrim/rightsizing/waste/plan-tiers';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/database';
import { automationLogs, recommendations, resources, scheduledChanges } from '../../db/schema';
import { connectTenant, createCloudTestContext, type CloudTestContext } from '../../../test/azure-emulator';
import { bearer, createUser, logIn, type TestUser } from '../../../test/helper';
import { snapshotIdOf } from './automation.resource-steps';
import { deletionNotScheduledText } from './automation.service';
import { createAutomationFixture, type ResourceRow } from './testing/automation.fixture';

let context: CloudTestContext;
let owner: TestUser;
let ownerToken: string;
let tenantId: string;
let db: Db;

beforeAll(async () => {
  context = await createCloudTestContext({ emulator: { fleetSize: 24, operationDurationMs: 100 } });
  db = context.container.database.db;
  owner = await createUser(context);
  ownerToken = await logIn(context, owner);
  tenantId = await connectTenant(context, owner.teamId, 0, 0);
  await context.container.inventory.syncTenant(tenantId);
}, 60_000);
afterAll(() => context.close());

const { insertRecommendation } = createAutomationFixture(
  () => context,
  () => db,
  () => owner.teamId,
  () => tenantId,
);

const usedResourceIds = new Set<string>();

// A resource of the tenant no other test used, of a type and with facts as inventory stored them.
async function pickResource(
  type: string,
  condition = sql`true`,
  isWanted: (row: ResourceRow) => boolean = () => true,
): Promise<ResourceRow> {
  const rows = await db
    .select()
    .from(resources)
    .where(and(eq(resources.tenantId, tenantId), eq(resources.type, type), condition))
    .orderBy(resources.armId);
  const row = rows.find((candidate) => !usedResourceIds.has(candidate.id) && isWanted(candidate));
  if (!row) throw new Error(`no ${type} left`);
  usedResourceIds.add(row.id);
  return row;
}

// An unattached disk nothing else manages (no AKS tag). The fleet holds few: once they are used, a
// data disk is detached from its VM in the emulator, as someone removing it from the VM would.
async function pickUnattachedDisk(condition = sql`true`): Promise<ResourceRow> {
  const isUnmanaged = sql`not exists (
    select 1 from jsonb_object_keys(tags) as tag where tag like 'kubernetes.io-created-for-%')`;
  try {
    return await pickResource(
      'Microsoft.Compute/disks',
      sql`details->>'diskState' = 'Unattached' and ${isUnmanaged} and ${condition}`,
    );
  } catch {
    const disk = await pickResource(
      'Microsoft.Compute/disks',
      sql`not (details ? 'osType') and ${isUnmanaged} and ${condition}`,
    );
    const record = context.emulator.fleet.managedDisks.find((item) => item.id === disk.armId)!;
    record.machine = undefined;
    record.lastOwnershipUpdateMs = Date.now();
    return disk;
  }
}

const apply = (timing: 'now' | 'maintenancewindow', id: number) =>
  context.app.inject({
    method: 'GET',
    url: `/api/v1/log/recommendation/apply/${timing}?id=${id}`,
    headers: bearer(ownerToken),
  });

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

const readRecommendationStatus = async (id: number) =>
  (await db.select().from(recommendations).where(eq(recommendations.id, id)))[0]!.status;

const writesTo = (resourceId: string) => readWriteCount(context.emulator.stats, resourceId);

// Apply now through the API, then the executor's run of the change it started.
async function applyNowAndRun(resource: ResourceRow, id: number) {
  const response = await apply('now', id);
  expect(response.statusCode, response.body).toBe(200);
  const [change] = await changesOf(resource.id);
  expect(change).toMatchObject({ state: 'claimed', origin: 'now' });
  await context.container.automation.executor.execute(change!.id);
  return (await changesOf(resource.id))[0]!;
}

describe('each kind applied now', () => {
  it('snapshots an unattached disk, waits for the copy, then deletes the disk: one write each', async () => {
    const disk = await pickUnattachedDisk();
    const id = await insertRecommendation(disk, {
      kind: 'deleteDisk',
      currentSize: disk.sku,
      recommendation: `Delete ${disk.name}`,
    });
    const done = await applyNowAndRun(disk, id);

    const snapshotId = snapshotIdOf(disk.armId, done.id);
    expect(done).toMatchObject({ state: 'succeeded', kind: 'deleteDisk', snapshotId });
    const snapshot = context.emulator.fleet.findResource(snapshotId);
    expect(snapshot).toMatchObject({
      type: 'Microsoft.Compute/snapshots',
      sourceResourceId: disk.armId,
      isIncremental: true,
    });
    expect(context.emulator.fleet.findResource(disk.armId)).toBeUndefined();
    expect(writesTo(snapshotId)).toBe(1);
    expect(writesTo(disk.armId)).toBe(1);
    const size = (disk.details as { diskSizeGb: number }).diskSizeGb;
    expect(await readActions(disk.id)).toEqual([
      'Deletion started',
      `Snapshot ${snapshotId} submitted`,
      `Snapshot ${snapshotId} taken`,
      'Deletion submitted',
      'Deletion done',
      `Deleted (${disk.sku}, ${size} GiB) after snapshot ${snapshotId}`,
    ]);
    expect(await readRecommendationStatus(id)).toBe('applied');
    const activity = await context.container.activity.listEntries(owner.teamId, 0, disk.armId);
    expect(activity.map((entry) => entry.LogText)).toContain(
      `${disk.name}: Deleted (${disk.sku}, ${size} GiB) after snapshot ${snapshotId}`,
    );
  });

  it('deletes an unassociated public IP', async () => {
    const address = await pickResource(
      'Microsoft.Network/publicIPAddresses',
      sql`not (details ? 'ipConfigurationId') and not (details ? 'natGatewayId')`,
    );
    const id = await insertRecommendation(address, { kind: 'deletePublicIp', currentSize: address.sku });
    const done = await applyNowAndRun(address, id);
    expect(done.state).toBe('succeeded');
    expect(context.emulator.fleet.findResource(address.armId)).toBeUndefined();
    expect(writesTo(address.armId)).toBe(1);
    expect((await readActions(address.id)).at(-1)).toBe(`Deleted (${address.sku})`);
  });

  it('deletes a plan left without apps', async () => {
    const plan = await pickResource('Microsoft.Web/serverfarms');
    // Its apps were deleted since the last sync.
    const record = context.emulator.fleet.appServicePlans.find((item) => item.id === plan.armId)!;
    for (const site of context.emulator.fleet.webSites.filter((item) => item.plan === record)) {
      context.emulator.fleet.deleteResource(site.id, Date.now());
    }
    record.numberOfSites = 0;
    const id = await insertRecommendation(plan, { kind: 'deletePlan', currentSize: plan.sku });
    const done = await applyNowAndRun(plan, id);
    expect(done.state).toBe('succeeded');
    expect(context.emulator.fleet.findResource(plan.armId)).toBeUndefined();
    expect(writesTo(plan.armId)).toBe(1);
  });

  it('moves an unattached Premium disk to Standard HDD, a plan and a database to a smaller tier', async () => {
    const disk = await pickUnattachedDisk(sql`sku = 'Premium_LRS'`);
    const plan = await pickResource(
      'Microsoft.Web/serverfarms',
      sql`true`,
      (row) => listSmallerPlanTiers(row.sku ?? '').length > 0,
    );
    const database = await pickResource(
      'Microsoft.Sql/servers/databases',
      sql`true`,
      (row) => listSmallerObjectives(row.sku ?? '').length > 0,
    );
    const changes = [
      { resource: disk, kind: 'diskTier' as const, target: 'Standard_LRS' },
      { resource: plan, kind: 'planTier' as const, target: listSmallerPlanTiers(plan.sku!)[0]!.name },
      {
        resource: database,
        kind: 'databaseObjective' as const,
        target: listSmallerObjectives(database.sku!)[0]!.name,
      },
    ];
    for (const { resource, kind, target } of changes) {
      const id = await insertRecommendation(resource, {
        kind,
        currentSize: resource.sku,
        targetSize: target,
      });
      const done = await applyNowAndRun(resource, id);
      expect(done, kind).toMatchObject({ state: 'succeeded', previousSize: resource.sku, newSize: target });
      expect(writesTo(resource.armId), kind).toBe(1);
      expect((await readActions(resource.id)).at(-1)).toBe(`Changed from ${resource.sku} to ${target}`);
      const [stored] = await db.select().from(resources).where(eq(resources.id, resource.id));
      expect(stored!.sku).toBe(target);
      expect(await readRecommendationStatus(id)).toBe('applied');
    }
    const fleet = context.emulator.fleet;
    expect(fleet.managedDisks.find((item) => item.id === disk.armId)!.sku).toBe('Standard_LRS');
    expect(fleet.appServicePlans.find((item) => item.id === plan.armId)!.sku.name).toBe(changes[1]!.target);
    expect(fleet.sqlDatabases.find((item) => item.id === database.armId)!.sku.serviceObjective).toBe(
      changes[2]!.target,
    );
  });

  it('deallocates a VM stopped from inside the guest (still billed)', async () => {
    const vm = await pickResource('Microsoft.Compute/virtualMachines', sql`power_state = 'running'`);
    const machine = context.emulator.fleet.findVirtualMachine(vm.armId)!;
    context.emulator.fleet.recordPowerState(machine, 'stopped', Date.now());
    await db.update(resources).set({ powerState: 'stopped' }).where(eq(resources.id, vm.id));
    const id = await insertRecommendation(vm, { kind: 'deallocate', currentSize: vm.sku });
    const done = await applyNowAndRun(vm, id);
    expect(done).toMatchObject({ state: 'succeeded', kind: 'deallocate', expectedPowerState: 'stopped' });
    expect(readCurrentPowerState(machine)).toBe('deallocated');
    expect(writesTo(vm.armId)).toBe(1);
    const [stored] = await db.select().from(resources).where(eq(resources.id, vm.id));
    expect(stored!.powerState).toBe('deallocated');
    expect(stored!.stateSince!.getTime()).toBe(done.completedAt!.getTime());
  });
});

describe('deletions are a user’s explicit APPLY NOW only', () => {
  it('refuses a deletion at the maintenance window, planning nothing', async () => {
    const address = await pickResource(
      'Microsoft.Network/publicIPAddresses',
      sql`not (details ? 'ipConfigurationId') and not (details ? 'natGatewayId')`,
    );
    const id = await insertRecommendation(address, { kind: 'deletePublicIp', currentSize: address.sku });
    const response = await apply('maintenancewindow', id);
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ message: deletionNotScheduledText });
    expect(await changesOf(address.id)).toEqual([]);
    expect(writesTo(address.armId)).toBe(0);
  });

  it('never plans a deletion for an Automated resource, while it plans its reversible changes', async () => {
    const disk = await pickUnattachedDisk();
    const premium = await pickUnattachedDisk(sql`sku = 'Premium_LRS'`);
    await db
      .update(resources)
      .set({ automated: 1 })
      .where(sql`${resources.id} in (${disk.id}, ${premium.id})`);
    await insertRecommendation(disk, { kind: 'deleteDisk', currentSize: disk.sku });
    await insertRecommendation(premium, {
      kind: 'diskTier',
      currentSize: 'Premium_LRS',
      targetSize: 'Standard_LRS',
    });

    await context.container.automation.service.planAutomatedResources(tenantId);
    expect(await changesOf(disk.id)).toEqual([]);
    expect(await changesOf(premium.id)).toMatchObject([
      { kind: 'diskTier', origin: 'automated', state: 'planned' },
    ]);
    expect(writesTo(disk.armId)).toBe(0);
    // The cost forecast counts the planned tier change's saving.
    const planned = await context.container.automation.service.listPlannedSavings(owner.teamId);
    expect(planned.map((saving) => saving.resourceArmId)).toEqual([premium.armId]);
  });
});

describe('the executor’s guarantees hold for disks', () => {
  it('leaves a disk attached since the recommendation alone: cancelled, logged, no write', async () => {
    const disk = await pickUnattachedDisk();
    const id = await insertRecommendation(disk, { kind: 'deleteDisk', currentSize: disk.sku });
    expect((await apply('now', id)).statusCode).toBe(200);
    // Someone attaches it to a VM before the change acts.
    const record = context.emulator.fleet.managedDisks.find((item) => item.id === disk.armId)!;
    const vm = context.emulator.fleet.virtualMachines.find((item) => item.location === record.location)!;
    record.machine = vm;
    record.lastOwnershipUpdateMs = Date.now();

    const [change] = await changesOf(disk.id);
    await context.container.automation.executor.execute(change!.id);
    expect((await changesOf(disk.id))[0]).toMatchObject({
      state: 'cancelled',
      error: `the disk is now attached to ${vm.name}`,
    });
    expect(context.emulator.fleet.findResource(disk.armId)).toBeDefined();
    expect(writesTo(disk.armId)).toBe(0);
    expect(writesTo(snapshotIdOf(disk.armId, change!.id))).toBe(0);
    const cancelled = `Deletion cancelled: the disk is now attached to ${vm.name}`;
    expect((await readActions(disk.id)).at(-1)).toBe(cancelled);
    const activity = await context.container.activity.listEntries(owner.teamId, 0, disk.armId);
    expect(activity.map((entry) => entry.LogText)).toContain(`${disk.name}: ${cancelled}`);
  });

  it('resumes a run that died between the snapshot’s submission and its save without asking twice', async () => {
    const disk = await pickUnattachedDisk();
    const id = await insertRecommendation(disk, { kind: 'deleteDisk', currentSize: disk.sku });
    expect((await apply('now', id)).statusCode).toBe(200);
    const [change] = await changesOf(disk.id);
    // The process dies as it saves the submitted snapshot: the save never commits.
    await db.execute(sql`
      create or replace function test_fail_submit_once() returns trigger language plpgsql as $$
      begin
        if new.state = 'submitted' and old.state = 'claimed' and new.id = ${sql.raw(String(change!.id))} then
          raise exception 'process died while saving';
        end if;
        return new;
      end $$`);
    await db.execute(sql`
      create trigger test_fail_submit_once before update on scheduled_change
      for each row execute function test_fail_submit_once()`);
    try {
      await expect(context.container.automation.executor.execute(change!.id)).rejects.toThrow();
    } finally {
      await db.execute(sql`drop trigger test_fail_submit_once on scheduled_change`);
    }
    const snapshotId = snapshotIdOf(disk.armId, change!.id);
    expect((await changesOf(disk.id))[0]).toMatchObject({ state: 'claimed', operationUrl: null, snapshotId });
    expect(writesTo(snapshotId)).toBe(1);

    await context.container.automation.executor.execute(change!.id);
    expect((await changesOf(disk.id))[0]!.state).toBe('succeeded');
    expect(writesTo(snapshotId)).toBe(1);
    expect(writesTo(disk.armId)).toBe(1);
    expect(context.emulator.fleet.findResource(disk.armId)).toBeUndefined();
    const actions = await readActions(disk.id);
    expect(actions.filter((action) => action.endsWith('submitted'))).toEqual(['Deletion submitted']);
    expect(actions.at(-1)).toContain(`after snapshot ${snapshotId}`);
  });
});
