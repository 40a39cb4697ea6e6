import { failEach, type SecurityCheck } from '../security.check';

export const vmTrustedLaunchCheck: SecurityCheck = {
  id: 'vm-trusted-launch',
  title: 'VM without Trusted Launch (secure boot and vTPM)',
  severity: 'medium',
  reads: 'Microsoft.Compute/virtualMachines: properties.securityProfile',
  remediation: {
    text: 'Enable Trusted Launch with secure boot and vTPM (the VM must be deallocated; Gen2 images only).',
    command:
      'az vm update --resource-group <group> --name <vm> --security-type TrustedLaunch --enable-secure-boot true --enable-vtpm true',
  },
  // No CIS Azure Foundations 2.0.0 control asks for Trusted Launch: it came in 2.1.0, as 7.9.
  cis: '',
  evaluate: (inventory) =>
    failEach(inventory.virtualMachines, (machine) => {
      const profile = machine.properties?.securityProfile;
      const type = profile?.securityType ?? 'Standard';
      // Confidential VMs carry secure boot and vTPM too.
      if (!['trustedlaunch', 'confidentialvm'].includes(type.toLowerCase())) {
        return `securityProfile.securityType is ${type}.`;
      }
      const uefi = profile?.uefiSettings;
      if (uefi?.secureBootEnabled !== true || uefi.vTpmEnabled !== true) {
        return `securityType is ${type} but secureBootEnabled is ${String(uefi?.secureBootEnabled ?? false)} and vTpmEnabled is ${String(uefi?.vTpmEnabled ?? false)}.`;
      }
      return undefined;
    }),
};
