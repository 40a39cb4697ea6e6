import { failEach, type SecurityCheck } from '../security.check';

const customerKeyTypes = new Set([
  'encryptionatrestwithcustomerkey',
  'encryptionatrestwithplatformandcustomerkeys',
]);

export const diskUnattachedCustomerKeyCheck: SecurityCheck = {
  id: 'disk-unattached-customer-key',
  title: 'Unattached disk is not encrypted with a customer-managed key',
  severity: 'low',
  reads: 'Microsoft.Compute/disks: properties.encryption.type, properties.diskState',
  remediation: {
    text: 'Encrypt the unattached disk with a disk encryption set, or delete it if nothing needs it.',
    command:
      'az disk update --resource-group <group> --name <disk> --encryption-type EncryptionAtRestWithCustomerKey --disk-encryption-set <set id>',
  },
  cis: '7.4',
  evaluate: (inventory) =>
    failEach(
      inventory.disks.filter((disk) => !disk.managedBy),
      (disk) => {
        const type = disk.properties?.encryption?.type ?? 'EncryptionAtRestWithPlatformKey';
        return customerKeyTypes.has(type.toLowerCase())
          ? undefined
          : `The disk is ${disk.properties?.diskState ?? 'Unattached'} and its encryption.type is ${type}.`;
      },
    ),
};
