import { createHttpHeaders, type PipelineRequest, type PipelineResponse } from '@azure/core-rest-pipeline';
import { describe, expect, it } from 'vitest';
import type { ArmPipelineClient } from './azure-arm';
import { readResourceFacts, readResourceState, toResourceFacts, typeOfId } from './azure-resource-details';

const armUrl = 'https://arm.example';
const group = '/subscriptions/sub-1/resourceGroups/rg';
const diskId = `${group}/providers/Microsoft.Compute/disks/data-1`;
const ipId = `${group}/providers/Microsoft.Network/publicIPAddresses/ip-1`;
const planId = `${group}/providers/Microsoft.Web/serverfarms/plan-1`;
const serverId = `${group}/providers/Microsoft.Sql/servers/sql-1`;
const databaseId = `${serverId}/databases/orders`;

// Answers each URL (without its query) from a table; anything else is 404.
function createClient(answers: Record<string, { status: number; body?: unknown }>) {
  const requests: PipelineRequest[] = [];
  const client: ArmPipelineClient = {
    sendRequest: async (request) => {
      requests.push(request);
      const answer = answers[request.url.split('?')[0]!] ?? { status: 404 };
      const response: PipelineResponse = {
        request,
        status: answer.status,
        headers: createHttpHeaders(),
        bodyAsText: answer.body === undefined ? undefined : JSON.stringify(answer.body),
      };
      return response;
    },
  };
  return { client, requests };
}

const signal = () => new AbortController().signal;

describe('typeOfId', () => {
  it('reads the type of a top-level and of a child resource', () => {
    expect(typeOfId(diskId)).toBe('microsoft.compute/disks');
    expect(typeOfId(databaseId)).toBe('microsoft.sql/servers/databases');
  });
});

describe('toResourceFacts', () => {
  it("reads a disk's state, size, owner, tier and Azure's ownership time, leaving out what Azure does not say", () => {
    expect(
      toResourceFacts(
        {
          managedBy: `${group}/providers/Microsoft.Compute/virtualMachines/vm-1`,
          sku: { name: 'Premium_LRS' },
          properties: {
            diskState: 'Reserved',
            diskSizeGB: 128,
            tier: 'P10',
            LastOwnershipUpdateTime: '2026-10-01T08:00:00.1234567+00:00',
          },
        },
        diskId,
      ),
    ).toEqual({
      sku: 'Premium_LRS',
      details: {
        diskState: 'Reserved',
        diskSizeGb: 128,
        managedBy: `${group}/providers/Microsoft.Compute/virtualMachines/vm-1`,
        tier: 'P10',
        lastOwnershipUpdateTime: '2026-10-01T08:00:00.123Z',
      },
    });
    expect(
      toResourceFacts(
        {
          sku: { name: 'Standard_LRS' },
          properties: { diskState: 'Unattached', LastOwnershipUpdateTime: 'never' },
        },
        diskId,
      ),
    ).toEqual({ sku: 'Standard_LRS', details: { diskState: 'Unattached' } });
  });

  it("reads an IP's association, a plan's sites and kind, and a database's objective as its SKU", () => {
    expect(
      toResourceFacts(
        {
          sku: { name: 'Standard' },
          properties: {
            ipAddress: '20.1.2.3',
            publicIPAllocationMethod: 'Static',
            ipConfiguration: {
              id: `${group}/providers/Microsoft.Network/networkInterfaces/nic-1/ipConfigurations/ipconfig1`,
            },
          },
        },
        ipId,
      ),
    ).toEqual({
      sku: 'Standard',
      details: {
        ipAddress: '20.1.2.3',
        allocationMethod: 'Static',
        ipConfigurationId: `${group}/providers/Microsoft.Network/networkInterfaces/nic-1/ipConfigurations/ipconfig1`,
      },
    });
    expect(
      toResourceFacts(
        {
          kind: 'linux',
          sku: { name: 'P1v3', tier: 'PremiumV3', capacity: 2 },
          properties: { numberOfSites: 0 },
        },
        planId,
      ),
    ).toEqual({ sku: 'P1v3', details: { tier: 'PremiumV3', capacity: 2, numberOfSites: 0, kind: 'linux' } });
    expect(
      toResourceFacts(
        {
          sku: { name: 'Standard', tier: 'Standard', capacity: 100 },
          properties: { currentServiceObjectiveName: 'S3', maxSizeBytes: 268435456000 },
        },
        databaseId,
      ),
    ).toEqual({
      sku: 'S3',
      details: { tier: 'Standard', capacity: 100, maxSizeBytes: 268435456000, serverName: 'sql-1' },
    });
  });
});

describe('readResourceFacts', () => {
  it('lists only the types the subscription holds, databases by their server, every page', async () => {
    const { client, requests } = createClient({
      [`${armUrl}/subscriptions/sub-1/providers/Microsoft.Compute/disks`]: {
        status: 200,
        body: {
          value: [{ id: diskId, sku: { name: 'Premium_LRS' }, properties: { diskState: 'Unattached' } }],
          nextLink: `${armUrl}/next-disks`,
        },
      },
      [`${armUrl}/next-disks`]: {
        status: 200,
        body: { value: [{ id: `${diskId}-b`, sku: { name: 'Standard_LRS' }, properties: {} }] },
      },
      [`${armUrl}${serverId}/databases`]: {
        status: 200,
        body: {
          value: [
            { id: databaseId, sku: { name: 'Basic' }, properties: { currentServiceObjectiveName: 'Basic' } },
          ],
        },
      },
    });
    const facts = await readResourceFacts(
      client,
      armUrl,
      'sub-1',
      [
        { id: diskId, type: 'Microsoft.Compute/disks' },
        { id: serverId, type: 'Microsoft.Sql/servers' },
        { id: databaseId, type: 'Microsoft.Sql/servers/databases' },
      ],
      signal(),
    );
    expect(requests.map((request) => request.url.split('?')[0])).toEqual([
      `${armUrl}/subscriptions/sub-1/providers/Microsoft.Compute/disks`,
      `${armUrl}${serverId}/databases`,
      `${armUrl}/next-disks`,
    ]);
    expect(facts.get(diskId.toLowerCase())).toEqual({
      sku: 'Premium_LRS',
      details: { diskState: 'Unattached' },
    });
    expect(facts.get(`${diskId}-b`.toLowerCase())?.sku).toBe('Standard_LRS');
    expect(facts.get(databaseId.toLowerCase())?.details).toEqual({ serverName: 'sql-1' });
  });

  it('fails the listing when a list fails, rather than reading the resources as having no facts', async () => {
    const { client } = createClient({});
    await expect(
      readResourceFacts(
        client,
        armUrl,
        'sub-1',
        [{ id: planId, type: 'Microsoft.Web/serverfarms' }],
        signal(),
      ),
    ).rejects.toMatchObject({ statusCode: 404 });
  });
});

describe('readResourceState', () => {
  it('reads a resource back with its provisioning state, and one Azure no longer has as null', async () => {
    const { client } = createClient({
      [`${armUrl}${planId}`]: {
        status: 200,
        body: { sku: { name: 'P0v3' }, properties: { numberOfSites: 1, provisioningState: 'Succeeded' } },
      },
    });
    expect(await readResourceState(client, armUrl, planId, signal())).toEqual({
      sku: 'P0v3',
      details: { numberOfSites: 1 },
      provisioningState: 'Succeeded',
    });
    expect(await readResourceState(client, armUrl, ipId, signal())).toBeNull();
  });
});
