import type { SecurityCheck } from '../security.check';
import { findExposedInterfaces, networkReads } from './exposure-check';

export const networkRdpInternetCheck: SecurityCheck = {
  id: 'network-rdp-internet',
  title: 'RDP (TCP 3389) is open to the internet',
  severity: 'critical',
  reads: networkReads,
  remediation: {
    text: 'Deny TCP 3389 from the internet above the allowing rule, or remove it and reach the VM through Azure Bastion or a VPN.',
    command:
      'az network nsg rule update --resource-group <group> --nsg-name <nsg> --name <rule> --access Deny',
  },
  cis: '6.1',
  evaluate: (inventory) => findExposedInterfaces(inventory, 'Tcp', [3389]),
};
