import { createHttpHeaders, type PipelineRequest, type PipelineResponse } from '@azure/core-rest-pipeline';
import { describe, expect, it } from 'vitest';
import { isCloudError } from '../cloud-provider';
import type { ArmPipelineClient } from './azure-arm';
import {
  readOperationStatus,
  submitDelete,
  submitPowerAction,
  submitResize,
  submitSkuChange,
  submitSnapshot,
} from './azure-writes';

const armUrl = 'https://arm.example';
const vmId = '/subscriptions/sub-1/resourceGroups/rg/providers/Microsoft.Compute/virtualMachines/vm-1';
const operationUrl = `${armUrl}/subscriptions/sub-1/providers/Microsoft.Compute/locations/eastus/operations/op-1`;

interface CannedAnswer {
  status: number;
  headers?: Record<string, string>;
  body?: string;
}

function createClient(answer: CannedAnswer) {
  const requests: PipelineRequest[] = [];
  const client: ArmPipelineClient = {
    sendRequest: async (request) => {
      requests.push(request);
      const response: PipelineResponse = {
        request,
        status: answer.status,
        headers: createHttpHeaders(answer.headers),
        bodyAsText: answer.body,
      };
      return response;
    },
  };
  return { client, requests };
}

const signal = () => new AbortController().signal;

describe('submitResize', () => {
  it('patches the size and hands back the operation to poll and when', async () => {
    const { client, requests } = createClient({
      status: 202,
      headers: { 'azure-asyncoperation': operationUrl, location: `${armUrl}/elsewhere`, 'retry-after': '15' },
    });
    expect(await submitResize(client, armUrl, vmId, 'Standard_B2s', signal())).toEqual({
      operationUrl,
      retryAfterSeconds: 15,
    });
    expect(requests[0]!.method).toBe('PATCH');
    expect(requests[0]!.url).toBe(`${armUrl}${vmId}?api-version=2024-07-01`);
    expect(JSON.parse(String(requests[0]!.body))).toEqual({
      properties: { hardwareProfile: { vmSize: 'Standard_B2s' } },
    });
  });

  it('falls back to Location, and reads a finished change as nothing to poll', async () => {
    expect(
      await submitResize(
        createClient({ status: 201, headers: { location: operationUrl } }).client,
        armUrl,
        vmId,
        'B',
        signal(),
      ),
    ).toEqual({ operationUrl, retryAfterSeconds: 0 });
    expect(await submitResize(createClient({ status: 200 }).client, armUrl, vmId, 'B', signal())).toEqual({
      operationUrl: null,
      retryAfterSeconds: 0,
    });
  });

  it("throws Azure's refusal with its code", async () => {
    const { client } = createClient({
      status: 409,
      body: JSON.stringify({ error: { code: 'OperationNotAllowed', message: 'Size not available' } }),
    });
    await expect(submitResize(client, armUrl, vmId, 'Standard_M416ms_v2', signal())).rejects.toMatchObject({
      statusCode: 409,
      code: 'OperationNotAllowed',
      message: 'Size not available',
    });
  });
});

describe('submitPowerAction', () => {
  it('posts the action to the VM and ignores a Retry-After that is not a positive number', async () => {
    for (const retryAfter of ['soon', '-5', '0']) {
      const { client, requests } = createClient({
        status: 202,
        headers: { 'azure-asyncoperation': operationUrl, 'retry-after': retryAfter },
      });
      expect(await submitPowerAction(client, armUrl, vmId, 'deallocate', signal())).toEqual({
        operationUrl,
        retryAfterSeconds: 0,
      });
      expect(requests[0]!.method).toBe('POST');
      expect(requests[0]!.url).toBe(`${armUrl}${vmId}/deallocate?api-version=2024-07-01`);
    }
  });

  it('refuses an answer other than 200 or 202', async () => {
    const { client } = createClient({ status: 201 });
    await expect(submitPowerAction(client, armUrl, vmId, 'start', signal())).rejects.toMatchObject({
      statusCode: 201,
      message: 'HTTP 201',
    });
  });
});

const diskId = '/subscriptions/sub-1/resourceGroups/rg/providers/Microsoft.Compute/disks/data-1';
const snapshotId = '/subscriptions/sub-1/resourceGroups/rg/providers/Microsoft.Compute/snapshots/data-1-7';

describe('submitSnapshot', () => {
  it('puts an incremental copy of the disk in its region and hands back the operation', async () => {
    const { client, requests } = createClient({
      status: 202,
      headers: { 'azure-asyncoperation': operationUrl, 'retry-after': '2' },
    });
    expect(await submitSnapshot(client, armUrl, { snapshotId, diskId, region: 'eastus' }, signal())).toEqual({
      operationUrl,
      retryAfterSeconds: 2,
    });
    expect(requests[0]!.method).toBe('PUT');
    expect(requests[0]!.url).toBe(`${armUrl}${snapshotId}?api-version=2024-03-02`);
    expect(JSON.parse(String(requests[0]!.body))).toEqual({
      location: 'eastus',
      sku: { name: 'Standard_LRS' },
      properties: { creationData: { createOption: 'Copy', sourceResourceId: diskId }, incremental: true },
    });
  });
});

