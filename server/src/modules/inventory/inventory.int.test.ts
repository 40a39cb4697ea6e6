import { readMachineHardware, readOsDiskVhd } from '@cloudtrim/azure-emulator/arm/arm.views';
import { generateFleet } from '@cloudtrim/azure-emulator/fleet/fleet.generator';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectTenant, createCloudTestContext, type CloudTestContext } from '../../../test/azure-emulator';
import { createUser, type TestUser } from '../../../test/helper';
import { SecretBox } from '../../lib/secret-box';

interface ResourceRow {
  arm_id: string;
  name: string;
  type: string;
  category: string;
  subcategory: string;
  resource_group: string;
  region: string;
  sku: string | null;
  power_state: string | null;
  automated: number;
  active_hours_start: number | null;
  active_hours_end: number | null;
  details: Record<string, unknown>;
  state_since: string | null;
  last_read: string | null;
}

const timeOf = (value: string | Date | null | undefined) => (value ? new Date(value).getTime() : null);

// Everything the emulator lists for a subscription (what Azure's generic list holds).
function listFleetResources(fleet: CloudTestContext['emulator']['fleet']) {
  return [
    ...fleet.virtualMachines,
    ...fleet.appServicePlans,
    ...fleet.webSites,
    ...fleet.sqlServers,
    ...fleet.sqlDatabases,
    ...fleet.managedDisks,
    ...fleet.publicIpAddresses,
  ];
}

async function readResources(context: CloudTestContext, tenantId: string): Promise<ResourceRow[]> {
  const result = await context.container.database.db.execute<{
    [Key in keyof ResourceRow]: ResourceRow[Key];
  }>(sql`
    select arm_id, name, type, category, subcategory, resource_group, region, sku, power_state, automated,
           active_hours_start, active_hours_end, details, state_since, last_read
    from resource where tenant_id = ${tenantId}::uuid order by arm_id`);
  return result.rows;
}

async function readLogTexts(context: CloudTestContext, teamId: string): Promise<string[]> {
  const entries = await context.container.activity.listEntries(teamId, 0);
  return entries.map((entry) => entry.LogText ?? '');
}

