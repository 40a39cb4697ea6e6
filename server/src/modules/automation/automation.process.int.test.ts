// Exactly once across real processes: Cloudtrim's own entry point (`node --import tsx src/main.ts`)
// as ROLE=worker and ROLE=api children on one database, against the in-process emulator.
import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { readCurrentSize } from '@cloudtrim/azure-emulator/arm/arm.views';
import { listSizesOfferedInRegion } from '@cloudtrim/azure-emulator/catalog/sku.catalog';
import type { Db } from '../../db/database';
import { automationLogs, recommendations, resources, scheduledChanges } from '../../db/schema';
import {
  connectTenant,
  createCloudTestContext,
  waitFor,
  type CloudTestContext,
} from '../../../test/azure-emulator';
import { createUser, type TestUser } from '../../../test/helper';
import { startServerProcess, type ServerProcess } from '../../../test/server-process';

let context: CloudTestContext;
let owner: TestUser;
let db: Db;
let tenantId: string;
const children: ServerProcess[] = [];

beforeAll(async () => {
  // Six seconds per operation: long enough to kill a worker while its resize runs in Azure.
  context = await createCloudTestContext({ emulator: { fleetSize: 140, operationDurationMs: 6000 } });
  db = context.container.database.db;
  owner = await createUser(context);
  tenantId = await connectTenant(context, owner.teamId, 0, 0);
  await context.container.inventory.syncTenant(tenantId);
  // Azure Monitor answers the worker processes nothing: the recommendations these tests plant are
  // made without metrics, and an analysis that read some would rightly replace them (and cancel
  // their changes) whenever it ran, which depends on the hour and the machine's speed.
  context.emulator.setFaults({ kinds: ['metrics', 'getBatch'], errorRate: 1 });
}, 120_000);

afterEach(async () => {
  await Promise.all(children.splice(0).map((child) => child.stop()));
});

afterAll(() => context.close());

async function startServer(role: 'worker' | 'api'): Promise<ServerProcess> {
  const server = await startServerProcess(context, role);
  children.push(server);
  return server;
}

async function killHard(server: ServerProcess): Promise<void> {
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.kill('SIGKILL');
  await exited;
}

// Running VMs of the tenant, each with a recommendation to a size of its own family. A VM whose only
// recommendations are on offer is still free, and they are withdrawn for the test's own.
async function planRecommendations(
  count: number,
): Promise<{ id: number; resource: typeof resources.$inferSelect; target: string }[]> {
  const rows = await db
    .select()
    .from(resources)
    .where(
      and(
        eq(resources.tenantId, tenantId),
        eq(resources.type, 'Microsoft.Compute/virtualMachines'),
        eq(resources.powerState, 'running'),
        sql`not exists (select 1 from recommendation r where r.resource_id = ${resources.id} and r.status <> 'open')`,
      ),
    )
    .limit(count);
  if (rows.length < count) throw new Error(`only ${rows.length} running VMs left`);
  const planned = [];
  for (const resource of rows) {
    const machine = context.emulator.fleet.findVirtualMachine(resource.armId)!;
    const current = readCurrentSize(machine);
    const target = listSizesOfferedInRegion(resource.region).find(
      (size) => size.family === current.family && size.name !== current.name,
    )!.name;
    await db
      .update(recommendations)
      .set({ status: 'superseded', supersededAt: new Date() })
      .where(and(eq(recommendations.resourceId, resource.id), eq(recommendations.status, 'open')));
    const [row] = await db
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
    planned.push({ id: row!.id, resource, target });
  }
  return planned;
}

function countResizesTo(armId: string, target: string): number {
  const machine = context.emulator.fleet.findVirtualMachine(armId)!;
  return machine.sizeHistory.filter((change) => change.size.name === target).length;
}

async function countLogEntries(changeIds: number[], pattern: string): Promise<Map<number, number>> {
  const rows = await db
    .select({ changeId: automationLogs.scheduledChangeId, count: sql<number>`count(*)::int` })
    .from(automationLogs)
    .where(
      and(
        inArray(automationLogs.scheduledChangeId, changeIds),
        sql`${automationLogs.action} like ${pattern}`,
      ),
    )
    .groupBy(automationLogs.scheduledChangeId);
  return new Map(rows.map((row) => [row.changeId!, row.count]));
}

