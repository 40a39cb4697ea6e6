import { describe, expect, it } from 'vitest';
import type { CloudResource } from '@cloudtrim/contracts/resources';
import { runToEnd } from '../../../lib/work-in-slices';
import { createCloudResourceRows, type CloudResourceRow } from './group-cloud-resources';
import {
  compareNames,
  isRankedName,
  sortCloudResources,
  orderCloudResourcesInSteps,
} from './sort-cloud-resources';

function createResource(
  name: string,
  tenantName: string | null,
  resourceGroup: string | null,
  tenantId: string | null = tenantName,
): CloudResource {
  return {
    ResourceId: `/subscriptions/s/resourceGroups/${resourceGroup ?? 'x'}/providers/Microsoft.Compute/virtualMachines/${name}`,
    ResourceType: 'Microsoft.Compute/virtualMachines',
    SubscriptionName: 'Production',
    ResourceGroup: resourceGroup,
    TenantId: tenantId,
    TenantName: tenantName,
    LastRead: null,
    Automated: 0,
    ActiveHoursStart: null,
    ActiveHoursEnd: null,
  };
}

/** Reads rows the way the table shows them: '# Tenant / Group' for a divider, the name for a resource. */
function describeRows(rows: CloudResourceRow[]): string[] {
  return rows.map((row) =>
    row.kind === 'divider'
      ? `# ${row.tenantName} / ${row.resourceGroup}`
      : row.resource.ResourceId.split('/').at(-1)!,
  );
}

describe('sortCloudResources', () => {
  it('orders by tenant, then resource group, then name, with missing tenants and groups last', () => {
    const sorted = sortCloudResources([
      createResource('vm-9', null, 'rg-a'),
      createResource('vm-3', 'Fabrikam', 'rg-b'),
      createResource('vm-2', 'Contoso', null),
      createResource('vm-10', 'Contoso', 'rg-shop'),
      createResource('vm-1', 'Contoso', 'rg-api'),
      createResource('vm-2', 'Contoso', 'rg-shop'),
    ]);
    expect(
      sorted.map(
        (resource) =>
          `${resource.TenantName}/${resource.ResourceGroup}/${resource.ResourceId.split('/').at(-1)}`,
      ),
    ).toEqual([
      'Contoso/rg-api/vm-1',
      'Contoso/rg-shop/vm-2',
      'Contoso/rg-shop/vm-10',
      'Contoso/null/vm-2',
      'Fabrikam/rg-b/vm-3',
      'null/rg-a/vm-9',
    ]);
  });

  it('orders a shuffled estate as one sort by tenant, group, name and id would, groups cased two ways together', () => {
    const collator = new Intl.Collator('en', { sensitivity: 'base', numeric: true });
    const compareOptional = (left: string | null, right: string | null) =>
      !left || !right ? Number(!left) - Number(!right) : collator.compare(left, right);
    const byReference = (left: CloudResource, right: CloudResource) =>
      compareOptional(left.TenantName, right.TenantName) ||
      compareOptional(left.TenantId, right.TenantId) ||
      compareOptional(left.ResourceGroup, right.ResourceGroup) ||
      collator.compare(left.ResourceId.split('/').at(-1)!, right.ResourceId.split('/').at(-1)!) ||
      collator.compare(left.ResourceId, right.ResourceId);
    const tenants = ['Contoso', 'Fabrikam', null];
    const groups = ['rg-api', 'RG-API', 'rg-shop', 'rg-10', 'rg-9', null];
    let seed = 7;
    const next = (bound: number) => {
      seed = (seed * 48_271) % 2_147_483_647;
      return seed % bound;
    };
    // Ids differ beyond case (a subscription each), so the order has no ties left to stability.
    const resources = Array.from({ length: 600 }, (_, index) => {
      const resource = createResource(
        `vm-${next(40)}`,
        tenants[next(tenants.length)]!,
        groups[next(groups.length)]!,
      );
      return {
        ...resource,
        ResourceId: resource.ResourceId.replace('/subscriptions/s/', `/subscriptions/s-${index}/`),
      };
    });
    const expected = [...resources].sort(byReference);
    expect(sortCloudResources(resources)).toEqual(expected);
  });

  it('orders an answer in the server’s order (each group together, names by their bytes) as the collator would', () => {
    // The server sorts names by byte ('-' before '_'), the collator puts '_' first: a VM's OS disk
    // comes before its data disks here.
    const resources = ['rg-a', 'rg-b'].flatMap((group) =>
      ['vm-9', 'vm-10'].flatMap((vm) =>
        [`${vm}`, `${vm}-data-0`, `${vm}-data-1`, `${vm}_OsDisk_1_ab12`].map((name) =>
          createResource(name, 'Contoso', group),
        ),
      ),
    );
    const sorted = sortCloudResources(resources);
    expect(sorted.slice(0, 8).map((resource) => resource.ResourceId.split('/').at(-1))).toEqual([
      'vm-9',
      'vm-9_OsDisk_1_ab12',
      'vm-9-data-0',
      'vm-9-data-1',
      'vm-10',
      'vm-10_OsDisk_1_ab12',
      'vm-10-data-0',
      'vm-10-data-1',
    ]);
    expect(sorted.slice(8).map((resource) => resource.ResourceGroup)).toEqual(Array(8).fill('rg-b'));
  });

  it('yields every hundred rows, so the work can be spread over several tasks', () => {
    const resources = Array.from({ length: 1200 }, (_, index) =>
      createResource(`vm-${1200 - index}`, 'Contoso', 'rg'),
    );
    const steps = orderCloudResourcesInSteps(resources);
    let yields = 0;
    let step = steps.next();
    while (!step.done) {
      yields += 1;
      step = steps.next();
    }
    expect(yields).toBeGreaterThanOrEqual(4);
    expect(step.value.slice()).toEqual(sortCloudResources(resources));
  });

  it('answers a list already in order as it is', () => {
    const resources = [createResource('a', 'T', 'g'), createResource('b', 'T', 'g')];
    expect(sortCloudResources(resources)).toEqual(resources);
  });

  it('puts a group in order when a slice first reaches it, and keeps the order when rows change', () => {
    // Groups in order, as the server answers them; names within each by their bytes.
    const resources = ['rg-a', 'rg-b', 'rg-c'].flatMap((group) =>
      ['vm-1-data-0', 'vm-1_OsDisk_1_ab'].map((name) => createResource(name, 'Contoso', group)),
    );
    const list = runToEnd(orderCloudResourcesInSteps(resources));
    expect(list).toHaveLength(6);
    const names = (rows: readonly CloudResource[]) =>
      rows.map((resource) => `${resource.ResourceGroup}/${resource.ResourceId.split('/').at(-1)}`);
    expect(names(list.slice(1, 3))).toEqual(['rg-a/vm-1-data-0', 'rg-b/vm-1_OsDisk_1_ab']);
    const changed = list.map((resource) => ({ ...resource, Automated: 1 }));
    expect(names(changed.slice())).toEqual(names(sortCloudResources(resources)));
    expect(changed.slice(-2).map((resource) => resource.Automated)).toEqual([1, 1]);
    expect(names(list.slice())).toEqual(names(sortCloudResources(resources)));
  });

  it('leaves the given list untouched', () => {
    const resources = [createResource('b', 'T', 'g'), createResource('a', 'T', 'g')];
    sortCloudResources(resources);
    expect(resources.map((resource) => resource.ResourceId.at(-1))).toEqual(['b', 'a']);
  });
});

