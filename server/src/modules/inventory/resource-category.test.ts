import { describe, expect, it } from 'vitest';
import { categorizeResourceType } from './resource-category';

describe('categorizeResourceType', () => {
  it('names the types the emulator and most fleets hold, in any letter case', () => {
    expect(categorizeResourceType('Microsoft.Compute/virtualMachines')).toEqual({
      category: 'Compute',
      subcategory: 'Virtual Machine',
    });
    expect(categorizeResourceType('microsoft.web/SERVERFARMS')).toEqual({
      category: 'Web',
      subcategory: 'App Service Plan',
    });
    expect(categorizeResourceType('Microsoft.Sql/servers/databases')).toEqual({
      category: 'Databases',
      subcategory: 'SQL Database',
    });
  });

  it('derives readable names for any other type', () => {
    expect(categorizeResourceType('Microsoft.Network/privateDnsZones')).toEqual({
      category: 'Networking',
      subcategory: 'Private Dns Zones',
    });
    expect(categorizeResourceType('Microsoft.EventHub/namespaces')).toEqual({
      category: 'Event Hub',
      subcategory: 'Namespaces',
    });
  });
});
