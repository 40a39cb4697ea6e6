import { failEach, type SecurityCheck } from '../security.check';

export const keyVaultRecoverableCheck: SecurityCheck = {
  id: 'key-vault-recoverable',
  title: 'Key vault is not recoverable (purge protection off)',
  severity: 'high',
  reads: 'Microsoft.KeyVault/vaults: properties.enableSoftDelete, properties.enablePurgeProtection',
  remediation: {
    text: 'Turn purge protection on, so a deleted vault and its keys can be recovered for the retention period.',
    command: 'az keyvault update --name <vault> --resource-group <group> --enable-purge-protection true',
  },
  cis: '8.5',
  evaluate: (inventory) =>
    failEach(inventory.keyVaults, (vault) => {
      // Soft delete is on unless explicitly false (Azure turned it on for every vault in 2020).
      const softDelete = vault.properties?.enableSoftDelete !== false;
      const purgeProtection = vault.properties?.enablePurgeProtection === true;
      if (softDelete && purgeProtection) return undefined;
      return softDelete
        ? 'enablePurgeProtection is not true: a deleted vault can be purged before its retention ends.'
        : 'enableSoftDelete is false: a deleted vault and its keys are gone at once.';
    }),
};
