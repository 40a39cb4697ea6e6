// The executor against an emulator that throttles hard, fails and answers slowly.
import { readCurrentPowerState, readCurrentSize } from '@cloudtrim/azure-emulator/arm/arm.views';
import { listSizesOfferedInRegion } from '@cloudtrim/azure-emulator/catalog/sku.catalog';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createAzureGateway } from '../../cloud/azure/azure-gateway';
import type { Db } from '../../db/database';
import { createTransactionRunner } from '../../db/transaction';
import { automationLogs, recommendations, resources, scheduledChanges } from '../../db/schema';
import { connectTenant, createCloudTestContext, type CloudTestContext } from '../../../test/azure-emulator';
import { createUser, type TestUser } from '../../../test/helper';
import { AutomationExecutor, defaultExecutorOptions } from './automation.executor';
import { AutomationRepository } from './automation.repository';

let context: CloudTestContext;
let owner: TestUser;
let db: Db;
let tenantId: string;

beforeAll(async () => {
  context = await createCloudTestContext({
    emulator: {
      fleetSize: 24,
      operationDurationMs: 300,
      // One write, then one every two seconds, per subscription: resizes at once meet 429s.
      throttleLimits: { writeCapacity: 1, writeRefillPerSecond: 0.5 },
    },
  });
  db = context.container.database.db;
  owner = await createUser(context);
  tenantId = await connectTenant(context, owner.teamId, 0, 0);
  await context.container.inventory.syncTenant(tenantId);
}, 60_000);
afterEach(() => context.emulator.setFaults({}));
afterAll(() => context.close());

// Changes started now on `count` running VMs of one subscription (one write budget), each to a
// size of its own family.
async function startChanges(count: number) {
  const rows = await db
    .select()
    .from(resources)
    .where(
      and(
        eq(resources.tenantId, tenantId),
        eq(resources.type, 'Microsoft.Compute/virtualMachines'),
        eq(resources.powerState, 'running'),
        sql`not exists (select 1 from recommendation r where r.resource_id = ${resources.id})`,
      ),
    );
  const bySubscription = new Map<string, typeof rows>();
  for (const row of rows)
    bySubscription.set(row.subscriptionId, [...(bySubscription.get(row.subscriptionId) ?? []), row]);
  const largest = [...bySubscription.values()].sort((left, right) => right.length - left.length)[0] ?? [];
  if (largest.length < count) throw new Error(`only ${largest.length} running VMs in one subscription`);
  const started = [];
  for (const resource of largest.slice(0, count)) {
    const machine = context.emulator.fleet.findVirtualMachine(resource.armId)!;
    const current = readCurrentSize(machine);
    const target = listSizesOfferedInRegion(resource.region).find(
      (size) => size.family === current.family && size.name !== current.name,
    )!.name;
    const [recommendation] = await db
      .insert(recommendations)
      .values({
        teamId: owner.teamId,
        tenantId,
        resourceId: resource.id,
        kind: 'resize',
        predictionMethod: 'cloudtrim-forecast',
        currentSize: current.name,
        targetSize: target,
        recommendation: `Resize to ${target}`,
        annualCostSavings: 100,
      })
      .returning({ id: recommendations.id });
    await context.container.automation.service.applyRecommendation(owner.teamId, recommendation!.id, 'now');
    const [change] = await db
      .select()
      .from(scheduledChanges)
      .where(eq(scheduledChanges.recommendationId, recommendation!.id));
    started.push({ resource, machine, previous: current.name, target, changeId: change!.id });
  }
  return started;
}

const readChange = async (id: number) =>
  (await db.select().from(scheduledChanges).where(eq(scheduledChanges.id, id)))[0]!;

const readActions = async (changeId: number) =>
  (
    await db
      .select({ action: automationLogs.action })
      .from(automationLogs)
      .where(eq(automationLogs.scheduledChangeId, changeId))
      .orderBy(automationLogs.id)
  ).map((row) => row.action);

describe('the executor against a struggling Azure', () => {
  it("waits out 429s' Retry-After and 503s, answers arriving slowly, and loses nothing", async () => {
    context.emulator.resetStats();
    context.emulator.setFaults({
      errorCount: 3,
      errorStatus: 503,
      delayMs: 150,
      kinds: ['arm-write', 'arm-read'],
    });
    const changes = await startChanges(4);
    await Promise.all(changes.map(({ changeId }) => context.container.automation.executor.execute(changeId)));

    for (const { machine, target, changeId } of changes) {
      expect((await readChange(changeId)).state).toBe('succeeded');
      expect(readCurrentSize(machine).name).toBe(target);
      expect(machine.sizeHistory.filter((entry) => entry.size.name === target)).toHaveLength(1);
    }
    expect(context.emulator.stats.faultsInjected).toBe(3);
    expect(context.emulator.stats.throttled).toBeGreaterThan(0);
    expect(context.emulator.stats.retriesBeforeRetryAfter).toBe(0);
  }, 120_000);

  it('after its last attempt, fails the change, leaves the VM as it was and tells the user', async () => {
    // The container's own parts, with two attempts instead of five.
    const executor = new AutomationExecutor(
      new AutomationRepository(db),
      createTransactionRunner(context.container.database),
      context.container.tenants,
      createAzureGateway(context.config.azure),
      context.container.activity,
      () => new Date(),
      (error) => (error instanceof Error ? error.message : String(error)),
      (transaction, settlement) => context.container.pipelines.recordSettledChange(transaction, settlement),
      { ...defaultExecutorOptions, maxAttempts: 2 },
    );
    const [{ machine, previous, changeId, resource }] = (await startChanges(1)) as [
      Awaited<ReturnType<typeof startChanges>>[number],
    ];
    context.emulator.setFaults({ errorRate: 1, errorStatus: 503, kinds: ['arm-write'] });

    await expect(executor.execute(changeId)).rejects.toMatchObject({ kind: 'unavailable' });
    expect((await readChange(changeId)).state).toBe('claimed');
    await executor.execute(changeId);

    const failed = await readChange(changeId);
    expect(failed.state).toBe('failed');
    expect(failed.error).toMatch(/503/);
    expect(readCurrentSize(machine).name).toBe(previous);
    expect(readCurrentPowerState(machine)).toBe('running');
    const actions = await readActions(changeId);
    expect(actions.filter((action) => action.startsWith('Attempt 1 did not finish'))).toHaveLength(1);
    expect(actions.at(-1)).toMatch(/^Resize to .* failed: .*503/);
    const activity = await context.container.activity.listEntries(owner.teamId, 0, resource.armId);
    expect(activity[0]!.LogText).toMatch(/failed/);
  }, 120_000);
});
