// The unmanaged OS disks of the security estate: a small share of the VMs, in every tenant, on VMs
// whose size choice cannot depend on it, the same for the same seed.
import { describe, expect, it } from 'vitest';
import { describeVirtualMachine, readMachineHardware, readOsDiskVhd } from '../arm/arm.views';
import { generateFleet } from '../fleet/fleet.generator';

describe('unmanaged OS disks', () => {
  it('fall on a small share of standard-disk VMs without data disks, in every tenant, by seed', () => {
    for (const fleetSize of [60, 2000]) {
      const fleet = generateFleet({ fleetSize, seed: 7 });
      const unmanaged = fleet.virtualMachines.filter((machine) => readOsDiskVhd(fleet, machine));
      expect(unmanaged.length / fleet.virtualMachines.length).toBeLessThan(0.1);
      for (const tenant of fleet.tenants) {
        const inTenant = unmanaged.filter((machine) =>
          tenant.subscriptions.some((subscription) => subscription.subscriptionId === machine.subscriptionId),
        );
        expect(inTenant.length, tenant.displayName).toBeGreaterThan(0);
      }
      for (const machine of unmanaged) {
        const hardware = readMachineHardware(machine);
        expect(hardware.dataDiskTypes).toEqual([]);
        expect(hardware.osDiskType).toBe('StandardSSD_LRS');
        const osDisk = describeVirtualMachine(fleet, machine).properties.storageProfile.osDisk;
        expect(osDisk).not.toHaveProperty('managedDisk');
        expect(osDisk).toMatchObject({
          vhd: { uri: expect.stringMatching(/\.blob\.core\.windows\.net\/vhds\//) },
        });
      }
      const again = generateFleet({ fleetSize, seed: 7 });
      expect(
        again.virtualMachines.filter((machine) => readOsDiskVhd(again, machine)).map((m) => m.id),
      ).toEqual(unmanaged.map((machine) => machine.id));
    }
  });
});
