// Active hours against real PostgreSQL and the emulator, on a clock the test moves: the app's and the
// emulator's `now` are the same, so days pass in milliseconds.
import { and, asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectTenant, createCloudTestContext, type CloudTestContext } from '../../../test/azure-emulator';
import { bearer, createUser, logIn, type TestUser } from '../../../test/helper';
import { automationLogs, resources, scheduledChanges } from '../../db/schema';
import { activeHoursServiceName } from './active-hours.service';

let clock = new Date('2026-03-10T07:50:00Z');
let context: CloudTestContext;
let owner: TestUser;
let ownerToken: string;
// Daytime 08-18 on Contoso; night-time 22-06 on Contoso; daytime on Fabrikam through its reader.
let daytime: VmRow;
let nighttime: VmRow;
let readOnly: VmRow;
let untouched: VmRow;
let contosoId: string;

type VmRow = typeof resources.$inferSelect;

beforeAll(async () => {
  context = await createCloudTestContext({
    now: () => clock,
    emulator: { fleetSize: 12, operationDurationMs: 50, now: () => clock },
  });
  owner = await createUser(context);
  ownerToken = await logIn(context, owner);
  const contoso = await connectTenant(context, owner.teamId, 0, 0);
  contosoId = contoso;
  await context.container.inventory.syncTenant(contoso);
  const fabrikamReader = await connectTenant(context, owner.teamId, 1, 1);
  await context.container.inventory.syncTenant(fabrikamReader);
  const machines = async (tenantId: string) =>
    context.container.database.db
      .select()
      .from(resources)
      .where(and(eq(resources.tenantId, tenantId), eq(resources.type, 'Microsoft.Compute/virtualMachines')))
      .orderBy(asc(resources.name));
  const contosoMachines = await machines(contoso);
  [daytime, nighttime, untouched] = contosoMachines as [VmRow, VmRow, VmRow];
  [readOnly] = (await machines(fabrikamReader)) as [VmRow];
  await saveHours(daytime, 8, 18);
  await saveHours(nighttime, 22, 6);
  await saveHours(readOnly, 8, 18);
  // Equal hours: always on, nothing is ever done.
  await saveHours(untouched, 9, 9);
}, 60_000);
afterAll(() => context.close());

async function saveHours(vm: VmRow, start: number, end: number): Promise<void> {
  const response = await context.app.inject({
    method: 'POST',
    url: '/api/v1/resource',
    headers: bearer(ownerToken),
    payload: [{ ResourceId: vm.armId, Automated: 0, ActiveHoursStart: start, ActiveHoursEnd: end }],
  });
  expect(response.statusCode).toBe(200);
}

const readPower = (vm: VmRow) =>
  context.emulator.fleet.requireVirtualMachine(vm.armId).powerHistory.at(-1)?.state ?? 'running';

// Someone starts or stops the VM in the portal.
const setPowerByHand = (vm: VmRow, state: 'running' | 'deallocated') =>
  context.emulator.fleet.recordPowerState(
    context.emulator.fleet.requireVirtualMachine(vm.armId),
    state,
    clock.getTime(),
  );

const listChanges = (vm: VmRow) =>
  context.container.database.db
    .select()
    .from(scheduledChanges)
    .where(and(eq(scheduledChanges.resourceId, vm.id), eq(scheduledChanges.origin, 'activeHours')))
    .orderBy(asc(scheduledChanges.id));

const listLog = async (vm: VmRow) =>
  (
    await context.container.database.db
      .select({ action: automationLogs.action, predictionMethod: automationLogs.predictionMethod })
      .from(automationLogs)
      .where(eq(automationLogs.resourceId, vm.id))
      .orderBy(asc(automationLogs.id))
  ).map((entry) => entry.action);

// The minute job at `at`, then the executions it sent (the workers' part).
async function runMinute(at: string): Promise<number> {
  clock = new Date(at);
  const acted = await context.container.activeHours.enforceBoundaries();
  const claimed = await context.container.database.db
    .select({ id: scheduledChanges.id })
    .from(scheduledChanges)
    .where(and(eq(scheduledChanges.origin, 'activeHours'), eq(scheduledChanges.state, 'claimed')));
  for (const { id } of claimed) await context.container.automation.executor.execute(id);
  return acted;
}