describe('a worker killed after submitting', () => {
  it('resumes by polling the saved operation: the resize happens once and is logged once', async () => {
    const [{ id, resource, target }] = (await planRecommendations(1)) as [
      Awaited<ReturnType<typeof planRecommendations>>[number],
    ];
    const first = await startServer('worker');
    const applied = await context.container.automation.service.applyRecommendation(owner.teamId, id, 'now');
    expect(applied.message).toBe('The change has started.');
    const submitted = await waitFor(async () => {
      const [change] = await db
        .select()
        .from(scheduledChanges)
        .where(eq(scheduledChanges.recommendationId, id));
      return change?.state === 'submitted' && change.step === 'resize' && change.operationUrl
        ? change
        : undefined;
    });
    await killHard(first);
    const writesBefore = context.emulator.stats.calls['arm-write'];

    await startServer('worker');
    const done = await waitFor(async () => {
      const [change] = await db.select().from(scheduledChanges).where(eq(scheduledChanges.id, submitted.id));
      return change?.state === 'succeeded' || change?.state === 'failed' ? change : undefined;
    }, 150_000);

    expect(done.state).toBe('succeeded');
    expect(done.attempts).toBe(2);
    // No second PATCH: the new worker only polled and read the VM back.
    expect(context.emulator.stats.calls['arm-write']).toBe(writesBefore);
    expect(countResizesTo(resource.armId, target)).toBe(1);
    expect((await countLogEntries([done.id], 'Resize to % submitted')).get(done.id)).toBe(1);
    expect((await countLogEntries([done.id], 'Resized from %')).get(done.id)).toBe(1);
  }, 240_000);
});

describe('two API and two worker processes on one database', () => {
  it('apply every change exactly once when many are due in the same window', async () => {
    const count = 80;
    const planned = await planRecommendations(count);
    const apis = await Promise.all([startServer('api'), startServer('api')]);
    await Promise.all([startServer('worker'), startServer('worker')]);
    const token = await logInOver(apis[0]!.port);
    // Every recommendation applied at the window through both APIs at once, as a double click
    // landing on two replicas would.
    await Promise.all(
      planned.flatMap(({ id }) =>
        apis.map(async (api) => {
          const response = await fetch(
            `http://127.0.0.1:${api.port}/api/v1/log/recommendation/apply/maintenancewindow?id=${id}`,
            { headers: { authorization: `Bearer ${token}` } },
          );
          expect(response.status, await response.text()).toBe(200);
        }),
      ),
    );
    const changes = await db
      .select()
      .from(scheduledChanges)
      .where(
        inArray(
          scheduledChanges.recommendationId,
          planned.map(({ id }) => id),
        ),
      );
    expect(changes).toHaveLength(count);
    const writesBefore = context.emulator.stats.calls['arm-write'];
    // The window opens: every change is due at once.
    await db
      .update(scheduledChanges)
      .set({ changeAt: new Date(Date.now() - 1000) })
      .where(
        inArray(
          scheduledChanges.id,
          changes.map((change) => change.id),
        ),
      );

    await waitFor(async () => {
      const [row] = await db
        .select({ open: sql<number>`count(*)::int` })
        .from(scheduledChanges)
        .where(
          and(
            inArray(
              scheduledChanges.id,
              changes.map((change) => change.id),
            ),
            inArray(scheduledChanges.state, ['planned', 'claimed', 'submitted']),
          ),
        );
      return row!.open === 0;
    }, 240_000);

    const finished = await db
      .select()
      .from(scheduledChanges)
      .where(
        inArray(
          scheduledChanges.id,
          changes.map((change) => change.id),
        ),
      );
    expect(
      finished.filter((change) => change.state !== 'succeeded').map((change) => [change.state, change.error]),
    ).toEqual([]);
    expect(context.emulator.stats.calls['arm-write'] - writesBefore).toBe(count);
    for (const { resource, target } of planned) expect(countResizesTo(resource.armId, target)).toBe(1);
    const submittedLogs = await countLogEntries(
      changes.map((change) => change.id),
      'Resize to % submitted',
    );
    expect([...submittedLogs.values()].every((entries) => entries === 1)).toBe(true);
    expect(submittedLogs.size).toBe(count);
  }, 420_000);
});

async function logInOver(port: number): Promise<string> {
  const response = await fetch(`http://127.0.0.1:${port}/api/v1/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ emailAddress: owner.email, password: owner.password }),
  });
  if (response.status !== 200) throw new Error(`login failed: ${response.status}`);
  return (await response.json()) as string;
}
