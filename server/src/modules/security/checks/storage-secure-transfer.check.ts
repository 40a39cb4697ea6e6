import { failEach, type SecurityCheck } from '../security.check';

export const storageSecureTransferCheck: SecurityCheck = {
  id: 'storage-secure-transfer',
  title: 'Storage account accepts plain HTTP',
  severity: 'high',
  reads: 'Microsoft.Storage/storageAccounts: properties.supportsHttpsTrafficOnly',
  remediation: {
    text: 'Require secure transfer so the account refuses requests over HTTP.',
    command: 'az storage account update --name <account> --resource-group <group> --https-only true',
  },
  cis: '3.1',
  evaluate: (inventory) =>
    failEach(inventory.storageAccounts, (account) =>
      account.properties?.supportsHttpsTrafficOnly === false
        ? 'supportsHttpsTrafficOnly is false: requests over plain HTTP are accepted.'
        : undefined,
    ),
};
