// The rollback guard end to end on the emulator's movable clock: a VM made too small runs hot on its
// new size in the metrics the emulator serves, collection stores them, the guard restores the size.
import { readCurrentPowerState, readCurrentSize } from '@cloudtrim/azure-emulator/arm/arm.views';
import { listSizesOfferedInRegion } from '@cloudtrim/azure-emulator/catalog/sku.catalog';
import { generateFleet } from '@cloudtrim/azure-emulator/fleet/fleet.generator';
import type { Fleet, VirtualMachineRecord } from '@cloudtrim/azure-emulator/fleet/fleet.model';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/database';
import { resources, scheduledChanges } from '../../db/schema';
import {
  connectTenant,
  createCloudTestContext,
  listRunningVms,
  type CloudTestContext,
} from '../../../test/azure-emulator';
import { createUser, type TestUser } from '../../../test/helper';
import { applyResizeNow } from './testing/apply-resize';
import { minuteMs, hourMs } from '../../lib/time';

const fleetOptions = { seed: 42, fleetSize: 24 };

// A smaller size of the VM's family on which its demand over the three hours from startMs stays
// above 90% of the new size's vCPUs, if there is one.
function findOverloadingSize(fleet: Fleet, machine: VirtualMachineRecord, startMs: number) {
  const current = readCurrentSize(machine);
  let leastCores = Number.POSITIVE_INFINITY;
  for (let minute = 0; minute <= 3 * 60; minute += 5) {
    const demand = fleet.demandAt(machine.id, new Date(startMs + minute * minuteMs));
    leastCores = Math.min(leastCores, demand.cpuCores);
  }
  const smaller = listSizesOfferedInRegion(machine.location)
    .filter((size) => size.family === current.family && size.vcpus < current.vcpus)
    .find((size) => leastCores / size.vcpus > 0.9);
  return smaller && { previous: current.name, target: smaller.name };
}

// A VM that keeps more than half a vCPU busy for the six hours from startMs: on a B1ms (base 0.2, 30
// credits to start) its bank empties within two hours and its CPU then reads 20%, never hot.
function keepsHalfVcpuBusy(fleet: Fleet, machine: VirtualMachineRecord, startMs: number): boolean {
  if (readCurrentSize(machine).name.startsWith('Standard_B')) return false;
  for (let minute = 0; minute <= 6 * 60; minute += 5) {
    if (fleet.demandAt(machine.id, new Date(startMs + minute * minuteMs)).cpuCores <= 0.5) return false;
  }
  return true;
}

// Each case's VM is chosen here, before any case runs, and no two cases share one: the first case's
// rollback holds its VM's recommendations for 30 days, so a later case that picked it again would be
// refused. The fleet's load follows the time of day, and at night no VM may be busy enough: the clock
// starts at the latest whole hour of the last week when the first case has a VM that would overload a
// smaller size over the three hours it watches, and the second, three hours later (the first case
// moves the clock by that much), another VM that keeps half a vCPU busy for six. The test does not
// depend on the hour it runs at, only on the fleet's seed.
function chooseClockAndVms() {
  const fleet = generateFleet(fleetOptions);
  const subscriptionIds = new Set(fleet.tenants[0]!.subscriptions.map((item) => item.subscriptionId));
  const running = fleet.virtualMachines.filter(
    (machine) => subscriptionIds.has(machine.subscriptionId) && readCurrentPowerState(machine) === 'running',
  );
  const lastHourMs = Math.floor(Date.now() / hourMs) * hourMs;
  for (let startMs = lastHourMs; startMs > lastHourMs - 7 * 24 * hourMs; startMs -= hourMs) {
    const overloading = running.find((machine) => findOverloadingSize(fleet, machine, startMs));
    if (!overloading) continue;
    const busy = running.find(
      (machine) => machine.id !== overloading.id && keepsHalfVcpuBusy(fleet, machine, startMs + 3 * hourMs),
    );
    if (busy) return { startMs, overloadingVmId: overloading.id, busyVmId: busy.id };
  }
  throw new Error('no hour of the last week with a VM to overload and another to run out of credits');
}

const chosen = chooseClockAndVms();
let clockMs = chosen.startMs;
const readClock = () => new Date(clockMs);

let context: CloudTestContext;
let owner: TestUser;
let db: Db;
let tenantId: string;