describe('submitDelete', () => {
  it("deletes with the type's own api-version, and reads 204 (already gone) as nothing to poll", async () => {
    const ipId = '/subscriptions/sub-1/resourceGroups/rg/providers/Microsoft.Network/publicIPAddresses/ip-1';
    const planId = '/subscriptions/sub-1/resourceGroups/rg/providers/Microsoft.Web/serverfarms/plan-1';
    const accepted = createClient({ status: 202, headers: { location: operationUrl } });
    expect(await submitDelete(accepted.client, armUrl, ipId, signal())).toEqual({
      operationUrl,
      retryAfterSeconds: 0,
    });
    expect(accepted.requests[0]!.method).toBe('DELETE');
    expect(accepted.requests[0]!.url).toBe(`${armUrl}${ipId}?api-version=2024-05-01`);
    const gone = createClient({ status: 204 });
    expect(await submitDelete(gone.client, armUrl, planId, signal())).toEqual({
      operationUrl: null,
      retryAfterSeconds: 0,
    });
    expect(gone.requests[0]!.url).toBe(`${armUrl}${planId}?api-version=2023-12-01`);
  });

  it("throws Azure's refusal of a resource in use, and refuses a type it does not know, sending nothing", async () => {
    const { client, requests } = createClient({
      status: 400,
      body: JSON.stringify({ error: { code: 'PublicIPAddressInUse', message: 'in use' } }),
    });
    const ipId = '/subscriptions/sub-1/resourceGroups/rg/providers/Microsoft.Network/publicIPAddresses/ip-1';
    await expect(submitDelete(client, armUrl, ipId, signal())).rejects.toMatchObject({
      statusCode: 400,
      code: 'PublicIPAddressInUse',
    });
    await expect(
      submitDelete(
        client,
        armUrl,
        '/subscriptions/sub-1/resourceGroups/rg/providers/Microsoft.Storage/storageAccounts/a',
        signal(),
      ),
    ).rejects.toSatisfy((error) => isCloudError(error, 'invalidRequest'));
    expect(requests).toHaveLength(1);
  });
});

describe('submitSkuChange', () => {
  it("patches a disk's SKU, and a database's with its new maximum size", async () => {
    const disk = createClient({ status: 202, headers: { 'azure-asyncoperation': operationUrl } });
    await submitSkuChange(disk.client, armUrl, diskId, { name: 'Standard_LRS' }, signal());
    expect(disk.requests[0]!.method).toBe('PATCH');
    expect(JSON.parse(String(disk.requests[0]!.body))).toEqual({ sku: { name: 'Standard_LRS' } });
    const databaseId =
      '/subscriptions/sub-1/resourceGroups/rg/providers/Microsoft.Sql/servers/sql-1/databases/db-1';
    const database = createClient({ status: 202, headers: { 'azure-asyncoperation': operationUrl } });
    await submitSkuChange(
      database.client,
      armUrl,
      databaseId,
      { name: 'S1', tier: 'Standard', maxSizeBytes: 250 * 1024 ** 3 },
      signal(),
    );
    expect(database.requests[0]!.url).toBe(`${armUrl}${databaseId}?api-version=2023-08-01`);
    expect(JSON.parse(String(database.requests[0]!.body))).toEqual({
      sku: { name: 'S1', tier: 'Standard' },
      properties: { maxSizeBytes: 250 * 1024 ** 3 },
    });
  });
});

describe('readOperationStatus', () => {
  it("reads a deletion's final 204 as done", async () => {
    const { client } = createClient({ status: 204 });
    expect(await readOperationStatus(client, armUrl, operationUrl, signal())).toEqual({
      status: 'Succeeded',
      retryAfterSeconds: 0,
    });
  });

  it('refuses a saved URL that is not of the configured Resource Manager, sending nothing', async () => {
    const { client, requests } = createClient({ status: 200 });
    for (const url of ['https://evil.example/op', `${armUrl}.evil.example/op`, armUrl]) {
      await expect(readOperationStatus(client, armUrl, url, signal())).rejects.toSatisfy(
        (error) => isCloudError(error) && error.kind === 'invalidRequest',
      );
    }
    expect(requests).toEqual([]);
  });

  it('reads 202 as in progress, with when to ask again', async () => {
    const { client } = createClient({ status: 202, headers: { 'retry-after': '10' } });
    expect(await readOperationStatus(client, armUrl, operationUrl, signal())).toEqual({
      status: 'InProgress',
      retryAfterSeconds: 10,
    });
  });

  it("reads the status document in any letter case, and a failure's code and text", async () => {
    const read = (body: string) =>
      readOperationStatus(createClient({ status: 200, body }).client, armUrl, operationUrl, signal());
    expect(await read('{"status":"succeeded"}')).toEqual({ status: 'Succeeded', retryAfterSeconds: 0 });
    expect(await read('{"status":"Cancelled"}')).toEqual({ status: 'Canceled', retryAfterSeconds: 0 });
    expect(await read('{"status":"Deleting"}')).toEqual({ status: 'InProgress', retryAfterSeconds: 0 });
    // A 200 without a body (the final answer of a Location poll) reads as done.
    expect(await read('')).toEqual({ status: 'Succeeded', retryAfterSeconds: 0 });
    expect(
      await read(
        JSON.stringify({ status: 'Failed', error: { code: 'AllocationFailed', message: 'No capacity' } }),
      ),
    ).toEqual({ status: 'Failed', retryAfterSeconds: 0, error: 'AllocationFailed: No capacity' });
    expect(await read(JSON.stringify({ status: 'Failed', error: { message: 'No capacity' } }))).toEqual({
      status: 'Failed',
      retryAfterSeconds: 0,
      error: 'No capacity',
    });
  });

  it('refuses a status document that is not JSON', async () => {
    const { client } = createClient({ status: 200, body: '<html>' });
    await expect(readOperationStatus(client, armUrl, operationUrl, signal())).rejects.toThrow(SyntaxError);
  });
});
