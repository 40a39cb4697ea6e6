// Waste's savings at the customer's own rates against real PostgreSQL and the emulator's bill:
// Contoso pays 15% off list, so once its bill is read the disks, public IPs and plans the finders
// find save 15% less than at list, and a resource the bill does not have keeps its list saving.
import { recommendationsResponseSchema, type Recommendation } from '@cloudtrim/contracts/recommendations';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectTenant, createCloudTestContext, type CloudTestContext } from '../../../test/azure-emulator';
import { bearer, createUser, logIn } from '../../../test/helper';
import { dayMs } from '../../lib/time';

// The fortnight the bill prices (3 to 17 days back) spans October and November.
const clockMs = Date.UTC(2026, 10, 10, 10, 0);
const readClock = () => new Date(clockMs);
const daysAgo = (days: number) => new Date(clockMs - days * dayMs).toISOString();
// The emulator's discount for Contoso, the first tenant.
const contosoRatio = 0.85;

describe('recommendations: waste at the customer’s own rates', () => {
  let context: CloudTestContext;
  let token: string;
  let tenantId: string;
  let parkedDiskName: string;

  beforeAll(async () => {
    context = await createCloudTestContext({
      now: readClock,
      emulator: {
        fleetSize: 24,
        now: readClock,
        throttleLimits: { costQueryCapacity: 10_000, costQueryRefillPerMinute: 10_000 },
      },
    });
    const user = await createUser(context);
    token = await logIn(context, user);
    tenantId = await connectTenant(context, user.teamId, 0, 0);
    await context.container.inventory.syncTenant(tenantId);
    const db = context.container.database.db;
    // A Premium disk of the emulator's, its VM deallocated for 40 days as inventory last saw it: a
    // tier change, its current tier on the bill.
    const [parked] = (
      await db.execute<{ name: string; managedBy: string }>(sql`
        select name, details->>'managedBy' as "managedBy" from resource
        where tenant_id = ${tenantId}::uuid and type = 'Microsoft.Compute/disks' and sku = 'Premium_LRS'
          and details->>'managedBy' is not null
        order by name limit 1`)
    ).rows;
    parkedDiskName = parked!.name;
    await db.execute(sql`
      update resource set power_state = 'deallocated', state_since = ${daysAgo(40)}::timestamptz
      where tenant_id = ${tenantId}::uuid and lower(arm_id) = ${parked!.managedBy.toLowerCase()}`);
    // The public IPs associated with nothing and the empty plans have been so for ten days, as
    // inventory would have seen them (a first sync dates their state from now).
    await db.execute(sql`
      update resource set state_since = ${daysAgo(10)}::timestamptz
      where tenant_id = ${tenantId}::uuid
        and ((type = 'Microsoft.Network/publicIPAddresses' and details->>'ipConfigurationId' is null)
     or (type = 'Microsoft.Web/serverfarms' and details->>'numberOfSites' = '0'))`);
    // An unattached disk inventory has and the bill does not.
    const [vm] = (
      await db.execute<{ subscriptionId: string; region: string }>(sql`
        select subscription_id as "subscriptionId", region from resource
        where tenant_id = ${tenantId}::uuid and type = 'Microsoft.Compute/virtualMachines' limit 1`)
    ).rows;
    await db.execute(sql`
      insert into resource (tenant_id, subscription_id, arm_id, name, type, category, subcategory, resource_group,
                            region, sku, details, tags, state_since)
      values (${tenantId}::uuid, ${vm!.subscriptionId}::uuid,
              ${`/subscriptions/${vm!.subscriptionId}/resourceGroups/rg-waste/providers/Microsoft.Compute/disks/data-unbilled`},
              'data-unbilled', 'Microsoft.Compute/disks', 'Waste', 'Waste', 'rg-waste', ${vm!.region}, 'Premium_LRS',
              '{"diskState": "Unattached", "diskSizeGb": 128}'::jsonb, '{}'::jsonb, ${daysAgo(20)}::timestamptz)`);
  }, 120_000);
  afterAll(() => context.close());

  async function listWaste(): Promise<Recommendation[]> {
    const response = await context.app.inject({
      method: 'GET',
      url: '/api/v1/log/recommendation',
      headers: bearer(token),
    });
    return recommendationsResponseSchema
      .parse(response.json())
      .Data.filter((item) => item.PredictionMethod === 'waste-rule');
  }

  it('states list savings before the bill is read, and 15% less from Contoso’s bill, but for a resource it lacks', async () => {
    await context.container.recommendations.analyseTenant(tenantId);
    const atList = await listWaste();
    const names = atList.map((item) => item.FriendlyName);
    expect(names).toContain('data-unbilled');
    expect(names).toContain(parkedDiskName);
    // The emulator's estate leaves a disk unattached and a Standard IP unused.
    for (const start of ['Delete the unattached disk', 'Delete the unused public IP']) {
      expect(
        atList.some((item) => item.Recommendation.startsWith(start)),
        start,
      ).toBe(true);
    }
    for (const item of atList) {
      expect(item.Memo, item.FriendlyName).toMatch(
        /No bill read yet for this [a-zA-Z ]+: the saving is at list prices\.$/,
      );
    }

    await context.container.costs.syncTenant(tenantId, { signal: AbortSignal.timeout(90_000) });
    await context.container.database.db.execute(sql`
      update resource set analysed_until = null where tenant_id = ${tenantId}::uuid`);
    await context.container.recommendations.analyseTenant(tenantId);
    const atOwnRates = new Map((await listWaste()).map((item) => [item.Id, item]));

    for (const listed of atList) {
      // The same recommendation, its figures refreshed.
      const repriced = atOwnRates.get(listed.Id)!;
      expect(repriced, listed.FriendlyName).toBeDefined();
      if (listed.FriendlyName === 'data-unbilled') {
        expect(repriced.AnnualCostSavings).toBe(listed.AnnualCostSavings);
        expect(repriced.Memo).toMatch(/No bill read yet for this disk: the saving is at list prices\.$/);
        continue;
      }
      expect(repriced.AnnualCostSavings / listed.AnnualCostSavings, listed.FriendlyName).toBeCloseTo(
        contosoRatio,
        2,
      );
      expect(repriced.Memo, listed.FriendlyName).toContain('from its bill');
      expect(repriced.Memo, listed.FriendlyName).toContain(
        `the saving counts your rates (at list: $${listed.AnnualCostSavings.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })} a year).`,
      );
    }
    const tier = [...atOwnRates.values()].find((item) => item.FriendlyName === parkedDiskName)!;
    expect(tier.Memo).toMatch(
      /from its bill and the discount your bill shows for managed disks in [a-z0-9]+;/,
    );
  }, 240_000);
});
