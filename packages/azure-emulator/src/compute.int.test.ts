import { ComputeManagementClient } from '@azure/arm-compute';
import { MonitorClient } from '@azure/arm-monitor';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readWriteCount } from './emulator.stats';
import type { VirtualMachineRecord } from './fleet/fleet.model';
import { startTestEmulator, type TestEmulator } from './testing/emulator.fixture';

const minuteMs = 60_000;
// A Wednesday: business-hours workloads are busy in the morning, US time.
const resizeInstant = Date.UTC(2026, 10, 18, 15, 0);

describe('Compute through @azure/arm-compute', () => {
  let kit: TestEmulator;
  let clockMs = resizeInstant;
  let subscriptionId: string;
  let compute: ComputeManagementClient;

  function pickRunningMachine(predicate: (machine: VirtualMachineRecord) => boolean): VirtualMachineRecord {
    const machine = kit.emulator.fleet.virtualMachines.find(
      (candidate) =>
        candidate.subscriptionId === subscriptionId &&
        candidate.powerHistory[0]?.state === 'running' &&
        candidate.sizeHistory.length === 1 &&
        predicate(candidate),
    );
    if (!machine) throw new Error('The fleet has a fitting machine');
    return machine;
  }

  beforeAll(async () => {
    kit = await startTestEmulator({ now: () => new Date(clockMs) });
    subscriptionId = kit.emulator.tenants[0]?.subscriptions[0]?.subscriptionId ?? '';
    compute = new ComputeManagementClient(kit.createCredential(0, 0), subscriptionId, kit.armOptions);
  });

  afterAll(async () => {
    await kit.stop();
  });

  it('resizes through the long-running operation the SDK poller follows to Succeeded', async () => {
    const machine = pickRunningMachine((candidate) => candidate.location === 'eastus');
    const updated = await compute.virtualMachines.beginUpdateAndWait(
      machine.resourceGroupName,
      machine.name,
      {
        hardwareProfile: { vmSize: 'Standard_E4s_v5' },
      },
    );
    expect(updated.hardwareProfile?.vmSize).toBe('Standard_E4s_v5');
    expect(updated.provisioningState).toBe('Succeeded');
    const fetched = await compute.virtualMachines.get(machine.resourceGroupName, machine.name);
    expect(fetched.hardwareProfile?.vmSize).toBe('Standard_E4s_v5');
  });

  it('refuses a size the region does not offer with 409 SkuNotAvailable, and an unknown size with 400', async () => {
    const machine = pickRunningMachine((candidate) => candidate.location === 'westus2');
    await expect(
      compute.virtualMachines.beginUpdateAndWait(machine.resourceGroupName, machine.name, {
        hardwareProfile: { vmSize: 'Standard_B20ms' },
      }),
    ).rejects.toMatchObject({ statusCode: 409, code: 'SkuNotAvailable' });
    await expect(
      compute.virtualMachines.beginUpdateAndWait(machine.resourceGroupName, machine.name, {
        hardwareProfile: { vmSize: 'Standard_Z9' },
      }),
    ).rejects.toMatchObject({ statusCode: 400, code: 'InvalidParameter' });
  });

  it('deallocates, starts and powers off as long-running operations reflected in the instance view', async () => {
    const machine = pickRunningMachine((candidate) => candidate.name.startsWith('web'));
    const readPowerState = async () =>
      (await compute.virtualMachines.instanceView(machine.resourceGroupName, machine.name)).statuses?.find(
        (status) => status.code?.startsWith('PowerState/'),
      )?.code;
    await compute.virtualMachines.beginDeallocateAndWait(machine.resourceGroupName, machine.name);
    expect(await readPowerState()).toBe('PowerState/deallocated');
    await compute.virtualMachines.beginStartAndWait(machine.resourceGroupName, machine.name);
    expect(await readPowerState()).toBe('PowerState/running');
    await compute.virtualMachines.beginPowerOffAndWait(machine.resourceGroupName, machine.name);
    expect(await readPowerState()).toBe('PowerState/stopped');
  });

  it('shows a VM stopped from the guest as PowerState/stopped, and deallocates it from there', async () => {
    const machine = kit.emulator.fleet.virtualMachines.find(
      (candidate) => candidate.powerHistory.at(-1)?.state === 'stopped',
    );
    if (!machine) throw new Error('The fleet has a stopped machine');
    const stoppedCompute = new ComputeManagementClient(
      kit.createCredential(0, 0),
      machine.subscriptionId,
      kit.armOptions,
    );
    const readPowerState = async () =>
      (
        await stoppedCompute.virtualMachines.instanceView(machine.resourceGroupName, machine.name)
      ).statuses?.find((status) => status.code?.startsWith('PowerState/'))?.code;
    expect(await readPowerState()).toBe('PowerState/stopped');
    kit.emulator.resetStats();
    await stoppedCompute.virtualMachines.beginDeallocateAndWait(machine.resourceGroupName, machine.name);
    expect(await readPowerState()).toBe('PowerState/deallocated');
    expect(readWriteCount(kit.emulator.stats, machine.id)).toBe(1);
  });

  it('lists resource SKUs per region with the capabilities a right-sizer reads', async () => {
    const skus = [];
    for await (const sku of compute.resourceSkus.list({ filter: "location eq 'westeurope'" })) skus.push(sku);
    const names = skus.map((sku) => sku.name);
    expect(names).toContain('Standard_D4s_v5');
    expect(names).not.toContain('Standard_F64s_v2');
    expect(skus.every((sku) => sku.locations?.[0] === 'westeurope')).toBe(true);
    const d4 = skus.find((sku) => sku.name === 'Standard_D4s_v5');
    const capability = (name: string) => d4?.capabilities?.find((entry) => entry.name === name)?.value;
    expect(d4).toMatchObject({ tier: 'Standard', size: 'D4s_v5', family: 'standardDSv5Family' });
    expect([
      capability('vCPUs'),
      capability('MemoryGB'),
      capability('PremiumIO'),
      capability('AcceleratedNetworkingEnabled'),
    ]).toEqual(['4', '16', 'True', 'True']);
  });

  it('shows demand over the new capacity in the minutes after a resize', async () => {
    const machine = pickRunningMachine(
      (candidate) => candidate.workload.kind === 'idle' && candidate.sizeHistory[0]!.size.vcpus >= 4,
    );
    const oldSize = machine.sizeHistory[0]!.size;
    clockMs = resizeInstant;
    await compute.virtualMachines.beginUpdateAndWait(machine.resourceGroupName, machine.name, {
      hardwareProfile: { vmSize: 'Standard_B1ms' },
    });
    clockMs = resizeInstant + 30 * minuteMs;
    const monitor = new MonitorClient(kit.createCredential(0, 0), subscriptionId, kit.armOptions);
    const start = new Date(resizeInstant - 30 * minuteMs).toISOString();
    const end = new Date(resizeInstant + 30 * minuteMs).toISOString();
    const answer = await monitor.metrics.list(machine.id, {
      metricnames: 'Percentage CPU',
      timespan: `${start}/${end}`,
      interval: 'PT1M',
      aggregation: 'Average',
    });
    const points = answer.value[0]?.timeseries?.[0]?.data ?? [];
    expect(points).toHaveLength(60);
    for (const point of points) {
      const demand = kit.emulator.fleet.demandAt(machine.id, point.timeStamp);
      const vcpus = point.timeStamp.getTime() < resizeInstant ? oldSize.vcpus : 1;
      expect(point.average).toBeCloseTo(Math.min(100, (demand.cpuCores / vcpus) * 100), 3);
    }
    const before = points.slice(0, 30).reduce((sum, point) => sum + (point.average ?? 0), 0) / 30;
    const after = points.slice(30).reduce((sum, point) => sum + (point.average ?? 0), 0) / 30;
    expect(after).toBeGreaterThan(before * 2);
  });
});
