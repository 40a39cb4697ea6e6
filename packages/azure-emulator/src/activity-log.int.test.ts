import { MonitorClient } from '@azure/arm-monitor';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEmulator, type TestEmulator } from './testing/emulator.fixture';

const dayMs = 86_400_000;
const nowMs = Date.parse('2026-11-18T16:00:00Z');

describe('the Activity Log through @azure/arm-monitor', () => {
  let kit: TestEmulator;
  let subscriptionId: string;

  beforeAll(async () => {
    // Small pages, so a subscription's 90 days come in several; reads throttled after a few.
    kit = await startTestEmulator({
      fleetSize: 60,
      seed: 11,
      pageSize: 1,
      now: () => new Date(nowMs),
      throttleLimits: { readCapacity: 40, readRefillPerSecond: 20 },
    });
    subscriptionId = kit.emulator.tenants[0]!.subscriptions[0]!.subscriptionId;
  });

  afterAll(() => kit.stop());

  function window(fromMs: number, toMs = nowMs) {
    return `eventTimestamp ge '${new Date(fromMs).toISOString()}' and eventTimestamp le '${new Date(toMs).toISOString()}'`;
  }

  it('lists 90 days of a subscription’s writes newest first, across pages, in Azure’s shape', async () => {
    const monitor = new MonitorClient(kit.createCredential(0, 0), subscriptionId, kit.armOptions);
    const events = [];
    for await (const event of monitor.activityLogs.list(window(nowMs - 90 * dayMs))) events.push(event);
    // The fleet was made before the 90 days; the idle public IPs detached within them are logged.
    const detached = kit.emulator.fleet.publicIpAddresses.filter(
      (ip) =>
        ip.subscriptionId === subscriptionId &&
        ip.unassociatedSinceMs !== undefined &&
        ip.unassociatedSinceMs >= nowMs - 90 * dayMs,
    );
    expect(detached.length).toBeGreaterThan(0);
    expect(events.map((event) => [event.resourceId, event.eventTimestamp!.getTime()]).sort()).toEqual(
      detached.map((ip) => [ip.id, ip.unassociatedSinceMs]).sort(),
    );
    const times = events.map((event) => event.eventTimestamp!.getTime());
    expect(times).toEqual([...times].sort((first, second) => second - first));
    expect(events[0]).toMatchObject({
      category: { value: 'Administrative' },
      status: { value: 'Succeeded' },
      subscriptionId,
    });
    expect(events[0]!.operationName!.value).toMatch(/\/write$/);
  });

  it('filters on a resource, and logs a powerOff made through Resource Manager but not a stop from the guest', async () => {
    const monitor = new MonitorClient(kit.createCredential(0, 0), subscriptionId, kit.armOptions);
    const [stoppedByApi, stoppedInGuest] = kit.emulator.fleet.virtualMachines.filter(
      (machine) => machine.subscriptionId === subscriptionId,
    );
    kit.emulator.fleet.recordPowerState(stoppedByApi!, 'stopped', nowMs - 3 * dayMs, 'api');
    kit.emulator.fleet.recordPowerState(stoppedInGuest!, 'stopped', nowMs - 3 * dayMs);
    const read = async (resourceId: string) => {
      const events = [];
      const filter = `${window(nowMs - 7 * dayMs)} and resourceUri eq '${resourceId}'`;
      for await (const event of monitor.activityLogs.list(filter)) events.push(event);
      return events;
    };
    const logged = await read(stoppedByApi!.id);
    expect(logged.map((event) => event.operationName?.value)).toEqual([
      'Microsoft.Compute/virtualMachines/powerOff/action',
    ]);
    expect(logged[0]!.eventTimestamp!.getTime()).toBe(nowMs - 3 * dayMs);
    expect(logged[0]!.resourceId).toBe(stoppedByApi!.id);
    expect(await read(stoppedInGuest!.id)).toEqual([]);
  });

  it('refuses a filter without a start or reaching past 90 days with 400, and throttles as Resource Manager does', async () => {
    const token = await kit.readToken(0, 0);
    const path = `/subscriptions/${subscriptionId}/providers/Microsoft.Insights/eventtypes/management/values?api-version=2015-04-01`;
    expect((await kit.send('GET', path, { token })).status).toBe(400);
    const tooOld = encodeURIComponent(window(nowMs - 120 * dayMs));
    const answer = await kit.send('GET', `${path}&$filter=${tooOld}`, { token });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ error: { code: 'BadRequest' } });
    const filter = encodeURIComponent(window(nowMs - dayMs));
    const statuses = [];
    for (let call = 0; call < 60; call += 1) {
      statuses.push((await kit.send('GET', `${path}&$filter=${filter}`, { token })).status);
      if (statuses.at(-1) === 429) break;
    }
    expect(statuses.at(-1)).toBe(429);
  });
});
