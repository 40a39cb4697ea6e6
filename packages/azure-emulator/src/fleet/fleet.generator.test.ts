import { describe, expect, it } from 'vitest';
import { generateFleet } from './fleet.generator';
import { findVirtualMachineSize } from '../catalog/sku.catalog';

describe('generateFleet', () => {
  it('gives the same estate for the same seed, ids and secrets included', () => {
    const nowMs = Date.UTC(2026, 10, 20);
    const first = generateFleet({ seed: 42, fleetSize: 120, nowMs });
    const second = generateFleet({ seed: 42, fleetSize: 120, nowMs });
    expect(second.tenants).toEqual(first.tenants);
    const describeWaste = (fleet: typeof first) => [
      fleet.managedDisks.map((disk) => [
        disk.id,
        disk.sku,
        disk.sizeGiB,
        disk.lastOwnershipUpdateMs,
        disk.tags,
      ]),
      fleet.publicIpAddresses.map((address) => [
        address.id,
        address.sku,
        address.ipAddress,
        address.ipConfigurationId,
      ]),
      fleet.appServicePlans.map((plan) => [plan.id, plan.numberOfSites]),
    ];
    expect(describeWaste(second)).toEqual(describeWaste(first));
    expect(second.virtualMachines.map((machine) => [machine.id, machine.workload])).toEqual(
      first.virtualMachines.map((machine) => [machine.id, machine.workload]),
    );
    const other = generateFleet({ seed: 43, fleetSize: 120 });
    expect(other.tenants[0]?.tenantId).not.toBe(first.tenants[0]?.tenantId);
  });

  it('lays out two tenants with read-write, reader and no-access principals', () => {
    const fleet = generateFleet({ seed: 1, fleetSize: 60 });
    expect(fleet.tenants.map((tenant) => [tenant.displayName, tenant.subscriptions.length])).toEqual([
      ['Contoso', 2],
      ['Fabrikam', 1],
    ]);
    const [contoso, fabrikam] = fleet.tenants;
    expect(contoso?.principals[0]?.writeSubscriptionIds).toHaveLength(2);
    expect(contoso?.principals[1]?.readSubscriptionIds).toEqual([]);
    expect(fabrikam?.principals[1]?.readSubscriptionIds).toHaveLength(1);
    expect(fabrikam?.principals[1]?.writeSubscriptionIds).toEqual([]);
  });

  it('names machines like a real estate and spreads them over families, regions and workloads', () => {
    const fleet = generateFleet({ seed: 42, fleetSize: 60 });
    expect(fleet.virtualMachines).toHaveLength(60);
    for (const machine of fleet.virtualMachines)
      expect(machine.name).toMatch(/^[a-z]+-(prod|dev)-(eus|wus2|weu|neu)-\d{3}$/);
    const families = new Set(fleet.virtualMachines.map((machine) => machine.sizeHistory[0]?.size.series));
    expect([...families].sort()).toEqual(['B', 'Dsv5', 'Esv5', 'Fsv2']);
    expect(new Set(fleet.virtualMachines.map((machine) => machine.location)).size).toBeGreaterThanOrEqual(3);
    expect(new Set(fleet.virtualMachines.map((machine) => machine.workload.kind)).size).toBe(6);
    expect(fleet.appServicePlans.length).toBeGreaterThan(0);
    expect(fleet.sqlDatabases.length).toBeGreaterThan(0);
  });

  // How fast it builds is bench/'s to measure (a timed assertion fails on a loaded machine).
  it('builds a 10,000-machine fleet with an id for each', () => {
    const fleet = generateFleet({ seed: 3, fleetSize: 10_000 });
    expect(fleet.virtualMachines).toHaveLength(10_000);
    expect(new Set(fleet.virtualMachines.map((machine) => machine.id.toLowerCase())).size).toBe(10_000);
  });

  it('bases CPU use on the size in force at each minute', () => {
    const fleet = generateFleet({ seed: 5, fleetSize: 30 });
    const machine = fleet.virtualMachines.find((candidate) => candidate.powerHistory[0]?.state === 'running');
    const smaller = findVirtualMachineSize('Standard_B1ms');
    if (!machine || !smaller) throw new Error('The fleet has a running machine');
    const changeMs = Date.UTC(2026, 10, 18, 12, 0);
    fleet.recordResize(machine, smaller, changeMs);
    const before = new Date(changeMs - 60_000);
    const after = new Date(changeMs + 60_000);
    const originalVcpus = machine.sizeHistory[0]?.size.vcpus ?? 1;
    expect(fleet.cpuPercentAt(machine.id, before)).toBeCloseTo(
      Math.min(100, (fleet.demandAt(machine.id, before).cpuCores / originalVcpus) * 100),
      6,
    );
    expect(fleet.cpuPercentAt(machine.id, after)).toBeCloseTo(
      Math.min(100, fleet.demandAt(machine.id, after).cpuCores * 100),
      6,
    );
    expect(fleet.sizeAt(machine.id, after)).toBe('Standard_B1ms');
    fleet.recordPowerState(machine, 'deallocated', changeMs + 120_000);
    expect(fleet.cpuPercentAt(machine.id, new Date(changeMs + 180_000))).toBeUndefined();
    expect(fleet.demandAt(machine.id, new Date(changeMs + 180_000)).cpuCores).toBeGreaterThan(0);
  });

  it('has a realistic share of waste: stopped VMs, unattached disks, idle public IPs, empty plans', () => {
    const nowMs = Date.UTC(2026, 10, 20);
    const fleet = generateFleet({ seed: 42, fleetSize: 2_000, nowMs });
    const share = <Item>(items: readonly Item[], predicate: (item: Item) => boolean) =>
      items.filter(predicate).length / items.length;
    expect(
      share(fleet.virtualMachines, (machine) => machine.powerHistory[0]?.state === 'stopped'),
    ).toBeGreaterThan(0.015);
    expect(
      share(fleet.virtualMachines, (machine) => machine.powerHistory[0]?.state === 'stopped'),
    ).toBeLessThan(0.035);

    const unattached = fleet.managedDisks.filter((disk) => !disk.machine);
    expect(unattached.length / fleet.managedDisks.length).toBeGreaterThan(0.01);
    expect(unattached.length / fleet.managedDisks.length).toBeLessThan(0.06);
    const isAks = (disk: (typeof unattached)[number]) => 'kubernetes.io-created-for-pvc-name' in disk.tags;
    expect(share(unattached, isAks)).toBeGreaterThan(0.1);
    expect(share(unattached, isAks)).toBeLessThan(0.4);
    const ages = unattached.map((disk) => (nowMs - disk.lastOwnershipUpdateMs) / 86_400_000);
    expect(Math.min(...ages)).toBeLessThan(7);
    expect(Math.max(...ages)).toBeGreaterThan(60);
    // Attached disks follow their VM: an OS disk each, data disks as the VM's hardware says.
    expect(fleet.managedDisks.filter((disk) => disk.machine && disk.osType).length).toBe(2_000);

    const idle = fleet.publicIpAddresses.filter((address) => !address.ipConfigurationId);
    expect(idle.length).toBeGreaterThan(0);
    expect(idle.length / fleet.publicIpAddresses.length).toBeLessThan(0.15);
    expect(share(fleet.appServicePlans, (plan) => plan.numberOfSites === 0)).toBeGreaterThan(0.02);
    expect(share(fleet.appServicePlans, (plan) => plan.numberOfSites === 0)).toBeLessThan(0.25);
    for (const plan of fleet.appServicePlans) {
      expect(fleet.webSites.filter((site) => site.plan === plan)).toHaveLength(plan.numberOfSites);
    }
  });

  it('stops one VM of the first subscription from inside its guest days before the clock, logged nowhere', () => {
    const nowMs = Date.UTC(2026, 10, 20);
    const fleet = generateFleet({ seed: 42, fleetSize: 60, nowMs });
    const first = fleet.tenants[0]!.subscriptions[0]!.subscriptionId;
    const stopped = fleet.virtualMachines.filter(
      (machine) => machine.subscriptionId === first && machine.powerHistory.at(-1)?.origin === 'guest',
    );
    expect(stopped).toHaveLength(1);
    expect(stopped[0]!.powerHistory.at(-1)).toMatchObject({ state: 'stopped' });
    const stoppedMs = stopped[0]!.powerHistory.at(-1)!.fromMinute * 60_000;
    expect(nowMs - stoppedMs).toBeGreaterThan(3 * 86_400_000);
    expect(fleet.cpuPercentAt(stopped[0]!.id, new Date(stoppedMs - 60_000))).toBeDefined();
    expect(fleet.cpuPercentAt(stopped[0]!.id, new Date(stoppedMs))).toBeUndefined();
  });

  it('adds numbered tenants of one subscription each, sharing the fleet equally, the named two unchanged by default', () => {
    const nowMs = Date.UTC(2026, 10, 20);
    const fleet = generateFleet({ seed: 42, fleetSize: 2_000, nowMs, tenantCount: 20 });
    expect(fleet.tenants).toHaveLength(20);
    expect(new Set(fleet.tenants.map((tenant) => tenant.tenantId)).size).toBe(20);
    expect(fleet.virtualMachines).toHaveLength(2_000);
    const numbered = fleet.tenants.slice(2);
    for (const tenant of numbered) {
      expect(tenant.subscriptions).toHaveLength(1);
      expect(tenant.principals[0]!.writeSubscriptionIds).toEqual([tenant.subscriptions[0]!.subscriptionId]);
      const machines = fleet.virtualMachines.filter(
        (machine) => machine.subscriptionId === tenant.subscriptions[0]!.subscriptionId,
      );
      expect(machines).toHaveLength(100);
    }
    expect(generateFleet({ seed: 42, fleetSize: 120, nowMs, tenantCount: 2 }).tenants).toEqual(
      generateFleet({ seed: 42, fleetSize: 120, nowMs }).tenants,
    );
  });
});