describe('inventory sync', () => {
  let context: CloudTestContext;
  let user: TestUser;
  let tenantId: string;

  beforeAll(async () => {
    context = await createCloudTestContext({ emulator: { fleetSize: 20 } });
    user = await createUser(context);
    tenantId = await connectTenant(context, user.teamId);
  });
  afterAll(() => context.close());

  it('reads every subscription into resources with category, group, region, size and power state', async () => {
    const summary = await context.container.inventory.syncTenant(tenantId);
    expect(summary).toMatchObject({ subscriptionCount: 2, failures: [], removedCount: 0 });
    const { fleet } = context.emulator;
    const subscriptionIds = new Set(
      context.emulator.tenants[0]!.subscriptions.map((item) => item.subscriptionId),
    );
    const expected = listFleetResources(fleet)
      .filter((resource) => subscriptionIds.has(resource.subscriptionId))
      .map((resource) => resource.id)
      .sort();
    const rows = await readResources(context, tenantId);
    expect(rows.map((row) => row.arm_id)).toEqual(expected);
    expect(summary!.insertedCount).toBe(expected.length);

    const machines = fleet.summarizeVirtualMachines(new Date());
    for (const row of rows.filter((item) => item.type === 'Microsoft.Compute/virtualMachines')) {
      const machine = machines.find((candidate) => candidate.id === row.arm_id)!;
      expect(row).toMatchObject({
        category: 'Compute',
        subcategory: 'Virtual Machine',
        resource_group: machine.resourceGroupName,
        region: machine.location,
        sku: machine.size,
        power_state: machine.powerState,
      });
    }
    const categories = new Set(rows.map((row) => `${row.category} / ${row.subcategory}`));
    expect(categories).toEqual(
      new Set([
        'Compute / Virtual Machine',
        'Web / App Service Plan',
        'Web / App Service',
        'Databases / SQL Server',
        'Databases / SQL Database',
        'Storage / Managed Disk',
        'Networking / Public IP Address',
      ]),
    );
    const plan = rows.find((row) => row.type === 'Microsoft.Web/serverfarms')!;
    expect(plan.sku).toBe(fleet.appServicePlans.find((item) => item.id === plan.arm_id)!.sku.name);

    const texts = await readLogTexts(context, user.teamId);
    const production = context.emulator.tenants[0]!.subscriptions[0]!;
    const productionCount = rows.filter((row) => row.arm_id.includes(production.subscriptionId)).length;
    expect(texts).toContain(
      `Discovered ${productionCount} resources in subscription ${production.displayName} (${productionCount} new)`,
    );
  });

  it("stores each disk's, IP's, plan's and database's facts and since when it is in its state", async () => {
    const { fleet } = context.emulator;
    const rows = await readResources(context, tenantId);
    const byId = new Map(rows.map((row) => [row.arm_id, row]));
    let unattached = 0;
    for (const disk of fleet.managedDisks) {
      const row = byId.get(disk.id);
      if (!row) continue;
      expect(row.sku).toBe(disk.sku);
      expect(row.details).toMatchObject({ diskSizeGb: disk.sizeGiB });
      expect(row.details.managedBy).toBe(disk.machine?.id);
      if (!disk.machine) {
        unattached += 1;
        expect(row.details.diskState).toBe('Unattached');
      }
      // Azure's own time: the last attach or detach.
      expect(timeOf(row.state_since)).toBe(disk.lastOwnershipUpdateMs);
    }
    expect(unattached).toBeGreaterThan(0);
    for (const address of fleet.publicIpAddresses) {
      const row = byId.get(address.id);
      if (!row) continue;
      expect(row.details).toMatchObject({
        ipAddress: address.ipAddress,
        allocationMethod: address.allocationMethod,
      });
      expect(row.details.ipConfigurationId).toBe(address.ipConfigurationId);
      // An idle one the Activity Log's 90 days date: the write that detached it; otherwise Azure
      // gives no time: the first sync that saw it so.
      const detachedMs = address.ipConfigurationId ? undefined : address.unassociatedSinceMs;
      const isLogged = detachedMs !== undefined && detachedMs >= timeOf(row.last_read)! - 90 * 86_400_000;
      expect(timeOf(row.state_since)).toBe(isLogged ? detachedMs : timeOf(row.last_read));
    }
    for (const plan of fleet.appServicePlans) {
      const row = byId.get(plan.id);
      if (!row) continue;
      expect(row.details).toMatchObject({ numberOfSites: plan.numberOfSites, kind: plan.kind });
    }
    for (const database of fleet.sqlDatabases) {
      const row = byId.get(database.id);
      if (!row) continue;
      expect(row.sku).toBe(database.sku.serviceObjective);
      expect(row.details).toMatchObject({
        maxSizeBytes: database.maxSizeBytes,
        serverName: database.serverName,
      });
    }
    // A VM's power state dates from the first sync that saw it; a state kept keeps its date.
    const machine = rows.find((row) => row.type === 'Microsoft.Compute/virtualMachines')!;
    const syncedAt = machine.last_read;
    expect(timeOf(machine.state_since)).toBe(timeOf(syncedAt));
    await context.container.inventory.syncTenant(tenantId);
    const [again] = (await readResources(context, tenantId)).filter((row) => row.arm_id === machine.arm_id);
    expect(timeOf(again!.state_since)).toBe(timeOf(syncedAt));
  });

  it('gives every virtual machine, plan and database its metric rows', async () => {
    const result = await context.container.database.db.execute<{ type: string; names: string[] }>(sql`
      select resource.type, array_agg(distinct metric.name order by metric.name) as names
      from resource left join metric on metric.resource_id = resource.id
      where resource.tenant_id = ${tenantId}::uuid group by resource.type order by resource.type`);
    expect(Object.fromEntries(result.rows.map((row) => [row.type, row.names]))).toEqual({
      'Microsoft.Compute/virtualMachines': [
        'Available Memory Bytes',
        'Disk Read Operations/Sec',
        'Disk Write Operations/Sec',
        'Network In Total',
        'Network Out Total',
        'Percentage CPU',
      ],
      'Microsoft.Sql/servers': [null],
      'Microsoft.Compute/disks': [null],
      'Microsoft.Network/publicIPAddresses': [null],
      'Microsoft.Sql/servers/databases': [
        'cpu_percent',
        'dtu_consumption_percent',
        'storage',
        'storage_percent',
      ],
      'Microsoft.Web/serverfarms': ['CpuPercentage', 'MemoryPercentage'],
      'Microsoft.Web/sites': [null],
    });
  });

  it('records what sizing must respect for each virtual machine, as the emulator built it', async () => {
    const result = await context.container.database.db.execute<{
      arm_id: string;
      type: string;
      os_type: string | null;
      data_disk_count: number | null;
      nic_count: number | null;
      has_premium_disk: boolean | null;
      has_accelerated_networking: boolean | null;
    }>(sql`
      select arm_id, type, os_type, data_disk_count, nic_count, has_premium_disk, has_accelerated_networking
      from resource where tenant_id = ${tenantId}::uuid`);
    const machines = result.rows.filter((row) => row.type === 'Microsoft.Compute/virtualMachines');
    expect(machines.length).toBeGreaterThan(0);
    for (const row of machines) {
      const machine = context.emulator.fleet.requireVirtualMachine(row.arm_id);
      const hardware = readMachineHardware(machine);
      expect(row).toMatchObject({
        os_type: hardware.osType,
        data_disk_count: hardware.dataDiskTypes.length,
        nic_count: hardware.nicCount,
        // A VM on an unmanaged (VHD) OS disk does not say its storage type; sizing reads it as standard.
        has_premium_disk: readOsDiskVhd(context.emulator.fleet, machine)
          ? null
          : hardware.osDiskType === 'Premium_LRS',
        has_accelerated_networking: hardware.isAcceleratedNetworkingEnabled,
      });
    }
    for (const row of result.rows.filter((item) => item.type !== 'Microsoft.Compute/virtualMachines')) {
      expect(row).toMatchObject({
        os_type: null,
        data_disk_count: null,
        nic_count: null,
        has_premium_disk: null,
      });
    }
  });

  it('varies the requirements across a larger fleet: Windows, data disks, premium, accelerated networking', () => {
    const fleet = generateFleet({ fleetSize: 400, seed: 42 });
    const hardware = fleet.virtualMachines.map(readMachineHardware);
    const windowsShare = hardware.filter((item) => item.osType === 'Windows').length / hardware.length;
    expect(windowsShare).toBeGreaterThan(0.1);
    expect(windowsShare).toBeLessThan(0.3);
    expect(hardware.some((item) => item.dataDiskTypes.length >= 2)).toBe(true);
    expect(hardware.some((item) => item.osDiskType === 'StandardSSD_LRS')).toBe(true);
    expect(hardware.some((item) => item.isAcceleratedNetworkingEnabled)).toBe(true);
    expect(hardware.some((item) => !item.isAcceleratedNetworkingEnabled)).toBe(true);
    expect(hardware.some((item) => item.nicCount === 2)).toBe(true);
  });

  it("keeps a user's automation and active hours across syncs and follows a deallocated machine", async () => {
    const [machine] = (await readResources(context, tenantId)).filter(
      (row) => row.type === 'Microsoft.Compute/virtualMachines' && row.power_state === 'running',
    );
    await context.container.resources.saveCloudResource(user.teamId, [
      { ResourceId: machine!.arm_id, Automated: 1, ActiveHoursStart: 7, ActiveHoursEnd: 19 },
    ]);
    const record = context.emulator.fleet.requireVirtualMachine(machine!.arm_id);
    context.emulator.fleet.recordPowerState(record, 'deallocated', Date.now() - 120_000);

    const summary = await context.container.inventory.syncTenant(tenantId);
    expect(summary).toMatchObject({ insertedCount: 0, removedCount: 0, failures: [] });
    const after = (await readResources(context, tenantId)).find((row) => row.arm_id === machine!.arm_id)!;
    expect(after).toMatchObject({
      power_state: 'deallocated',
      automated: 1,
      active_hours_start: 7,
      active_hours_end: 19,
    });
  });

  it('removes resources that vanished from Azure, with their metrics, and logs each removal', async () => {
    const before = await readResources(context, tenantId);
    const smaller = await context.restartEmulator({ fleetSize: 12 });
    const summary = await context.container.inventory.syncTenant(tenantId);
    const after = await readResources(context, tenantId);
    const remaining = new Set(listFleetResources(smaller.fleet).map((resource) => resource.id));
    const vanished = before.filter((row) => !remaining.has(row.arm_id));
    expect(vanished.length).toBeGreaterThan(0);
    expect(summary).toMatchObject({ removedCount: vanished.length, failures: [] });
    expect(after).toHaveLength(before.length - vanished.length);
    const orphans = await context.container.database.db.execute(sql`
      select 1 from metric join resource on resource.id = metric.resource_id
      where resource.arm_id = any(${sql.param(vanished.map((row) => row.arm_id))}::text[])`);
    expect(orphans.rows).toHaveLength(0);

    const entries = await context.container.activity.listEntries(user.teamId, 0);
    for (const row of vanished) {
      expect(entries).toContainEqual(
        expect.objectContaining({
          ServiceName: 'Inventory',
          ResourceId: row.arm_id,
          LogText: `Resource removed: ${row.name}`,
        }),
      );
    }
  });
});

