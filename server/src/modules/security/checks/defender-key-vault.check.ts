import type { SecurityCheck } from '../security.check';
import { findPlanOff, pricingsReads } from './defender-plan';

export const defenderKeyVaultCheck: SecurityCheck = {
  id: 'defender-key-vault',
  title: 'Microsoft Defender for Key Vault is off',
  severity: 'medium',
  reads: pricingsReads,
  remediation: {
    text: 'Turn the Defender for Key Vault plan on for the subscription.',
    command: 'az security pricing create --name KeyVaults --tier Standard',
  },
  cis: '2.1.10',
  evaluate: (inventory) => findPlanOff(inventory, 'KeyVaults', 'Key Vault'),
};
