import type { SecurityCheck } from '../security.check';
import { findExposedInterfaces, networkReads } from './exposure-check';

export const networkHttpInternetCheck: SecurityCheck = {
  id: 'network-http-internet',
  title: 'HTTP(S) (TCP 80 or 443) on a VM is open to the internet',
  severity: 'medium',
  reads: networkReads,
  remediation: {
    text: 'Publish web traffic through Application Gateway or Front Door and allow only them, or restrict the rule to known sources.',
    command:
      'az network nsg rule update --resource-group <group> --nsg-name <nsg> --name <rule> --source-address-prefixes AzureFrontDoor.Backend',
  },
  cis: '6.4',
  evaluate: (inventory) => findExposedInterfaces(inventory, 'Tcp', [80, 443]),
};
