// The waste finders in the analysis pipeline against real PostgreSQL: resources as inventory keeps
// them (details, state_since, tags), plans' and databases' use from packed days, conclusions
// reconciled like the VMs' and listed with them.
import { recommendationsResponseSchema } from '@cloudtrim/contracts/recommendations';
import { fixturePrices } from '@cloudtrim/rightsizing/waste/waste-fixtures';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectTenant, createCloudTestContext, type CloudTestContext } from '../../../test/azure-emulator';
import { bearer, createUser, logIn, type TestUser } from '../../../test/helper';
import { RecommendationsAnalysis } from './recommendations.analysis';
import { RecommendationsRepository } from './recommendations.repository';
import { hourMs, dayMs } from '../../lib/time';

const gib = 1024 ** 3;
const clockMs = Math.floor(Date.now() / hourMs) * hourMs - 10 * 60_000;
const readClock = () => new Date(clockMs);
const daysAgo = (days: number) => new Date(clockMs - days * dayMs).toISOString();

interface SeededResource {
  name: string;
  type: string;
  sku: string;
  details?: Record<string, unknown>;
  tags?: Record<string, string>;
  stateSince?: string | null;
  powerState?: string;
}

describe('recommendations: waste beyond VMs', () => {
  let context: CloudTestContext;
  let user: TestUser;
  let token: string;
  let tenantId: string;
  let analysis: RecommendationsAnalysis;
  let armIds: Map<string, string>;
  let vmArmId: string;

  beforeAll(async () => {
    context = await createCloudTestContext({ now: readClock, emulator: { fleetSize: 12, now: readClock } });
    user = await createUser(context);
    token = await logIn(context, user);
    tenantId = await connectTenant(context, user.teamId);
    await context.container.inventory.syncTenant(tenantId);
    const db = context.container.database.db;
    analysis = new RecommendationsAnalysis(
      new RecommendationsRepository(db),
      context.container.pricing,
      { loadWastePriceBook: async () => fixturePrices },
      context.container.activity,
      context.container.automation.service,
      readClock,
    );
    const [vm] = (
      await db.execute<{ armId: string; subscriptionId: string; region: string }>(sql`
        select arm_id as "armId", subscription_id as "subscriptionId", region from resource
        where tenant_id = ${tenantId}::uuid and type = 'Microsoft.Compute/virtualMachines' and sku is not null
        order by name limit 1`)
    ).rows;
    vmArmId = vm!.armId;
    // The VM whose Premium disk is checked has been deallocated for 40 days.
    await db.execute(sql`
      update resource set power_state = 'deallocated', state_since = ${daysAgo(40)}::timestamptz
      where lower(arm_id) = ${vmArmId.toLowerCase()}`);
    const seeded: SeededResource[] = [
      {
        name: 'data-old',
        type: 'Microsoft.Compute/disks',
        sku: 'Premium_LRS',
        details: { diskState: 'Unattached', diskSizeGb: 128 },
        stateSince: daysAgo(20),
      },
      {
        name: 'data-aks',
        type: 'Microsoft.Compute/disks',
        sku: 'Premium_LRS',
        details: { diskState: 'Unattached', diskSizeGb: 128 },
        tags: { 'kubernetes.io-created-for-pvc-name': 'data-postgres-0' },
        stateSince: daysAgo(20),
      },
      {
        name: 'data-new',
        type: 'Microsoft.Compute/disks',
        sku: 'Premium_LRS',
        details: { diskState: 'Unattached', diskSizeGb: 128 },
        stateSince: daysAgo(2),
      },
      {
        name: 'data-parked',
        type: 'Microsoft.Compute/disks',
        sku: 'Premium_LRS',
        details: { diskState: 'Reserved', diskSizeGb: 128, managedBy: vmArmId },
        stateSince: daysAgo(40),
      },
      {
        name: 'pip-free',
        type: 'Microsoft.Network/publicIPAddresses',
        sku: 'Standard',
        details: { ipAddress: '20.1.2.3', allocationMethod: 'Static' },
        stateSince: daysAgo(10),
      },
      {
        name: 'pip-used',
        type: 'Microsoft.Network/publicIPAddresses',
        sku: 'Standard',
        details: {
          ipAddress: '20.1.2.4',
          allocationMethod: 'Static',
          ipConfigurationId: `${vmArmId}/nic/ipconfig1`,
        },
        stateSince: daysAgo(10),
      },
      {
        name: 'plan-empty',
        type: 'Microsoft.Web/serverfarms',
        sku: 'P1v3',
        details: { tier: 'PremiumV3', capacity: 1, numberOfSites: 0, kind: 'linux' },
        stateSince: daysAgo(30),
      },
      {
        name: 'plan-quiet',
        type: 'Microsoft.Web/serverfarms',
        sku: 'P2v3',
        details: { tier: 'PremiumV3', capacity: 2, numberOfSites: 3, kind: 'linux' },
      },
      {
        name: 'orders',
        type: 'Microsoft.Sql/servers/databases',
        sku: 'S3',
        details: { tier: 'Standard', capacity: 100, maxSizeBytes: 250 * gib, serverName: 'sql-1' },
      },
    ];
    armIds = new Map();
    for (const resource of seeded) {
      const armId = `/subscriptions/00000000-0000-0000-0000-00000000beef/resourceGroups/rg-waste/providers/${resource.type}/${resource.name}`;
      armIds.set(resource.name, armId);
      await db.execute(sql`
        insert into resource (tenant_id, subscription_id, arm_id, name, type, category, subcategory, resource_group,
                              region, sku, power_state, details, tags, state_since)
        values (${tenantId}::uuid, ${vm!.subscriptionId}::uuid, ${armId}, ${resource.name}, ${resource.type},
                'Waste', 'Waste', 'rg-waste', ${vm!.region}, ${resource.sku}, ${resource.powerState ?? null},
                ${JSON.stringify(resource.details ?? {})}::jsonb, ${JSON.stringify(resource.tags ?? {})}::jsonb,
                ${resource.stateSince ?? null}::timestamptz)`);
    }
    // Ten days of use: the quiet plan at 20% CPU and 30% memory, the database at 12% DTU and 40 GiB.
    await seedUsage('plan-quiet', { CpuPercentage: 20, MemoryPercentage: 30 });
    await seedUsage('orders', { dtu_consumption_percent: 12, storage: 40 * gib });
  }, 120_000);
  afterAll(() => context.close());

  async function seedUsage(name: string, values: Record<string, number>): Promise<void> {
    const db = context.container.database.db;
    for (const [metric, value] of Object.entries(values)) {
      const packed = Buffer.alloc(96);
      for (let hour = 0; hour < 24; hour += 1) packed.writeFloatBE(value, hour * 4);
      const base64 = packed.toString('base64');
      await db.execute(sql`
        with inserted as (
          insert into metric (resource_id, name, unit, last_collected_at)
          select id, ${metric}, 'Percent', ${readClock().toISOString()}::timestamptz from resource
          where tenant_id = ${tenantId}::uuid and name = ${name}
          returning id
        )
        insert into metric_day (metric_id, day, averages, maximums, p95s, minimums)
        select inserted.id, day::date, decode(${base64}, 'base64'), decode(${base64}, 'base64'),
               decode(${base64}, 'base64'), decode(${base64}, 'base64')
        from inserted, generate_series(${daysAgo(10)}::date, ${daysAgo(1)}::date, interval '1 day') as day`);
    }
  }

  async function listOpen(): Promise<
    Map<string, { id: number; kind: string; status: string; target: string | null }>
  > {
    const rows = await context.container.database.db.execute<{
      name: string;
      id: number;
      kind: string;
      status: string;
      target: string | null;
    }>(sql`
      select resource.name, recommendation.id::int as id, recommendation.kind, recommendation.status,
             recommendation.target_size as target
      from recommendation join resource on resource.id = recommendation.resource_id
      where recommendation.tenant_id = ${tenantId}::uuid and recommendation.status = 'open'`);
    return new Map(rows.rows.map((row) => [row.name, row]));
  }

  async function markDue(): Promise<void> {
    await context.container.database.db.execute(sql`
      update resource set analysed_until = null where tenant_id = ${tenantId}::uuid`);
  }

  const get = (url: string) => context.app.inject({ method: 'GET', url, headers: bearer(token) });

  it('recommends each kind of waste found, and nothing for what is managed elsewhere, too recent or in use', async () => {
    const summary = await analysis.analyseTenant(tenantId);
    // Six seeded here, beside whatever the emulator's small fleet leaves unused.
    expect(summary!.wasteNewCount).toBeGreaterThanOrEqual(6);
    const open = await listOpen();
    expect(Object.fromEntries([...open].map(([name, row]) => [name, [row.kind, row.target]]))).toMatchObject({
      'data-old': ['deleteDisk', null],
      'data-parked': ['diskTier', 'Standard_LRS'],
      'pip-free': ['deletePublicIp', null],
      'plan-empty': ['deletePlan', null],
      'plan-quiet': ['planTier', 'P1v3'],
      orders: ['databaseObjective', 'S1'],
    });
    for (const name of ['data-aks', 'data-new', 'pip-used']) expect(open.has(name), name).toBe(false);

    // Listed with the VMs' recommendations, with SPEC's fields and the saving each Memo explains.
    const listed = recommendationsResponseSchema.parse((await get('/api/v1/log/recommendation')).json()).Data;
    const disk = listed.find((item) => item.FriendlyName === 'data-old')!;
    expect(disk).toMatchObject({
      ResourceId: armIds.get('data-old'),
      PredictionMethod: 'waste-rule',
      Recommendation:
        'Delete the unattached disk data-old (Premium_LRS P10, 128 GiB) after taking a snapshot of it.',
      AnnualCostSavings: 159.72,
    });
    expect(disk.Memo).toContain('An incremental snapshot of it is taken first');
    expect(listed.find((item) => item.FriendlyName === 'orders')!.AnnualCostSavings).toBe(1401.6);
    const texts = (await context.container.activity.listEntries(user.teamId, 0)).map(
      (entry) => entry.LogText,
    );
    expect(texts).toContainEqual(
      expect.stringMatching(
        new RegExp(`: ${summary!.wasteNewCount} new recommendations, \\$[\\d,]+\\.\\d{2} a year on offer$`),
      ),
    );

    // A resource's LOGS modal shows its own.
    const ofDisk = recommendationsResponseSchema.parse(
      (
        await get(`/api/v1/log/recommendation?resourceId=${encodeURIComponent(armIds.get('data-old')!)}`)
      ).json(),
    ).Data;
    expect(ofDisk.map((item) => item.Id)).toEqual([disk.Id]);
  });

  it('keeps the same conclusions, judges waste once an hour, and withdraws what is no longer waste', async () => {
    const before = await listOpen();
    // Within the hour only the stopped VMs (and those with a deallocation on offer) are judged again.
    const stopped = await context.container.database.db.execute<{ count: number }>(sql`
      select count(*)::int as count from resource
      where tenant_id = ${tenantId}::uuid and type = 'Microsoft.Compute/virtualMachines'
        and (power_state = 'stopped' or exists (select 1 from recommendation where resource_id = resource.id
                                                and status = 'open' and kind = 'deallocate'))`);
    expect(await analysis.analyseTenant(tenantId)).toMatchObject({
      wasteJudgedCount: stopped.rows[0]!.count,
    });
    await markDue();
    expect(await analysis.analyseTenant(tenantId)).toMatchObject({ wasteNewCount: 0 });
    const after = await listOpen();
    for (const name of ['data-old', 'pip-free', 'plan-quiet', 'orders']) {
      expect(after.get(name)!.id, name).toBe(before.get(name)!.id);
    }

    const db = context.container.database.db;
    // The disk was attached, the IP associated, the plan got an app; the database is set to No Change.
    await db.execute(sql`
      update resource set details = details || jsonb_build_object('diskState', 'Attached', 'managedBy', ${vmArmId}::text)
      where tenant_id = ${tenantId}::uuid and name = 'data-old'`);
    await db.execute(sql`
      update resource set details = details || '{"ipConfigurationId": "/x/ipconfig1"}'::jsonb
      where tenant_id = ${tenantId}::uuid and name = 'pip-free'`);
    await db.execute(sql`
      update resource set details = details || '{"numberOfSites": 1}'::jsonb
      where tenant_id = ${tenantId}::uuid and name = 'plan-empty'`);
    await db.execute(
      sql`update resource set automated = 2 where tenant_id = ${tenantId}::uuid and name = 'orders'`,
    );
    await markDue();
    await analysis.analyseTenant(tenantId);
    const withdrawn = await listOpen();
    for (const name of ['pip-free', 'plan-empty', 'orders']) expect(withdrawn.has(name), name).toBe(false);
    // Attached to a VM deallocated for 40 days, the Premium disk now gets a tier change instead.
    expect(withdrawn.get('data-old')).toMatchObject({ kind: 'diskTier', target: 'Standard_LRS' });
    const history = await db.execute<{ status: string }>(sql`
      select recommendation.status from recommendation join resource on resource.id = recommendation.resource_id
      where resource.tenant_id = ${tenantId}::uuid and resource.name = 'pip-free'`);
    expect(history.rows.map((row) => row.status)).toEqual(['superseded']);
  });

  it('proposes deallocating a VM stopped from its guest, and withdraws it once the VM is deallocated', async () => {
    const db = context.container.database.db;
    const [vm] = (
      await db.execute<{ id: string; name: string }>(sql`
        select id, name from resource
        where tenant_id = ${tenantId}::uuid and type = 'Microsoft.Compute/virtualMachines' and sku is not null
          and lower(arm_id) <> ${vmArmId.toLowerCase()}
        order by name limit 1`)
    ).rows;
    await db.execute(sql`
      update resource set power_state = 'stopped', state_since = ${daysAgo(3)}::timestamptz where id = ${vm!.id}::uuid`);
    await analysis.analyseTenant(tenantId);
    const open = await listOpen();
    expect(open.get(vm!.name)).toMatchObject({ kind: 'deallocate' });
    const listed = recommendationsResponseSchema.parse((await get('/api/v1/log/recommendation')).json()).Data;
    const deallocate = listed.find(
      (item) => item.FriendlyName === vm!.name && item.Recommendation.startsWith('Deallocate'),
    )!;
    expect(deallocate.Recommendation).toBe(
      `Deallocate ${vm!.name}: it is stopped but still billed for its compute.`,
    );
    expect(deallocate.AnnualCostSavings).toBeGreaterThan(0);

    await db.execute(sql`update resource set power_state = 'deallocated' where id = ${vm!.id}::uuid`);
    await analysis.analyseTenant(tenantId);
    const kinds = (
      await db.execute<{ kind: string }>(sql`
        select kind from recommendation where resource_id = ${vm!.id}::uuid and status = 'open'`)
    ).rows.map((row) => row.kind);
    expect(kinds).not.toContain('deallocate');
  });
});
