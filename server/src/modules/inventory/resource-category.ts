// RESOURCE CATEGORY and SUBCATEGORY of the automation view, from the ARM resource type.

export interface ResourceCategory {
  category: string;
  subcategory: string;
}

const knownTypes: Readonly<Record<string, ResourceCategory>> = {
  'microsoft.compute/virtualmachines': { category: 'Compute', subcategory: 'Virtual Machine' },
  'microsoft.compute/virtualmachinescalesets': {
    category: 'Compute',
    subcategory: 'Virtual Machine Scale Set',
  },
  'microsoft.compute/disks': { category: 'Storage', subcategory: 'Managed Disk' },
  'microsoft.compute/snapshots': { category: 'Storage', subcategory: 'Snapshot' },
  'microsoft.compute/availabilitysets': { category: 'Compute', subcategory: 'Availability Set' },
  'microsoft.web/serverfarms': { category: 'Web', subcategory: 'App Service Plan' },
  'microsoft.web/sites': { category: 'Web', subcategory: 'App Service' },
  'microsoft.sql/servers': { category: 'Databases', subcategory: 'SQL Server' },
  'microsoft.sql/servers/databases': { category: 'Databases', subcategory: 'SQL Database' },
  'microsoft.sql/servers/elasticpools': { category: 'Databases', subcategory: 'SQL Elastic Pool' },
  'microsoft.dbforpostgresql/flexibleservers': {
    category: 'Databases',
    subcategory: 'PostgreSQL Flexible Server',
  },
  'microsoft.dbformysql/flexibleservers': { category: 'Databases', subcategory: 'MySQL Flexible Server' },
  'microsoft.documentdb/databaseaccounts': { category: 'Databases', subcategory: 'Cosmos DB Account' },
  'microsoft.cache/redis': { category: 'Databases', subcategory: 'Azure Cache for Redis' },
  'microsoft.storage/storageaccounts': { category: 'Storage', subcategory: 'Storage Account' },
  'microsoft.network/virtualnetworks': { category: 'Networking', subcategory: 'Virtual Network' },
  'microsoft.network/networkinterfaces': { category: 'Networking', subcategory: 'Network Interface' },
  'microsoft.network/publicipaddresses': { category: 'Networking', subcategory: 'Public IP Address' },
  'microsoft.network/networksecuritygroups': {
    category: 'Networking',
    subcategory: 'Network Security Group',
  },
  'microsoft.network/loadbalancers': { category: 'Networking', subcategory: 'Load Balancer' },
  'microsoft.network/applicationgateways': { category: 'Networking', subcategory: 'Application Gateway' },
  'microsoft.containerservice/managedclusters': { category: 'Containers', subcategory: 'Kubernetes Service' },
  'microsoft.containerregistry/registries': { category: 'Containers', subcategory: 'Container Registry' },
  'microsoft.keyvault/vaults': { category: 'Security', subcategory: 'Key Vault' },
};

const namespaceCategories: Readonly<Record<string, string>> = {
  'microsoft.compute': 'Compute',
  'microsoft.web': 'Web',
  'microsoft.sql': 'Databases',
  'microsoft.storage': 'Storage',
  'microsoft.network': 'Networking',
  'microsoft.insights': 'Monitoring',
  'microsoft.operationalinsights': 'Monitoring',
};

export function categorizeResourceType(type: string): ResourceCategory {
  const lowerType = type.toLowerCase();
  const known = knownTypes[lowerType];
  if (known) return known;
  const [namespace = '', ...segments] = type.split('/');
  const category =
    namespaceCategories[namespace.toLowerCase()] ?? humanize(namespace.replace(/^Microsoft\./i, ''));
  return { category: category || 'Other', subcategory: humanize(segments.at(-1) ?? type) || 'Other' };
}

// 'virtualMachines' → 'Virtual Machines', 'DBforPostgreSQL' stays readable.
function humanize(text: string): string {
  return text
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/^./, (first) => first.toUpperCase())
    .trim();
}
