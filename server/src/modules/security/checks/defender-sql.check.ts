import type { SecurityCheck } from '../security.check';
import { findPlanOff, pricingsReads } from './defender-plan';

export const defenderSqlCheck: SecurityCheck = {
  id: 'defender-sql',
  title: 'Microsoft Defender for Azure SQL Databases is off',
  severity: 'medium',
  reads: pricingsReads,
  remediation: {
    text: 'Turn the Defender for Azure SQL Databases plan on for the subscription.',
    command: 'az security pricing create --name SqlServers --tier Standard',
  },
  cis: '2.1.4',
  evaluate: (inventory) => findPlanOff(inventory, 'SqlServers', 'Azure SQL Databases'),
};
