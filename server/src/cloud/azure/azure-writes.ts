// The Resource Manager writes the executor makes: resize (PATCH hardwareProfile.vmSize), start and
// deallocate, each a long-running operation whose URL is handed back so any process can poll it
// later, and the poll of that operation. Sent through a compute client's pipeline, whose retry policy
// waits out Retry-After on 429 (the subscription's write budget and Compute's per-VM update budget)
// and on 503.
import { createHttpHeaders, createPipelineRequest, type PipelineResponse } from '@azure/core-rest-pipeline';
import type { CloudOperation, CloudOperationStatus, CloudPowerAction } from '../cloud-provider';
import { CloudError } from '../cloud-provider';
import type { ArmPipelineClient } from './azure-arm';
import { readArmError } from './azure-errors';

const computeWriteApiVersion = '2024-07-01';

export async function submitResize(
  client: ArmPipelineClient,
  resourceManagerUrl: string,
  resourceId: string,
  size: string,
  abortSignal: AbortSignal,
): Promise<CloudOperation> {
  const request = createPipelineRequest({
    url: `${resourceManagerUrl}${resourceId}?api-version=${computeWriteApiVersion}`,
    method: 'PATCH',
    headers: createHttpHeaders({ 'content-type': 'application/json', accept: 'application/json' }),
    body: JSON.stringify({ properties: { hardwareProfile: { vmSize: size } } }),
    abortSignal,
  });
  const response = await client.sendRequest(request);
  if (response.status !== 200 && response.status !== 201 && response.status !== 202) {
    throw readArmError(response.status, response.bodyAsText ?? undefined);
  }
  return { operationUrl: readOperationUrl(response), retryAfterSeconds: readRetryAfterSeconds(response) };
}

export async function submitPowerAction(
  client: ArmPipelineClient,
  resourceManagerUrl: string,
  resourceId: string,
  action: CloudPowerAction,
  abortSignal: AbortSignal,
): Promise<CloudOperation> {
  const request = createPipelineRequest({
    url: `${resourceManagerUrl}${resourceId}/${action}?api-version=${computeWriteApiVersion}`,
    method: 'POST',
    abortSignal,
  });
  const response = await client.sendRequest(request);
  if (response.status !== 200 && response.status !== 202)
    throw readArmError(response.status, response.bodyAsText ?? undefined);
  return { operationUrl: readOperationUrl(response), retryAfterSeconds: readRetryAfterSeconds(response) };
}

// The Azure-AsyncOperation status document: InProgress, Succeeded, Failed or Canceled.
export async function readOperationStatus(
  client: ArmPipelineClient,
  resourceManagerUrl: string,
  operationUrl: string,
  abortSignal: AbortSignal,
): Promise<CloudOperationStatus> {
  // The URL was saved in our database; it must point at the Resource Manager we are configured for.
  if (!operationUrl.startsWith(`${resourceManagerUrl}/`)) {
    throw new CloudError('invalidRequest', 'The operation URL is not one of Resource Manager.');
  }
  const response = await client.sendRequest(
    createPipelineRequest({ url: operationUrl, method: 'GET', abortSignal }),
  );
  if (response.status !== 200 && response.status !== 202)
    throw readArmError(response.status, response.bodyAsText ?? undefined);
  const retryAfterSeconds = readRetryAfterSeconds(response);
  if (response.status === 202) return { status: 'InProgress', retryAfterSeconds };
  const body = JSON.parse(response.bodyAsText || '{}') as {
    status?: string;
    error?: { code?: string; message?: string };
  };
  const status = normaliseStatus(body.status);
  const error = body.error ? [body.error.code, body.error.message].filter(Boolean).join(': ') : undefined;
  return { status, retryAfterSeconds, ...(error ? { error } : {}) };
}

function normaliseStatus(status: string | undefined): CloudOperationStatus['status'] {
  switch ((status ?? 'Succeeded').toLowerCase()) {
    case 'succeeded':
      return 'Succeeded';
    case 'failed':
      return 'Failed';
    case 'canceled':
    case 'cancelled':
      return 'Canceled';
    default:
      return 'InProgress';
  }
}

function readRetryAfterSeconds(response: PipelineResponse): number {
  const seconds = Number(response.headers.get('retry-after') ?? '');
  return Number.isFinite(seconds) && seconds > 0 ? seconds : 0;
}

function readOperationUrl(response: PipelineResponse): string | null {
  return response.headers.get('azure-asyncoperation') ?? response.headers.get('location') ?? null;
}
