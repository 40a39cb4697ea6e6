import { failEach, type SecurityCheck } from '../security.check';
import { dayMs } from '../../../lib/time';

const maximumKeyAgeDays = 90;

export const storageKeysRotatedCheck: SecurityCheck = {
  id: 'storage-keys-rotated',
  title: 'Storage account access key not regenerated for 90 days',
  severity: 'medium',
  reads: 'Microsoft.Storage/storageAccounts: properties.keyCreationTime, properties.allowSharedKeyAccess',
  remediation: {
    text: 'Regenerate the account keys (and update who uses them), or turn shared key access off and use Entra ID.',
    command: 'az storage account keys renew --account-name <account> --resource-group <group> --key primary',
  },
  cis: '3.4',
  evaluate: (inventory, now) =>
    failEach(inventory.storageAccounts, (account) => {
      // An account that refuses shared keys has no key to rotate.
      if (account.properties?.allowSharedKeyAccess === false) return undefined;
      const created = account.properties?.keyCreationTime ?? {};
      const stale = (['key1', 'key2'] as const).flatMap((key) => {
        const text = created[key];
        if (!text) return [];
        const ageDays = Math.floor((now.getTime() - Date.parse(text)) / dayMs);
        return ageDays > maximumKeyAgeDays ? [`${key} is ${ageDays} days old`] : [];
      });
      return stale.length > 0 ? `${stale.join(' and ')} (at most ${maximumKeyAgeDays}).` : undefined;
    }),
};
