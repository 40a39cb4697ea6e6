import { failEach, type SecurityCheck } from '../security.check';

export const vmManagedDisksCheck: SecurityCheck = {
  id: 'vm-managed-disks',
  title: 'VM runs on an unmanaged (VHD) OS disk',
  severity: 'medium',
  reads: 'Microsoft.Compute/virtualMachines: properties.storageProfile.osDisk',
  remediation: {
    text: 'Convert the VM to managed disks (it is deallocated during the conversion).',
    command: 'az vm convert --resource-group <group> --name <vm>',
  },
  cis: '7.2',
  evaluate: (inventory) =>
    failEach(inventory.virtualMachines, (machine) => {
      const osDisk = machine.properties?.storageProfile?.osDisk;
      if (!osDisk?.vhd?.uri || osDisk.managedDisk) return undefined;
      return `The OS disk is the page blob ${osDisk.vhd.uri}.`;
    }),
};
