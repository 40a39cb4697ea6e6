// Cost anomaly alerts on the emulator's movable clock, ingestion after ingestion as the cost-sync
// job runs them: an anomaly the emulator injected into its bill is alerted once, with the
// resources that drove it, at the first ingestion that has its day; a resize Cloudtrim applied is
// not an anomaly in the days after it.
import { readCurrentSize } from '@cloudtrim/azure-emulator/arm/arm.views';
import { listSizesOfferedInRegion } from '@cloudtrim/azure-emulator/catalog/sku.catalog';
import type { InjectedAnomaly } from '@cloudtrim/azure-emulator/costs/cost.anomalies';
import type { AlertListResponse } from '@cloudtrim/contracts/alerts';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectTenant, createCloudTestContext, type CloudTestContext } from '../../../test/azure-emulator';
import { bearer, createUser, logIn, type TestUser } from '../../../test/helper';
import { resources } from '../../db/schema';
import { applyResizeNow } from '../automation/testing/apply-resize';
import { hourMs, dayMs } from '../../lib/time';

let clockMs = Date.UTC(2026, 10, 2, 10, 0);
const readClock = () => new Date(clockMs);

let context: CloudTestContext;
let owner: TestUser;
let tenantId: string;
let anomaly: InjectedAnomaly;

function formatDay(day: number): string {
  return new Date(day * dayMs).toISOString().slice(0, 10);
}

// One ingestion as the cost-sync job runs it: the reads due, then the search for anomalies.
async function ingest(): Promise<number> {
  await context.container.costs.syncTenant(tenantId, { signal: AbortSignal.timeout(60_000) });
  return context.container.costAnomalies.evaluateTenant(tenantId);
}

// The alerts as the API lists them, under a fresh session (the clock moves days between calls).
async function listAnomalyAlerts() {
  const token = await logIn(context, owner);
  const response = await context.app.inject({ method: 'GET', url: '/api/v1/alert', headers: bearer(token) });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<AlertListResponse>().Alerts.filter((alert) => alert.Kind === 'anomaly');
}

beforeAll(async () => {
  context = await createCloudTestContext({
    now: readClock,
    emulator: {
      fleetSize: 24,
      now: readClock,
      operationDurationMs: 50,
      throttleLimits: { costQueryCapacity: 10_000, costQueryRefillPerMinute: 10_000 },
    },
  });
  // The first anomaly of the tenant's bill after the emulator's start: the clock goes to the
  // morning before it, where the tenant is added and its bill read.
  const startDay = Math.floor(clockMs / dayMs);
  const subscriptionIds = new Set(
    context.emulator.fleet.tenants[0]!.subscriptions.map((subscription) => subscription.subscriptionId),
  );
  anomaly = context.emulator.costs
    .listAnomalies()
    .filter((candidate) => subscriptionIds.has(candidate.subscriptionId) && candidate.fromDay > startDay + 1)
    .sort((first, second) => first.fromDay - second.fromDay)[0]!;
  clockMs = (anomaly.fromDay - 1) * dayMs + 10 * hourMs;
  owner = await createUser(context);
  tenantId = await connectTenant(context, owner.teamId, 0, 0);
  await context.container.inventory.syncTenant(tenantId);
}, 60_000);
afterAll(() => context.close());

