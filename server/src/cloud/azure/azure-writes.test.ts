import { createHttpHeaders, type PipelineRequest, type PipelineResponse } from '@azure/core-rest-pipeline';
import { describe, expect, it } from 'vitest';
import { isCloudError } from '../cloud-provider';
import type { ArmPipelineClient } from './azure-arm';
import { readOperationStatus, submitPowerAction, submitResize } from './azure-writes';

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

describe('readOperationStatus', () => {
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
