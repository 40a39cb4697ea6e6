import type { SecurityCheck } from '../security.check';
import { findExposedInterfaces, networkReads } from './exposure-check';

export const networkUdpInternetCheck: SecurityCheck = {
  id: 'network-udp-internet',
  title: 'A UDP port is open to the internet',
  severity: 'high',
  reads: networkReads,
  remediation: {
    text: 'Restrict the rule that allows UDP from the internet to the addresses that need it, or deny it.',
    command:
      'az network nsg rule update --resource-group <group> --nsg-name <nsg> --name <rule> --source-address-prefixes <your range>',
  },
  cis: '6.3',
  evaluate: (inventory) => findExposedInterfaces(inventory, 'Udp', undefined),
};
