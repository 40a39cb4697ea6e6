import { failEach, type SecurityCheck } from '../security.check';

export const storageDefaultNetworkDenyCheck: SecurityCheck = {
  id: 'storage-default-network-deny',
  title: 'Storage account accepts traffic from every network',
  severity: 'medium',
  reads: 'Microsoft.Storage/storageAccounts: properties.networkAcls.defaultAction',
  remediation: {
    text: 'Set the default network rule to Deny and allow only the virtual networks and addresses that need the account.',
    command: 'az storage account update --name <account> --resource-group <group> --default-action Deny',
  },
  cis: '3.8',
  evaluate: (inventory) =>
    failEach(inventory.storageAccounts, (account) =>
      (account.properties?.networkAcls?.defaultAction ?? 'Allow').toLowerCase() === 'allow'
        ? 'networkAcls.defaultAction is Allow: every network reaches the account.'
        : undefined,
    ),
};