describe('cost anomaly alerts', () => {
  it('alerts an injected anomaly once, at the ingestion that brings its day, naming what drove it', async () => {
    const inScope = (alert: { Filter: { ResourceGroup?: string; Service?: string } }) =>
      alert.Filter.ResourceGroup?.toLowerCase() === anomaly.resourceGroupName.toLowerCase() &&
      alert.Filter.Service === anomaly.serviceName;
    // The bill up to the day before: nothing of it yet.
    await ingest();
    expect((await listAnomalyAlerts()).filter(inScope)).toEqual([]);

    // Two days on (the first may hold only its last hours), one ingestion has its days.
    clockMs += 2 * dayMs;
    expect(await ingest()).toBeGreaterThan(0);
    const alerts = (await listAnomalyAlerts()).filter(inScope);
    expect(alerts).toHaveLength(1);
    const [alert] = alerts;
    expect([formatDay(anomaly.fromDay), formatDay(anomaly.fromDay + 1)]).toContain(alert!.Date);
    expect(alert).toMatchObject({
      Kind: 'anomaly',
      Currency: 'USD',
      AcknowledgedAt: null,
      Filter: { TenantId: tenantId, SubscriptionId: anomaly.subscriptionId, Service: anomaly.serviceName },
    });
    expect(alert!.Scope).toMatch(
      new RegExp(
        `^Subscription Contoso \\w+ · resource group ${anomaly.resourceGroupName} · ${anomaly.serviceName}$`,
      ),
    );
    expect(alert!.Amount).toBeGreaterThan(alert!.Expected!);
    // The resources the anomaly added (or whose price jumped) drive it, largest difference first.
    const injectedIds = new Set(anomaly.resources.map((resource) => resource.resourceId));
    expect(alert!.Drivers.length).toBeGreaterThan(0);
    expect(injectedIds.has(alert!.Drivers[0]!.ResourceId)).toBe(true);
    const differences = alert!.Drivers.map((driver) => Math.abs(driver.Actual - driver.Expected));
    expect(differences).toEqual([...differences].sort((first, second) => second - first));
    for (const driver of alert!.Drivers.filter((entry) => injectedIds.has(entry.ResourceId))) {
      expect(driver.Actual).toBeGreaterThan(driver.Expected);
      expect(driver.Name).toBe(driver.ResourceId.split('/').at(-1));
    }
    const explained = alert!.Drivers.reduce((sum, driver) => sum + driver.Actual - driver.Expected, 0);
    expect(explained).toBeGreaterThan(0.8 * (alert!.Amount - alert!.Expected!));

    // The next ingestion (Azure's next refresh) sees it again and raises nothing new.
    const before = await listAnomalyAlerts();
    clockMs += 4 * hourMs;
    await ingest();
    expect(await listAnomalyAlerts()).toEqual(before);
  }, 120_000);

  it('expects a machine Cloudtrim resized at its new cost from the change’s day', async () => {
    const db = context.container.database.db;
    const injectedGroup = anomaly.resourceGroupName.toLowerCase();
    // A pay-as-you-go machine (a reservation would bill the same after the resize), away from the anomaly.
    const candidates = await db
      .select()
      .from(resources)
      .where(
        and(
          eq(resources.tenantId, tenantId),
          eq(resources.type, 'Microsoft.Compute/virtualMachines'),
          eq(resources.powerState, 'running'),
        ),
      );
    const resource = candidates.find((candidate) => {
      const machine = context.emulator.fleet.findVirtualMachine(candidate.armId)!;
      const item = context.emulator.costs
        .listItems(machine.subscriptionId, machine.resourceGroupName)
        .find((entry) => entry.machine === machine);
      return (
        machine.resourceGroupName.toLowerCase() !== injectedGroup &&
        item !== undefined &&
        !item.reservation &&
        readCurrentSize(machine).vcpus >= 4
      );
    })!;
    const machine = context.emulator.fleet.findVirtualMachine(resource.armId)!;
    const current = readCurrentSize(machine);
    const target = listSizesOfferedInRegion(resource.region)
      .filter((size) => size.family === current.family && size.vcpus < current.vcpus)
      .sort((first, second) => first.vcpus - second.vcpus)[0]!;
    await applyResizeNow(context.container, db, {
      teamId: owner.teamId,
      tenantId,
      resourceId: resource.id,
      currentSize: current.name,
      targetSize: target.name,
      annualCostSavings: 1_000,
    });
    const changeDay = formatDay(Math.floor(clockMs / dayMs));

    // Ten days of ingestions, one a day: the resize settles and becomes the level.
    for (let day = 0; day < 10; day += 1) {
      clockMs += dayMs;
      await ingest();
    }
    const group = machine.resourceGroupName.toLowerCase();
    const alerts = (await listAnomalyAlerts()).filter(
      (alert) => alert.Filter.ResourceGroup?.toLowerCase() === group && alert.Date >= changeDay,
    );
    expect(alerts).toEqual([]);

    // The resize was no small change in its scope: the machine's cost fell by more than the band.
    const costs = await db.execute<{ before: number; after: number; scope: number }>(sql`
      select
        sum(amortized_cost) filter (where resource_id = ${resource.armId.toLowerCase()}
          and day = ${changeDay}::date - 1)::float8 as before,
        sum(amortized_cost) filter (where resource_id = ${resource.armId.toLowerCase()}
          and day = ${changeDay}::date + 2)::float8 as after,
        sum(amortized_cost) filter (where day = ${changeDay}::date - 1)::float8 as scope
      from cost_day
      where tenant_id = ${tenantId}::uuid and lower(resource_group) = ${group}
        and service_name = 'Virtual Machines'
    `);
    const { before, after, scope } = costs.rows[0]!;
    expect(before - after).toBeGreaterThan(0.1 * scope);
  }, 180_000);
});
