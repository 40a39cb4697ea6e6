import { ComputeManagementClient } from '@azure/arm-compute';
import { ResourceManagementClient } from '@azure/arm-resources';
import { createPipelineRequest } from '@azure/core-rest-pipeline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEmulator, type TestEmulator } from './testing/emulator.fixture';

const pageSize = 7;

describe('Resource Manager through @azure/arm-resources and raw calls', () => {
  let kit: TestEmulator;
  let contosoProduction: string;
  let fabrikamProduction: string;

  beforeAll(async () => {
    kit = await startTestEmulator({ pageSize });
    contosoProduction = kit.emulator.tenants[0]?.subscriptions[0]?.subscriptionId ?? '';
    fabrikamProduction = kit.emulator.tenants[1]?.subscriptions[0]?.subscriptionId ?? '';
  });

  afterAll(async () => {
    await kit.stop();
  });

  it('lists and gets the subscriptions a principal may read', async () => {
    const token = await kit.readToken(0, 0);
    const list = await kit.send('GET', '/subscriptions?api-version=2022-12-01', { token });
    expect(list.status).toBe(200);
    expect(list.headers['x-ms-ratelimit-remaining-tenant-reads']).toBeDefined();
    const names = (list.body as { value: { displayName: string; tenantId: string }[] }).value.map(
      (entry) => entry.displayName,
    );
    expect(names).toEqual(['Contoso Production', 'Contoso Development']);

    const one = await kit.send('GET', `/subscriptions/${contosoProduction}?api-version=2022-12-01`, {
      token,
    });
    expect(one.body).toMatchObject({
      subscriptionId: contosoProduction,
      state: 'Enabled',
      tenantId: kit.emulator.tenants[0]?.tenantId,
    });

    const restricted = await kit.send('GET', '/subscriptions?api-version=2022-12-01', {
      token: await kit.readToken(0, 1),
    });
    expect((restricted.body as { value: unknown[] }).value).toEqual([]);
  });

  it('lists subscriptions through an ARM client pipeline, which adds the token and the agent', async () => {
    const client = new ResourceManagementClient(
      kit.createCredential(1, 0),
      fabrikamProduction,
      kit.armOptions,
    );
    const response = await client.sendRequest(
      createPipelineRequest({
        url: `${kit.emulator.url}/subscriptions?api-version=2022-12-01`,
        method: 'GET',
      }),
    );
    expect(response.status).toBe(200);
    expect(JSON.parse(response.bodyAsText ?? '{}')).toMatchObject({
      value: [{ subscriptionId: fabrikamProduction, displayName: 'Fabrikam Production' }],
    });
  });

  it('pages the resource listing with nextLink and shows every category', async () => {
    const client = new ResourceManagementClient(
      kit.createCredential(0, 0),
      contosoProduction,
      kit.armOptions,
    );
    const pages: number[] = [];
    const types = new Set<string>();
    for await (const page of client.resources.list().byPage()) {
      pages.push(page.length);
      for (const resource of page) types.add(resource.type ?? '');
    }
    const expected = kit.emulator.fleet.listResources(contosoProduction).length;
    expect(pages.reduce((sum, count) => sum + count, 0)).toBe(expected);
    expect(pages.length).toBe(Math.ceil(expected / pageSize));
    expect(pages.slice(0, -1).every((count) => count === pageSize)).toBe(true);
    expect([...types].sort()).toEqual([
      'Microsoft.Compute/disks',
      'Microsoft.Compute/virtualMachines',
      'Microsoft.Network/publicIPAddresses',
      'Microsoft.Sql/servers',
      'Microsoft.Sql/servers/databases',
      'Microsoft.Web/serverfarms',
      'Microsoft.Web/sites',
    ]);

    const machinesOnly = [];
    for await (const resource of client.resources.list({
      filter: "resourceType eq 'Microsoft.Compute/virtualMachines'",
    })) {
      machinesOnly.push(resource);
    }
    expect(machinesOnly.length).toBe(
      kit.emulator.fleet.virtualMachines.filter((machine) => machine.subscriptionId === contosoProduction)
        .length,
    );
  });

  it('lists resource groups and gets App Service plans and SQL databases by id', async () => {
    const client = new ResourceManagementClient(
      kit.createCredential(0, 0),
      contosoProduction,
      kit.armOptions,
    );
    const groups = [];
    for await (const group of client.resourceGroups.list()) groups.push(group);
    expect(groups.length).toBe(kit.emulator.fleet.listResourceGroups(contosoProduction).length);
    expect(groups[0]?.name).toMatch(/^rg-[a-z]+-prod-(eus|wus2)$/);

    const plan = kit.emulator.fleet.appServicePlans.find(
      (candidate) => candidate.subscriptionId === contosoProduction,
    );
    const database = kit.emulator.fleet.sqlDatabases.find(
      (candidate) => candidate.subscriptionId === contosoProduction,
    );
    if (!plan || !database) throw new Error('The fleet has a plan and a database');
    const fetchedPlan = await client.resources.getById(plan.id, '2024-04-01');
    expect(fetchedPlan).toMatchObject({
      id: plan.id,
      type: 'Microsoft.Web/serverfarms',
      sku: { name: plan.sku.name },
    });
    const fetchedDatabase = await client.resources.getById(database.id, '2023-08-01');
    expect(fetchedDatabase).toMatchObject({
      type: 'Microsoft.Sql/servers/databases',
      sku: { tier: database.sku.tier },
    });
  });

  it('lists virtual machines per resource group with paging and gets one', async () => {
    const client = new ComputeManagementClient(kit.createCredential(0, 0), contosoProduction, kit.armOptions);
    const machine = kit.emulator.fleet.virtualMachines.find(
      (candidate) => candidate.subscriptionId === contosoProduction,
    );
    if (!machine) throw new Error('The fleet has a machine');
    const inGroup = [];
    for await (const listed of client.virtualMachines.list(machine.resourceGroupName))
      inGroup.push(listed.name);
    expect(inGroup).toContain(machine.name);
    const all = [];
    for await (const listed of client.virtualMachines.listAll()) all.push(listed);
    expect(all.length).toBe(
      kit.emulator.fleet.virtualMachines.filter((candidate) => candidate.subscriptionId === contosoProduction)
        .length,
    );
    const fetched = await client.virtualMachines.get(machine.resourceGroupName, machine.name, {
      expand: 'instanceView',
    });
    expect(fetched.id).toBe(machine.id);
    expect(fetched.hardwareProfile?.vmSize).toBe(machine.sizeHistory[0]?.size.name);
    expect(fetched.instanceView?.statuses?.map((status) => status.code)).toContain('PowerState/running');
  });

  it('answers 404 ResourceNotFound for an unknown machine and ResourceGroupNotFound for an unknown group', async () => {
    const client = new ComputeManagementClient(kit.createCredential(0, 0), contosoProduction, kit.armOptions);
    const group = kit.emulator.fleet.listResourceGroups(contosoProduction)[0]?.name ?? '';
    await expect(client.virtualMachines.get(group, 'no-such-vm')).rejects.toMatchObject({
      statusCode: 404,
      code: 'ResourceNotFound',
    });
    await expect(client.virtualMachines.get('rg-missing', 'no-such-vm')).rejects.toMatchObject({
      statusCode: 404,
      code: 'ResourceGroupNotFound',
    });
  });

  it('answers 403 AuthorizationFailed to a principal without rights, and to a reader that writes', async () => {
    const restricted = new ComputeManagementClient(
      kit.createCredential(0, 1),
      contosoProduction,
      kit.armOptions,
    );
    await expect(restricted.virtualMachines.listAll().next()).rejects.toMatchObject({
      statusCode: 403,
      code: 'AuthorizationFailed',
    });
    const reader = new ComputeManagementClient(
      kit.createCredential(1, 1),
      fabrikamProduction,
      kit.armOptions,
    );
    const machine = (await reader.virtualMachines.listAll().next()).value as { id: string; name: string };
    const group = machine.id.split('/')[4] ?? '';
    await expect(reader.virtualMachines.beginDeallocateAndWait(group, machine.name)).rejects.toMatchObject({
      statusCode: 403,
      code: 'AuthorizationFailed',
    });
  });

  it('refuses a token of another tenant and requires api-version', async () => {
    const contosoToken = await kit.readToken(0, 0);
    const foreign = await kit.send(
      'GET',
      `/subscriptions/${fabrikamProduction}/resourcegroups?api-version=2025-03-01`,
      {
        token: contosoToken,
      },
    );
    expect(foreign.status).toBe(401);
    expect(foreign.body).toMatchObject({ error: { code: 'InvalidAuthenticationTokenTenant' } });
    const missingVersion = await kit.send('GET', `/subscriptions/${contosoProduction}/resourcegroups`, {
      token: contosoToken,
    });
    expect(missingVersion.status).toBe(400);
    expect(missingVersion.body).toMatchObject({ error: { code: 'MissingApiVersionParameter' } });
  });
});
