import type { SecurityCheck } from '../security.check';
import { findPlanOff, pricingsReads } from './defender-plan';

export const defenderServersCheck: SecurityCheck = {
  id: 'defender-servers',
  title: 'Microsoft Defender for Servers is off',
  severity: 'high',
  reads: pricingsReads,
  remediation: {
    text: 'Turn the Defender for Servers plan on for the subscription.',
    command: 'az security pricing create --name VirtualMachines --tier Standard',
  },
  cis: '2.1.1',
  evaluate: (inventory) => findPlanOff(inventory, 'VirtualMachines', 'Servers'),
};
