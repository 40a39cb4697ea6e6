import type { SecurityCheck } from '../security.check';
import { findPlanOff, pricingsReads } from './defender-plan';

export const defenderStorageCheck: SecurityCheck = {
  id: 'defender-storage',
  title: 'Microsoft Defender for Storage is off',
  severity: 'medium',
  reads: pricingsReads,
  remediation: {
    text: 'Turn the Defender for Storage plan on for the subscription.',
    command: 'az security pricing create --name StorageAccounts --tier Standard',
  },
  cis: '2.1.7',
  evaluate: (inventory) => findPlanOff(inventory, 'StorageAccounts', 'Storage'),
};
