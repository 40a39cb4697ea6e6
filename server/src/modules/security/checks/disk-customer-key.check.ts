import { failEach, type SecurityCheck } from '../security.check';

// Both types that include a customer-managed key pass.
const customerKeyTypes = new Set([
  'encryptionatrestwithcustomerkey',
  'encryptionatrestwithplatformandcustomerkeys',
]);

export const diskCustomerKeyCheck: SecurityCheck = {
  id: 'disk-customer-key',
  title: 'Attached disk is not encrypted with a customer-managed key',
  severity: 'low',
  reads: 'Microsoft.Compute/disks: properties.encryption.type, managedBy',
  remediation: {
    text: 'Encrypt the disk with a disk encryption set holding your key (the VM must be deallocated).',
    command:
      'az disk update --resource-group <group> --name <disk> --encryption-type EncryptionAtRestWithCustomerKey --disk-encryption-set <set id>',
  },
  cis: '7.3',
  evaluate: (inventory) =>
    failEach(
      inventory.disks.filter((disk) => Boolean(disk.managedBy)),
      (disk) => {
        const type = disk.properties?.encryption?.type ?? 'EncryptionAtRestWithPlatformKey';
        return customerKeyTypes.has(type.toLowerCase()) ? undefined : `encryption.type is ${type}.`;
      },
    ),
};