describe('active hours', () => {
  it('does nothing for a boundary passed long before the hours were set', async () => {
    setPowerByHand(daytime, 'deallocated');
    expect(await runMinute('2026-03-10T07:50:00Z')).toBe(0);
    expect(await runMinute('2026-03-10T07:59:59Z')).toBe(0);
    expect(readPower(daytime)).toBe('deallocated');
    expect(readPower(nighttime)).toBe('running');
  });

  it('starts the VM within a minute of its start hour, once, even when two workers run together', async () => {
    clock = new Date('2026-03-10T08:00:20Z');
    const acted = await Promise.all([
      context.container.activeHours.enforceBoundaries(),
      context.container.activeHours.enforceBoundaries(),
    ]);
    // The daytime VM and the read-only tenant's VM, each claimed by one of the two calls only.
    expect(acted[0]! + acted[1]!).toBe(2);
    const [change] = await listChanges(daytime);
    expect(change).toMatchObject({
      kind: 'start',
      state: 'claimed',
      changeAt: new Date('2026-03-10T08:00:00Z'),
    });
    const queued = await context.container.database.db.execute<{ count: string }>(
      sql`select count(*) from pgboss.job where name = 'automation-execute' and (data->>'changeId')::bigint = ${change!.id}`,
    );
    expect(Number(queued.rows[0]!.count)).toBe(1);

    expect(await runMinute('2026-03-10T08:00:45Z')).toBe(0);
    expect(readPower(daytime)).toBe('running');
    expect(await listChanges(daytime)).toMatchObject([{ kind: 'start', state: 'succeeded' }]);
    expect(await listLog(daytime)).toEqual([
      'Start for active hours 08:00-18:00 UTC',
      'Start submitted',
      'Start done',
      'Started',
    ]);
    const activity = await context.container.activity.listEntries(owner.teamId, 0, daytime.armId);
    expect(activity.map((entry) => [entry.ServiceName, entry.LogText])).toEqual(
      expect.arrayContaining([
        [activeHoursServiceName, `${daytime.name}: starting, its active hours (08:00-18:00 UTC) have begun`],
        ['Automation', `${daytime.name}: Started`],
      ]),
    );
  });

  it("logs and shows why a read-only tenant's VM is not started, naming the role", async () => {
    expect(await listChanges(readOnly)).toEqual([]);
    expect(await listLog(readOnly)).toEqual([
      "Start for active hours 08:00-18:00 UTC skipped: the tenant's service principal can only read; grant it the Virtual Machine Contributor role",
    ]);
    const activity = await context.container.activity.listEntries(owner.teamId, 0, readOnly.armId);
    expect(activity.map((entry) => entry.LogText)).toContain(
      `${readOnly.name}: not started for its active hours (08:00-18:00 UTC): the tenant's service principal can only read; grant it the Virtual Machine Contributor role`,
    );
  });

  it('deallocates at the end hour, then leaves a VM started by hand alone until the next boundary', async () => {
    expect(await runMinute('2026-03-10T17:59:00Z')).toBe(0);
    expect(readPower(daytime)).toBe('running');
    expect(await runMinute('2026-03-10T18:00:30Z')).toBeGreaterThanOrEqual(1);
    expect(readPower(daytime)).toBe('deallocated');
    expect((await listChanges(daytime)).map((change) => [change.kind, change.state])).toEqual([
      ['start', 'succeeded'],
      ['deallocate', 'succeeded'],
    ]);

    clock = new Date('2026-03-10T20:00:00Z');
    setPowerByHand(daytime, 'running');
    for (const at of ['2026-03-10T20:00:30Z', '2026-03-10T21:00:00Z', '2026-03-11T07:59:30Z']) {
      await runMinute(at);
      expect(readPower(daytime), at).toBe('running');
    }
    expect(await listChanges(daytime)).toHaveLength(2);
  });

  it('acts at the next day boundaries on the VM started by hand: start (already running), then deallocate', async () => {
    expect(await runMinute('2026-03-11T08:00:10Z')).toBeGreaterThanOrEqual(1);
    expect(readPower(daytime)).toBe('running');
    expect(await runMinute('2026-03-11T18:00:10Z')).toBeGreaterThanOrEqual(1);
    expect(readPower(daytime)).toBe('deallocated');
    expect((await listChanges(daytime)).map((change) => change.state)).toEqual([
      'succeeded',
      'succeeded',
      'succeeded',
      'succeeded',
    ]);
    // Equal hours mean always on: never touched.
    expect(await listChanges(untouched)).toEqual([]);
    expect(readPower(untouched)).toBe('running');
  });

  it('wraps over midnight: started at 22:00, deallocated at 06:00 the next day, each once', async () => {
    // Its 06:00 boundary this morning passed while the clock jumped a day: caught up then.
    const before = (await listChanges(nighttime)).length;
    clock = new Date('2026-03-11T21:30:00Z');
    setPowerByHand(nighttime, 'deallocated');
    await runMinute('2026-03-11T22:00:05Z');
    expect(readPower(nighttime)).toBe('running');
    await runMinute('2026-03-11T22:01:00Z');
    await runMinute('2026-03-12T05:59:59Z');
    expect(readPower(nighttime)).toBe('running');
    await runMinute('2026-03-12T06:00:40Z');
    expect(readPower(nighttime)).toBe('deallocated');
    await runMinute('2026-03-12T06:05:00Z');
    expect(
      (await listChanges(nighttime))
        .slice(before)
        .map((change) => [change.kind, change.state, change.changeAt]),
    ).toEqual([
      ['start', 'succeeded', new Date('2026-03-11T22:00:00Z')],
      ['deallocate', 'succeeded', new Date('2026-03-12T06:00:00Z')],
    ]);
    expect(await listLog(nighttime)).toContain('Deallocation for active hours 22:00-06:00 UTC');
  });

  it('does nothing for a VM set to No Change', async () => {
    // The session began a day and a half ago on the moved clock.
    ownerToken = await logIn(context, owner);
    const response = await context.app.inject({
      method: 'PUT',
      url: `/api/v1/resource${nighttime.armId}?automated=2`,
      headers: { ...bearer(ownerToken), 'content-type': 'application/json' },
    });
    expect(response.statusCode).toBe(200);
    const before = (await listChanges(nighttime)).length;
    await runMinute('2026-03-12T22:00:10Z');
    expect(readPower(nighttime)).toBe('deallocated');
    expect(await listChanges(nighttime)).toHaveLength(before);
  });

  it('waits out Retry-After on throttled or unavailable answers, and logs a refusal visibly', async () => {
    clock = new Date('2026-03-12T22:30:00Z');
    ownerToken = await logIn(context, owner);
    await saveHours(untouched, 2, 23);
    // Two 503s with Retry-After on the deallocation: retried, done once.
    context.emulator.setFaults({ errorCount: 2, errorStatus: 503, kinds: ['arm-write'] });
    const injectedBefore = context.emulator.stats.faultsInjected;
    expect(await runMinute('2026-03-12T23:00:10Z')).toBe(1);
    expect(context.emulator.stats.faultsInjected - injectedBefore).toBe(2);
    expect(readPower(untouched)).toBe('deallocated');
    expect(await listChanges(untouched)).toMatchObject([{ kind: 'deallocate', state: 'succeeded' }]);

    // Azure refuses the start (the role was taken away since the last sync): failed, logged, shown.
    context.emulator.setFaults({ errorCount: 1, errorStatus: 403, kinds: ['arm-write'] });
    expect(await runMinute('2026-03-13T02:00:10Z')).toBe(1);
    context.emulator.setFaults(undefined);
    expect(readPower(untouched)).toBe('deallocated');
    const [, start] = await listChanges(untouched);
    expect(start).toMatchObject({ kind: 'start', state: 'failed' });
    const failure = (await listLog(untouched)).at(-1)!;
    expect(failure).toMatch(/^Start failed: /);
    const activity = await context.container.activity.listEntries(owner.teamId, 0, untouched.armId);
    expect(activity.map((entry) => entry.LogText)).toContain(`${untouched.name}: ${failure}`);
    // The next boundary acts again (beside the daytime VMs' boundaries the clock's jump passed).
    await runMinute('2026-03-13T23:00:10Z');
    expect(await listChanges(untouched)).toMatchObject([
      { kind: 'deallocate', state: 'succeeded' },
      { kind: 'start', state: 'failed' },
      { kind: 'deallocate', state: 'succeeded' },
    ]);
  });

  it('still starts a VM whose start hour passed while the workers were down, but not one started or stopped by hand since', async () => {
    // Deallocated at 18:00 the evening before; the workers are down over 08:00.
    await runMinute('2026-03-14T07:00:00Z');
    expect(readPower(daytime)).toBe('deallocated');
    await runMinute('2026-03-14T09:30:00Z');
    expect(readPower(daytime)).toBe('running');
    expect((await listChanges(daytime)).at(-1)).toMatchObject({
      kind: 'start',
      state: 'succeeded',
      changeAt: new Date('2026-03-14T08:00:00Z'),
    });

    // The next evening: down over 18:00; someone starts it by hand at 18:20 (the sync sees it),
    // deallocates it at 18:40 and starts it again for the night at 18:50.
    await runMinute('2026-03-14T17:00:00Z');
    clock = new Date('2026-03-14T18:20:00Z');
    setPowerByHand(daytime, 'deallocated');
    await context.container.inventory.syncTenant(contosoId);
    clock = new Date('2026-03-14T18:50:00Z');
    setPowerByHand(daytime, 'running');
    const before = (await listChanges(daytime)).length;
    await runMinute('2026-03-14T19:00:00Z');
    expect(readPower(daytime)).toBe('running');
    expect(await listChanges(daytime)).toHaveLength(before);
    expect((await listLog(daytime)).at(-1)).toMatch(
      /^Deallocation for active hours 08:00-18:00 UTC skipped: it was started or stopped by hand at 2026-03-14T18:20:00.000Z/,
    );
  });
});
