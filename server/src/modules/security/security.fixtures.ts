// Real Resource Manager payload shapes for the checks' unit tests.
import type {
  NetworkInterfaceItem,
  NetworkSecurityGroupItem,
  SecurityInventory,
  SecurityRuleItem,
} from '../../cloud/security-inventory';

export const subscriptionId = '11111111-2222-3333-4444-555555555555';
const groupId = `/subscriptions/${subscriptionId}/resourceGroups/app-rg`;

export function emptyInventory(overrides: Partial<SecurityInventory> = {}): SecurityInventory {
  return {
    tenantId: 'tenant',
    subscriptionId,
    networkSecurityGroups: [],
    networkInterfaces: [],
    virtualNetworks: [],
    virtualMachines: [],
    disks: [],
    storageAccounts: [],
    sqlServers: [],
    keyVaults: [],
    networkWatchers: [],
    diagnosticSettings: [],
    roleDefinitions: [],
    pricings: [],
    secureScores: [],
    ...overrides,
  };
}

export function rule(
  name: string,
  priority: number,
  properties: Partial<NonNullable<SecurityRuleItem['properties']>>,
): SecurityRuleItem {
  return {
    id: `${groupId}/providers/Microsoft.Network/networkSecurityGroups/nsg/securityRules/${name}`,
    name,
    type: 'Microsoft.Network/networkSecurityGroups/securityRules',
    properties: {
      protocol: 'Tcp',
      access: 'Allow',
      direction: 'Inbound',
      priority,
      sourceAddressPrefix: 'Internet',
      destinationPortRange: '22',
      ...properties,
    },
  };
}

// Azure's default rules, as every NSG lists them.
const defaultRules: SecurityRuleItem[] = [
  rule('AllowVnetInBound', 65000, {
    protocol: '*',
    sourceAddressPrefix: 'VirtualNetwork',
    destinationPortRange: '*',
  }),
  rule('AllowAzureLoadBalancerInBound', 65001, {
    protocol: '*',
    sourceAddressPrefix: 'AzureLoadBalancer',
    destinationPortRange: '*',
  }),
  rule('DenyAllInBound', 65500, {
    protocol: '*',
    access: 'Deny',
    sourceAddressPrefix: '*',
    destinationPortRange: '*',
  }),
];

export function nsg(name: string, securityRules: SecurityRuleItem[]): NetworkSecurityGroupItem {
  return {
    id: `${groupId}/providers/Microsoft.Network/networkSecurityGroups/${name}`,
    name,
    type: 'Microsoft.Network/networkSecurityGroups',
    location: 'westeurope',
    properties: { securityRules, defaultSecurityRules: defaultRules },
  };
}

export const subnetId = `${groupId}/providers/Microsoft.Network/virtualNetworks/vnet/subnets/default`;

export function vnet(subnetNsg: NetworkSecurityGroupItem | undefined) {
  return {
    id: `${groupId}/providers/Microsoft.Network/virtualNetworks/vnet`,
    name: 'vnet',
    location: 'westeurope',
    properties: {
      subnets: [
        {
          id: subnetId,
          name: 'default',
          properties: subnetNsg ? { networkSecurityGroup: { id: subnetNsg.id } } : {},
        },
      ],
    },
  };
}

export function nic(name: string, ownNsg: NetworkSecurityGroupItem | undefined): NetworkInterfaceItem {
  return {
    id: `${groupId}/providers/Microsoft.Network/networkInterfaces/${name}`,
    name,
    location: 'westeurope',
    properties: {
      ...(ownNsg ? { networkSecurityGroup: { id: ownNsg.id } } : {}),
      virtualMachine: { id: `${groupId}/providers/Microsoft.Compute/virtualMachines/vm-${name}` },
      ipConfigurations: [{ name: 'ipconfig1', properties: { subnet: { id: subnetId } } }],
    },
  };
}

/** One NIC in a subnet: the subnet's NSG, the NIC's own, either or both. */
export function exposedEstate(
  subnetNsg: NetworkSecurityGroupItem | undefined,
  nicNsg: NetworkSecurityGroupItem | undefined,
): SecurityInventory {
  return emptyInventory({
    networkSecurityGroups: [subnetNsg, nicNsg].filter((group) => group !== undefined),
    virtualNetworks: [vnet(subnetNsg)],
    networkInterfaces: [nic('web', nicNsg)],
  });
}

export function resourceId(provider: string, name: string): string {
  return `${groupId}/providers/${provider}/${name}`;
}
