// A newcomer's first day: the emulator's bill holds an anomaly begun four days before its clock
// started, so the first ingestion of a freshly connected tenant alerts it (its days lie inside the
// 7 days alerted), naming the scale-out that drove it.
import type { AlertListResponse } from '@cloudtrim/contracts/alerts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectTenant, createCloudTestContext, type CloudTestContext } from '../../../test/azure-emulator';
import { bearer, createUser, logIn } from '../../../test/helper';

const dayMs = 86_400_000;
const clockMs = Date.UTC(2026, 9, 14, 11, 0);
const readClock = () => new Date(clockMs);

let context: CloudTestContext;

beforeAll(async () => {
  context = await createCloudTestContext({
    now: readClock,
    emulator: {
      fleetSize: 24,
      seed: 5,
      now: readClock,
      throttleLimits: { costQueryCapacity: 10_000, costQueryRefillPerMinute: 10_000 },
    },
  });
}, 60_000);
afterAll(() => context.close());

describe('a fresh tenant’s first ingestion', () => {
  it('alerts the anomaly of the last days at once', async () => {
    const startDay = Math.floor(clockMs / dayMs);
    const firstSubscription = context.emulator.fleet.tenants[0]!.subscriptions[0]!.subscriptionId;
    const recent = context.emulator.costs
      .listAnomalies()
      .find((anomaly) => anomaly.subscriptionId === firstSubscription && anomaly.fromDay === startDay - 4)!;
    expect(recent.kind).toBe('scaleOut');

    const owner = await createUser(context);
    const tenantId = await connectTenant(context, owner.teamId, 0, 0);
    await context.container.inventory.syncTenant(tenantId);
    await context.container.costs.syncTenant(tenantId, { signal: AbortSignal.timeout(90_000) });
    expect(await context.container.costAnomalies.evaluateTenant(tenantId)).toBeGreaterThan(0);

    const token = await logIn(context, owner);
    const response = await context.app.inject({
      method: 'GET',
      url: '/api/v1/alert',
      headers: bearer(token),
    });
    const alerts = response
      .json<AlertListResponse>()
      .Alerts.filter(
        (alert) =>
          alert.Kind === 'anomaly' &&
          alert.Filter.ResourceGroup?.toLowerCase() === recent.resourceGroupName.toLowerCase(),
      );
    expect(alerts.length).toBeGreaterThan(0);
    expect(alerts[0]!.Date >= new Date((startDay - 7) * dayMs).toISOString().slice(0, 10)).toBe(true);
  }, 150_000);
});
