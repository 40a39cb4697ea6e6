import { failEach, type SecurityCheck } from '../security.check';

export const storageBlobPublicAccessCheck: SecurityCheck = {
  id: 'storage-blob-public-access',
  title: 'Storage account allows anonymous public blob access',
  severity: 'high',
  reads: 'Microsoft.Storage/storageAccounts: properties.allowBlobPublicAccess',
  remediation: {
    text: 'Disallow blob public access on the account; containers then refuse anonymous reads.',
    command:
      'az storage account update --name <account> --resource-group <group> --allow-blob-public-access false',
  },
  cis: '3.7',
  evaluate: (inventory) =>
    failEach(inventory.storageAccounts, (account) =>
      account.properties?.allowBlobPublicAccess === true
        ? 'allowBlobPublicAccess is true: any container can be made readable by anyone.'
        : undefined,
    ),
};
