// The rollback guard end to end on the emulator's movable clock: a VM made too small runs hot on its
// new size in the metrics the emulator serves, collection stores them, the guard restores the size.
import { readCurrentSize } from '@cloudtrim/azure-emulator/arm/arm.views';
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

// The fleet's load follows the time of day, and at night no VM may be busy enough to overload a
// smaller size: the clock starts at the latest whole hour of the last two days when one is.
function findBusyHour(): number {
  const fleet = generateFleet(fleetOptions);
  const subscriptionIds = new Set(fleet.tenants[0]!.subscriptions.map((item) => item.subscriptionId));
  const lastHourMs = Math.floor(Date.now() / hourMs) * hourMs;
  for (let startMs = lastHourMs; startMs > lastHourMs - 48 * hourMs; startMs -= hourMs) {
    const busy = fleet.virtualMachines.filter(
      (machine) =>
        subscriptionIds.has(machine.subscriptionId) && findOverloadingSize(fleet, machine, startMs),
    );
    if (busy.length > 0) return startMs;
  }
  throw new Error('no hour of the last two days when a VM would overload a smaller size');
}

let clockMs = findBusyHour();
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

// A running VM of the tenant and a smaller size of its family that its load would overload.
async function findVmTooBigToShrink() {
  const rows = await listRunningVms(db, tenantId);
  for (const resource of rows) {
    const machine = context.emulator.fleet.findVirtualMachine(resource.armId)!;
    const sizes = findOverloadingSize(context.emulator.fleet, machine, clockMs);
    if (sizes) return { resource, ...sizes };
  }
  throw new Error('no running VM whose load would overload a smaller size of its family');
}

describe('the rollback guard on emulated load', () => {
  it('restores the previous size when the VM runs hot on its new one, within the collection that shows it', async () => {
    const { resource, previous, target } = await findVmTooBigToShrink();
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
    const machine = context.emulator.fleet.findVirtualMachine(resource.armId)!;
    expect(readCurrentSize(machine).name).toBe(previous);
    const [held] = await db.select().from(resources).where(eq(resources.id, resource.id));
    expect(held!.recommendationsHeldUntil!.getTime()).toBe(clockMs + 30 * 24 * hourMs);
  }, 120_000);

  it('restores the previous size when a VM moved to a burstable size runs out of CPU credits', async () => {
    // A running VM that keeps more than half a vCPU busy for the next six hours: on a B1ms (base 0.2,
    // 30 credits to start) its bank empties within two hours and its CPU then reads 20%, never hot.
    const rows = await listRunningVms(db, tenantId);
    // Not a VM the test above rolled back (its recommendations are held): which VMs are busy follows
    // the hour the clock starts at, so on some hours both tests would otherwise choose the same one.
    const resource = rows.find((row) => {
      if (row.recommendationsHeldUntil) return false;
      const machine = context.emulator.fleet.findVirtualMachine(row.armId)!;
      if (readCurrentSize(machine).name.startsWith('Standard_B')) return false;
      for (let minute = 0; minute <= 6 * 60; minute += 5) {
        if (
          context.emulator.fleet.demandAt(machine.id, new Date(clockMs + minute * minuteMs)).cpuCores <= 0.5
        ) {
          return false;
        }
      }
      return true;
    });
    if (!resource) throw new Error('no running VM that keeps half a vCPU busy for six hours');
    const machine = context.emulator.fleet.findVirtualMachine(resource.armId)!;
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