describe('tenant isolation and throttling', () => {
  let context: CloudTestContext;
  let user: TestUser;

  beforeAll(async () => {
    // A tiny read budget, refilled slower than even a loaded machine makes reads: Resource Manager
    // answers 429 with Retry-After long before a sync is done.
    context = await createCloudTestContext({
      emulator: { fleetSize: 10, throttleLimits: { readCapacity: 3, readRefillPerSecond: 1 } },
    });
    user = await createUser(context);
  });
  afterAll(() => context.close());

  it('waits out Retry-After: the sync and the collection complete despite 429s', async () => {
    const tenantId = await connectTenant(context, user.teamId);
    context.emulator.resetStats();
    const sync = await context.container.inventory.syncTenant(tenantId);
    const collection = await context.container.metrics.collectTenant(tenantId);
    expect(context.emulator.stats.throttled).toBeGreaterThan(0);
    expect(sync?.failures).toEqual([]);
    expect(collection).toMatchObject({ failedResourceCount: 0 });
    expect(collection!.pointCount).toBeGreaterThan(0);
    const [tenant] = await context.container.tenants.listTenants(user.teamId);
    expect(tenant).toMatchObject({ Status: 'OK', Healthy: 1 });
  });

  it("does not let one tenant's revoked secret stop another tenant's sync", async () => {
    const other = await createUser(context);
    const healthyId = await connectTenant(context, other.teamId, 1, 0);
    const revokedId = await connectTenant(context, user.teamId, 1, 0);
    // The secret was rotated in Azure after the tenant was added: what is stored no longer signs in
    // (an old secret, sealed for this tenant with the same key).
    const rotated = new SecretBox(context.secrets.encryptionKey).encrypt('rotated-away-secret', revokedId);
    await context.container.database.db.execute(sql`
      update tenant set encrypted_secret = ${rotated} where id = ${revokedId}::uuid`);

    const [revoked, healthy] = await Promise.all([
      context.container.inventory.syncTenant(revokedId),
      context.container.inventory.syncTenant(healthyId),
    ]);
    expect(revoked!.failures[0]).toMatch(/could not sign in \(invalid_client/);
    expect(healthy).toMatchObject({ failures: [], subscriptionCount: 1 });

    const revokedTenant = (await context.container.tenants.listTenants(user.teamId)).find(
      (tenant) => tenant.Id === revokedId,
    );
    expect(revokedTenant).toMatchObject({ Healthy: 0, LastSync: null });
    expect(revokedTenant!.Status).toMatch(/^Sync failed: /);
    expect((await context.container.tenants.listTenants(other.teamId))[0]).toMatchObject({
      Status: 'OK',
      Healthy: 1,
    });
    const texts = await readLogTexts(context, user.teamId);
    expect(texts.some((text) => text.startsWith('Sync failed: Listing subscriptions'))).toBe(true);
  });
});
