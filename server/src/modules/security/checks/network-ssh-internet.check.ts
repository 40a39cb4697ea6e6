import type { SecurityCheck } from '../security.check';
import { findExposedInterfaces, networkReads } from './exposure-check';

export const networkSshInternetCheck: SecurityCheck = {
  id: 'network-ssh-internet',
  title: 'SSH (TCP 22) is open to the internet',
  severity: 'critical',
  reads: networkReads,
  remediation: {
    text: 'Deny TCP 22 from the internet above the allowing rule, or remove it and reach the VM through Azure Bastion or a VPN.',
    command:
      'az network nsg rule update --resource-group <group> --nsg-name <nsg> --name <rule> --access Deny',
  },
  cis: '6.2',
  evaluate: (inventory) => findExposedInterfaces(inventory, 'Tcp', [22]),
};
