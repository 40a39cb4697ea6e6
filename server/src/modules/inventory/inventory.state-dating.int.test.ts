// Waste dated on the day a tenant connects: the first inventory sync reads since when an idle public
// IP and a stopped VM have been so from Azure (the emulator's Activity Log through the SDK, and Azure
// Monitor's last CPU minute for a stop from inside the guest), and keeps Cloudtrim's first sight
// (said so) where nothing in Azure dates it.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectTenant, createCloudTestContext, type CloudTestContext } from '../../../test/azure-emulator';
import { createUser } from '../../../test/helper';

const minuteMs = 60_000;
const dayMs = 24 * 60 * minuteMs;
const nowMs = Date.UTC(2026, 10, 20, 9, 0);
const readClock = () => new Date(nowMs);

let context: CloudTestContext;

beforeAll(async () => {
  context = await createCloudTestContext({
    now: readClock,
    emulator: { fleetSize: 30, seed: 27, now: readClock },
  });
}, 60_000);
afterAll(() => context.close());

async function readDating(armId: string) {
  const result = await context.container.database.db.execute<{ since: string; source: string | null }>(sql`
    select resource.state_since as since, dating.source
    from resource left join resource_state_dating as dating on dating.resource_id = resource.id
    where lower(resource.arm_id) = ${armId.toLowerCase()}`);
  const row = result.rows[0]!;
  return { since: new Date(row.since).getTime(), source: row.source };
}

describe('dating waste from Azure on the first sync', () => {
  it('dates an idle IP from its detaching write, a powered-off VM from its powerOff, a guest stop from its last CPU minute', async () => {
    const { fleet } = context.emulator;
    const tenant = context.emulator.tenants[0]!;
    const subscriptionIds = new Set(tenant.subscriptions.map((item) => item.subscriptionId));
    const running = fleet.virtualMachines.filter(
      (machine) =>
        subscriptionIds.has(machine.subscriptionId) &&
        fleet.powerStateAt(machine.id, readClock()) === 'running',
    );
    const [poweredOff, guestStopped] = running;
    fleet.recordPowerState(poweredOff!, 'stopped', nowMs - 5 * dayMs, 'api');
    fleet.recordPowerState(guestStopped!, 'stopped', nowMs - 4 * dayMs - 17 * minuteMs);
    const idle = fleet.publicIpAddresses.filter(
      (ip) => subscriptionIds.has(ip.subscriptionId) && ip.unassociatedSinceMs !== undefined,
    );
    const recent = idle.find((ip) => ip.unassociatedSinceMs! >= nowMs - 89 * dayMs)!;
    const old = idle.find((ip) => ip.unassociatedSinceMs! < nowMs - 91 * dayMs);

    const owner = await createUser(context);
    const tenantId = await connectTenant(context, owner.teamId, 0, 0);
    await context.container.inventory.syncTenant(tenantId);

    expect(await readDating(recent.id)).toEqual({
      since: recent.unassociatedSinceMs,
      source: 'activity-log',
    });
    expect(await readDating(poweredOff!.id)).toEqual({ since: nowMs - 5 * dayMs, source: 'activity-log' });
    // The minute after the last one Monitor has CPU for.
    expect(await readDating(guestStopped!.id)).toEqual({
      since: nowMs - 4 * dayMs - 17 * minuteMs,
      source: 'metrics',
    });
    // Nothing in the 90 days: first sight it stays, and the finders say "at least".
    if (old) expect(await readDating(old.id)).toEqual({ since: nowMs, source: null });
    // What was dated is not asked about again at the next sync.
    const undated = await context.container.database.db.execute<{ count: number }>(sql`
      select count(*)::int as count from resource
      left join resource_state_dating as dating on dating.resource_id = resource.id
      where resource.tenant_id = ${tenantId}::uuid and resource.state_since is not null
        and (dating.resource_id is null or dating.state_since is distinct from resource.state_since)
        and ((lower(resource.type) = 'microsoft.network/publicipaddresses'
              and resource.details->>'ipConfigurationId' is null and resource.details->>'natGatewayId' is null)
             or (lower(resource.type) = 'microsoft.compute/virtualmachines' and resource.power_state = 'stopped'))`);
    expect(undated.rows[0]!.count).toBe(0);
  });
});