describe('compareNames', () => {
  const collator = new Intl.Collator('en', { sensitivity: 'base', numeric: true });

  function createNames(alphabet: string, seed: number): string[] {
    const next = (bound: number) => {
      seed = (seed * 48_271) % 2_147_483_647;
      return seed % bound;
    };
    return Array.from({ length: 400 }, () =>
      Array.from({ length: 1 + next(7) }, () => alphabet[next(alphabet.length)]).join(''),
    );
  }

  function expectCollatorOrder(names: string[]): void {
    for (const left of names) {
      for (const right of names.slice(0, 60)) {
        expect(Math.sign(compareNames(left, right, true)), `${left} vs ${right}`).toBe(
          Math.sign(collator.compare(left, right)),
        );
      }
    }
  }

  it('orders plain names (lower-case letters, digits, hyphens) as the collator does, digit runs by value', () => {
    const names = createNames('ab-z0129', 11);
    names.push(
      'web-prod-eus-001',
      'web-prod-eus-010',
      'web-prod-eus-9',
      'web',
      'web-',
      'web-1',
      'vm-1a',
      'vm-01',
    );
    expectCollatorOrder(names);
  });

  it('orders names of any printable characters as the collator does: cases alike, _ before -', () => {
    const names = createNames('aB-_.0 9(Z)~', 5);
    names.push(
      'api-dev-eus-010-data-0',
      'api-dev-eus-010_OsDisk_1_b732b55c',
      'API-dev-eus-010-data-1',
      'api-dev-eus-9_OsDisk_1_00ff',
      'vm.1',
      'vm 1',
      'vm1',
      'a00',
      'a0',
      'a01b',
      'a1c',
    );
    expectCollatorOrder(names);
    expect(compareNames('vm-010_OsDisk_1_a', 'vm-010-data-0', true)).toBeLessThan(0);
  });

  it('leaves names beyond printable ASCII to the collator', () => {
    expect(isRankedName('ébène')).toBe(false);
    expect(Math.sign(compareNames('ébène', 'ebony', false))).toBe(
      Math.sign(collator.compare('ébène', 'ebony')),
    );
  });
});

describe('createCloudResourceRows', () => {
  it('opens the page with a divider and adds one whenever the tenant or group changes', () => {
    const rows = createCloudResourceRows([
      createResource('vm-1', 'Contoso', 'rg-api'),
      createResource('vm-2', 'Contoso', 'rg-api'),
      createResource('vm-3', 'Contoso', 'rg-shop'),
      createResource('vm-4', 'Fabrikam', 'rg-shop'),
    ]);
    expect(describeRows(rows)).toEqual([
      '# Contoso / rg-api',
      'vm-1',
      'vm-2',
      '# Contoso / rg-shop',
      'vm-3',
      '# Fabrikam / rg-shop',
      'vm-4',
    ]);
  });

  it("labels a missing tenant 'Unknown Tenant' and a missing group 'Default Group'", () => {
    const rows = createCloudResourceRows([createResource('vm-1', null, null)]);
    expect(describeRows(rows)).toEqual(['# Unknown Tenant / Default Group', 'vm-1']);
  });

  it('treats group names that differ only in letter case as one group', () => {
    const rows = createCloudResourceRows([
      createResource('vm-1', 'Contoso', 'RG-Shop'),
      createResource('vm-2', 'Contoso', 'rg-shop'),
    ]);
    expect(describeRows(rows)).toEqual(['# Contoso / RG-Shop', 'vm-1', 'vm-2']);
  });

  it('tells apart two tenants that share a name', () => {
    const rows = createCloudResourceRows([
      createResource('vm-1', 'Contoso', 'rg', 'tenant-1'),
      createResource('vm-2', 'Contoso', 'rg', 'tenant-2'),
    ]);
    expect(describeRows(rows)).toEqual(['# Contoso / rg', 'vm-1', '# Contoso / rg', 'vm-2']);
  });

  it('gives an empty page no rows', () => {
    expect(createCloudResourceRows([])).toEqual([]);
  });
});