beforeAll(async () => {
  context = await createCloudTestContext({
    now: readClock,
    emulator: { ...fleetOptions, operationDurationMs: 100, now: readClock },
  });
  db = context.container.database.db;
  owner = await createUser(context);
  tenantId = await connectTenant(context, owner.teamId, 0, 0);
  await context.container.inventory.syncTenant(tenantId);
  await context.container.pricing.ensureFreshForTenant(tenantId);
}, 60_000);
afterAll(() => context.close());

// The tenant's resource for a VM chosen above, running as inventory saw it.
async function findChosenVm(vmId: string) {
  const rows = await listRunningVms(db, tenantId);
  const resource = rows.find((row) => context.emulator.fleet.findVirtualMachine(row.armId)!.id === vmId);
  if (!resource) throw new Error(`the chosen VM ${vmId} is not among the tenant's running VMs`);
  return resource;
}

describe('the rollback guard on emulated load', () => {
  it('restores the previous size when the VM runs hot on its new one, within the collection that shows it', async () => {
    const resource = await findChosenVm(chosen.overloadingVmId);
    const machine = context.emulator.fleet.findVirtualMachine(resource.armId)!;
    const { previous, target } = findOverloadingSize(context.emulator.fleet, machine, clockMs)!;
    const change = await applyResizeNow(context.container, db, {
      teamId: owner.teamId,
      tenantId,
      resourceId: resource.id,
      currentSize: previous,
      targetSize: target,
      annualCostSavings: 100,
    });
    expect(change).toMatchObject({ state: 'succeeded', newSize: target });
    await context.container.metrics.collectTenant(tenantId);
    expect(await context.container.automation.guard.checkGuardedChanges()).toBe(0);

    // Three hours later, collected an hour at a time as the five-minute cycles would have.
    clockMs += 3 * hourMs;
    for (let window = 0; window < 4; window += 1) await context.container.metrics.collectTenant(tenantId);
    expect(await context.container.automation.guard.checkGuardedChanges()).toBe(1);

    const rollback = (
      await db.select().from(scheduledChanges).where(eq(scheduledChanges.resourceId, resource.id))
    ).find((row) => row.kind === 'rollback');
    expect(rollback).toMatchObject({ origin: 'guard', newSize: previous, state: 'claimed' });
    await context.container.automation.executor.execute(rollback!.id);
    expect(readCurrentSize(machine).name).toBe(previous);
    const [held] = await db.select().from(resources).where(eq(resources.id, resource.id));
    expect(held!.recommendationsHeldUntil!.getTime()).toBe(clockMs + 30 * 24 * hourMs);
  }, 120_000);

  it('restores the previous size when a VM moved to a burstable size runs out of CPU credits', async () => {
    // Where the first case left the clock, whether or not it ran.
    clockMs = chosen.startMs + 3 * hourMs;
    const resource = await findChosenVm(chosen.busyVmId);
    const machine = context.emulator.fleet.findVirtualMachine(resource.armId)!;
    expect(keepsHalfVcpuBusy(context.emulator.fleet, machine, clockMs)).toBe(true);
    const previous = readCurrentSize(machine).name;
    const target = 'Standard_B1ms';
    const change = await applyResizeNow(context.container, db, {
      teamId: owner.teamId,
      tenantId,
      resourceId: resource.id,
      currentSize: previous,
      targetSize: target,
      annualCostSavings: 100,
    });
    expect(change).toMatchObject({ state: 'succeeded', newSize: target });
    // The executor recorded the new size, so the next collection reads its credits too.
    await context.container.metrics.collectTenant(tenantId);
    expect(await context.container.automation.guard.checkGuardedChanges()).toBe(0);

    // Five hours later, collected an hour at a time.
    clockMs += 5 * hourMs;
    for (let window = 0; window < 6; window += 1) await context.container.metrics.collectTenant(tenantId);
    expect(await context.container.automation.guard.checkGuardedChanges()).toBe(1);
    const rollback = (
      await db.select().from(scheduledChanges).where(eq(scheduledChanges.resourceId, resource.id))
    ).find((row) => row.kind === 'rollback');
    expect(rollback).toMatchObject({ origin: 'guard', newSize: previous });
    const texts = (await context.container.activity.listEntries(owner.teamId, 0)).map(
      (entry) => entry.LogText,
    );
    expect(texts).toContainEqual(
      expect.stringContaining(`Guard: CPU credits empty for 2 h on ${target}; restoring ${previous}`),
    );
  }, 120_000);
});
