import { failEach, type SecurityCheck } from '../security.check';

// Azure's values are TLS1_0, TLS1_1, TLS1_2 and TLS1_3; 1.2 and later pass.
const acceptedVersions = new Set(['tls1_2', 'tls1_3']);

export const storageMinimumTlsCheck: SecurityCheck = {
  id: 'storage-minimum-tls',
  title: 'Storage account accepts TLS older than 1.2',
  severity: 'medium',
  reads: 'Microsoft.Storage/storageAccounts: properties.minimumTlsVersion',
  remediation: {
    text: 'Set the minimum TLS version to 1.2.',
    command: 'az storage account update --name <account> --resource-group <group> --min-tls-version TLS1_2',
  },
  cis: '3.15',
  evaluate: (inventory) =>
    failEach(inventory.storageAccounts, (account) => {
      const version = account.properties?.minimumTlsVersion;
      if (version && acceptedVersions.has(version.toLowerCase())) return undefined;
      return version
        ? `minimumTlsVersion is ${version}.`
        : 'minimumTlsVersion is not set, so TLS 1.0 is accepted.';
    }),
};
