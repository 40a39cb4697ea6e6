import { ComputeManagementClient, type Disk } from '@azure/arm-compute';
import { ResourceManagementClient } from '@azure/arm-resources';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readWriteCount } from './emulator.stats';
import type { ManagedDiskRecord } from './fleet/fleet.model';
import { startTestEmulator, type TestEmulator } from './testing/emulator.fixture';

const dayMs = 86_400_000;
const startMs = Date.UTC(2026, 10, 18, 15, 0);

describe('Managed disks and snapshots through @azure/arm-compute', () => {
  let kit: TestEmulator;
  const clockMs = startMs;
  let subscriptionId: string;
  let compute: ComputeManagementClient;

  function pickDisk(predicate: (disk: ManagedDiskRecord) => boolean): ManagedDiskRecord {
    const disk = kit.emulator.fleet.managedDisks.find(
      (candidate) =>
        candidate.subscriptionId === subscriptionId &&
        candidate.deletedMs === undefined &&
        predicate(candidate),
    );
    if (!disk) throw new Error('The fleet has a fitting disk');
    return disk;
  }

  async function listDisks(): Promise<Disk[]> {
    const disks: Disk[] = [];
    for await (const disk of compute.disks.list()) disks.push(disk);
    return disks;
  }

  beforeAll(async () => {
    kit = await startTestEmulator({ now: () => new Date(clockMs), fleetSize: 120 });
    subscriptionId = kit.emulator.tenants[0]?.subscriptions[0]?.subscriptionId ?? '';
    compute = new ComputeManagementClient(kit.createCredential(0, 0), subscriptionId, kit.armOptions);
  });

  afterAll(async () => {
    await kit.stop();
  });

  it("lists every VM's OS and data disks, managed by their VM, and a few unattached ones", async () => {
    const disks = await listDisks();
    const machines = kit.emulator.fleet.virtualMachines.filter(
      (machine) => machine.subscriptionId === subscriptionId,
    );
    for (const machine of machines) {
      const view = await compute.virtualMachines.get(machine.resourceGroupName, machine.name);
      // The few VMs on an unmanaged OS disk (the security estate's) name a page blob instead.
      if (view.storageProfile?.osDisk?.vhd) {
        expect(view.storageProfile.osDisk.vhd.uri).toMatch(
          /^https:\/\/[a-z0-9]+\.blob\.core\.windows\.net\/vhds\//,
        );
        expect(view.storageProfile.osDisk.managedDisk).toBeUndefined();
        continue;
      }
      const osDiskId = view.storageProfile?.osDisk?.managedDisk?.id?.toLowerCase();
      const osDisk = disks.find((disk) => disk.id?.toLowerCase() === osDiskId);
      const state = machine.powerHistory[0]?.state;
      expect(osDisk).toMatchObject({
        managedBy: machine.id,
        diskState: state === 'deallocated' ? 'Reserved' : 'Attached',
        sku: { name: view.storageProfile?.osDisk?.managedDisk?.storageAccountType },
        osType: view.storageProfile?.osDisk?.osType,
        diskSizeGB: view.storageProfile?.osDisk?.diskSizeGB,
      });
      for (const dataDisk of view.storageProfile?.dataDisks ?? []) {
        const found = disks.find(
          (disk) => disk.id?.toLowerCase() === dataDisk.managedDisk?.id?.toLowerCase(),
        );
        expect(found?.managedBy).toBe(machine.id);
      }
    }
    const unattached = disks.filter((disk) => disk.diskState === 'Unattached');
    expect(unattached.length).toBeGreaterThan(0);
    expect(unattached.length / disks.length).toBeLessThan(0.1);
    expect(unattached.every((disk) => disk.managedBy === undefined)).toBe(true);
    expect(unattached.every((disk) => disk.lastOwnershipUpdateTime!.getTime() < clockMs)).toBe(true);
    const aks = unattached.filter((disk) => disk.tags?.['kubernetes.io-created-for-pvc-name']);
    expect(aks.length).toBeGreaterThan(0);
    expect(aks.every((disk) => disk.name?.startsWith('pvc-'))).toBe(true);
    const oldest = Math.min(...unattached.map((disk) => disk.lastOwnershipUpdateTime!.getTime()));
    expect(clockMs - oldest).toBeGreaterThan(7 * dayMs);

    const group = unattached[0]!.id!.split('/')[4]!;
    const inGroup: Disk[] = [];
    for await (const disk of compute.disks.listByResourceGroup(group)) inGroup.push(disk);
    expect(inGroup.map((disk) => disk.id)).toContain(unattached[0]!.id);
    expect(inGroup.every((disk) => disk.id?.split('/')[4] === group)).toBe(true);
  });

  it('shows disks and snapshots in the generic resource list', async () => {
    const resources = new ResourceManagementClient(
      kit.createCredential(0, 0),
      subscriptionId,
      kit.armOptions,
    );
    const disk = pickDisk((candidate) => candidate.machine === undefined);
    const listed = [];
    for await (const resource of resources.resources.list({
      filter: "resourceType eq 'Microsoft.Compute/disks'",
    })) {
      listed.push(resource);
    }
    expect(listed.find((resource) => resource.id === disk.id)).toMatchObject({
      sku: { name: disk.sku },
      type: 'Microsoft.Compute/disks',
    });
    await compute.snapshots.beginCreateOrUpdateAndWait(disk.resourceGroupName, `${disk.name}-listed`, {
      location: disk.location,
      creationData: { createOption: 'Copy', sourceResourceId: disk.id },
      incremental: true,
    });
    const snapshots = [];
    for await (const resource of resources.resources.listByResourceGroup(disk.resourceGroupName)) {
      if (resource.type === 'Microsoft.Compute/snapshots') snapshots.push(resource.name);
    }
    expect(snapshots).toContain(`${disk.name}-listed`);
  });

  it('changes the tier of a disk whose VM is deallocated, and refuses while its VM runs', async () => {
    const running = pickDisk(
      (disk) => disk.sku === 'Premium_LRS' && disk.machine?.powerHistory.at(-1)?.state === 'running',
    );
    kit.emulator.resetStats();
    await expect(
      compute.disks.beginUpdateAndWait(running.resourceGroupName, running.name, {
        sku: { name: 'Standard_LRS' },
      }),
    ).rejects.toMatchObject({ statusCode: 409, code: 'OperationNotAllowed' });
    expect(readWriteCount(kit.emulator.stats, running.id)).toBe(0);

    const machine = running.machine!;
    await compute.virtualMachines.beginDeallocateAndWait(machine.resourceGroupName, machine.name);
    expect((await compute.disks.get(running.resourceGroupName, running.name)).diskState).toBe('Reserved');
    const updated = await compute.disks.beginUpdateAndWait(running.resourceGroupName, running.name, {
      sku: { name: 'Standard_LRS' },
    });
    expect(updated.sku?.name).toBe('Standard_LRS');
    expect((await compute.disks.get(running.resourceGroupName, running.name)).sku?.name).toBe('Standard_LRS');
    const view = await compute.virtualMachines.get(machine.resourceGroupName, machine.name);
    const disks = [view.storageProfile?.osDisk, ...(view.storageProfile?.dataDisks ?? [])];
    expect(disks.find((disk) => disk?.name === running.name)?.managedDisk?.storageAccountType).toBe(
      'Standard_LRS',
    );
    expect(readWriteCount(kit.emulator.stats, running.id)).toBe(1);

    await expect(
      compute.disks.beginUpdateAndWait(running.resourceGroupName, running.name, {
        sku: { name: 'Ultra_Fast' as 'Standard_LRS' },
      }),
    ).rejects.toMatchObject({ statusCode: 400, code: 'InvalidParameter' });
  });

  it('refuses to delete an attached disk, and deletes an unattached one after an incremental snapshot', async () => {
    const attached = pickDisk((disk) => disk.machine !== undefined);
    await expect(
      compute.disks.beginDeleteAndWait(attached.resourceGroupName, attached.name),
    ).rejects.toMatchObject({ statusCode: 409, code: 'OperationNotAllowed' });

    const disk = pickDisk(
      (candidate) => candidate.machine === undefined && !candidate.name.startsWith('pvc-'),
    );
    kit.emulator.resetStats();
    const snapshotName = `${disk.name}-before-delete`;
    const snapshot = await compute.snapshots.beginCreateOrUpdateAndWait(
      disk.resourceGroupName,
      snapshotName,
      {
        location: disk.location,
        creationData: { createOption: 'Copy', sourceResourceId: disk.id },
        incremental: true,
      },
    );
    expect(snapshot).toMatchObject({
      provisioningState: 'Succeeded',
      incremental: true,
      diskSizeGB: disk.sizeGiB,
      creationData: { createOption: 'Copy', sourceResourceId: disk.id },
    });
    const fetched = await compute.snapshots.get(disk.resourceGroupName, snapshotName);
    expect(fetched.id).toBe(snapshot.id);

    await compute.disks.beginDeleteAndWait(disk.resourceGroupName, disk.name);
    await expect(compute.disks.get(disk.resourceGroupName, disk.name)).rejects.toMatchObject({
      statusCode: 404,
    });
    expect(readWriteCount(kit.emulator.stats, disk.id)).toBe(1);
    expect(readWriteCount(kit.emulator.stats, snapshot.id!)).toBe(1);
    // The snapshot outlives its disk.
    expect((await compute.snapshots.get(disk.resourceGroupName, snapshotName)).id).toBe(snapshot.id);

    await compute.snapshots.beginDeleteAndWait(disk.resourceGroupName, snapshotName);
    await expect(compute.snapshots.get(disk.resourceGroupName, snapshotName)).rejects.toMatchObject({
      statusCode: 404,
    });
    await expect(
      compute.snapshots.beginCreateOrUpdateAndWait(disk.resourceGroupName, 'from-nothing', {
        location: disk.location,
        creationData: { createOption: 'Copy', sourceResourceId: disk.id },
        incremental: true,
      }),
    ).rejects.toMatchObject({ statusCode: 404 });
  });

  it('serves the disk and snapshot meters of the Retail Prices API', async () => {
    const filter =
      "serviceName eq 'Storage' and armRegionName eq 'westeurope' and (meterName eq 'P10 LRS Disk' or meterName eq 'S10 LRS Disk' or meterName eq 'LRS Snapshots')";
    const answer = await kit.send('GET', `/api/retail/prices?$filter=${encodeURIComponent(filter)}`);
    const items = (
      answer.body as {
        Items: {
          productName: string;
          skuName: string;
          meterName: string;
          unitOfMeasure: string;
          retailPrice: number;
        }[];
      }
    ).Items;
    expect(
      items.map((item) => [item.productName, item.skuName, item.meterName, item.unitOfMeasure]).sort(),
    ).toEqual([
      ['Premium SSD Managed Disks', 'P10 LRS', 'P10 LRS Disk', '1/Month'],
      ['Standard HDD Managed Disks', 'S10 LRS', 'S10 LRS Disk', '1/Month'],
      ['Standard HDD Managed Disks', 'Snapshots LRS', 'LRS Snapshots', '1 GB/Month'],
    ]);
    // West Europe's list prices sit above East US's (P10: $19.71 a month).
    expect(items.find((item) => item.skuName === 'P10 LRS')?.retailPrice).toBeCloseTo(19.71 * 1.11, 4);
  });
});
