// The Resource Manager writes the executor makes: resize (PATCH hardwareProfile.vmSize), start and
// deallocate; an incremental snapshot of a disk; deleting a disk, a public IP or a plan; a disk's,
// plan's or database's SKU; a merge of tags. Each but the tags (answered at once) is a long-running
// operation whose URL is handed back so any process can poll it later, and the poll of that
// operation. Sent through an ARM client's pipeline, whose
// retry policy waits out Retry-After on 429 (the subscription's write budget and Compute's per-VM
// update budget) and on 503.
import { createHttpHeaders, createPipelineRequest, type PipelineResponse } from '@azure/core-rest-pipeline';
import type {
  CloudOperation,
  CloudOperationStatus,
  CloudPowerAction,
  CloudSku,
  CloudSnapshotRequest,
} from '../cloud-provider';
import { CloudError } from '../cloud-provider';
import type { ArmPipelineClient } from './azure-arm';
import { readArmError } from './azure-errors';
import { apiVersionOf, detailedTypes, typeOfId } from './azure-resource-details';

const computeWriteApiVersion = '2024-07-01';
const tagsApiVersion = '2021-04-01';

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

// An incremental snapshot (billed by the GiB it holds, on Standard HDD) of a disk, in its region.
export async function submitSnapshot(
  client: ArmPipelineClient,
  resourceManagerUrl: string,
  snapshot: CloudSnapshotRequest,
  abortSignal: AbortSignal,
): Promise<CloudOperation> {
  return sendWrite(
    client,
    'PUT',
    `${resourceManagerUrl}${snapshot.snapshotId}?api-version=${detailedTypes['microsoft.compute/snapshots']}`,
    {
      location: snapshot.region,
      sku: { name: 'Standard_LRS' },
      properties: {
        creationData: { createOption: 'Copy', sourceResourceId: snapshot.diskId },
        incremental: true,
      },
    },
    abortSignal,
  );
}

// DELETE of a disk, a public IP or a plan. Azure answers 204 for what is already gone: nothing to poll.
export async function submitDelete(
  client: ArmPipelineClient,
  resourceManagerUrl: string,
  resourceId: string,
  abortSignal: AbortSignal,
): Promise<CloudOperation> {
  return sendWrite(client, 'DELETE', writeUrl(resourceManagerUrl, resourceId), undefined, abortSignal);
}

// PATCH of the SKU of a disk, a plan or a database (with the database's new maximum size, when
// the objective holds less than it has now).
export async function submitSkuChange(
  client: ArmPipelineClient,
  resourceManagerUrl: string,
  resourceId: string,
  sku: CloudSku,
  abortSignal: AbortSignal,
): Promise<CloudOperation> {
  const { maxSizeBytes, ...skuFields } = sku;
  const body = {
    sku: skuFields,
    ...(maxSizeBytes !== undefined ? { properties: { maxSizeBytes } } : {}),
  };
  return sendWrite(client, 'PATCH', writeUrl(resourceManagerUrl, resourceId), body, abortSignal);
}

// The Tags API at the resource's scope (any type), answered at once: nothing to poll.
export async function submitTagsMerge(
  client: ArmPipelineClient,
  resourceManagerUrl: string,
  resourceId: string,
  tags: Readonly<Record<string, string>>,
  abortSignal: AbortSignal,
): Promise<Record<string, string>> {
  const request = createPipelineRequest({
    url: `${resourceManagerUrl}${resourceId}/providers/Microsoft.Resources/tags/default?api-version=${tagsApiVersion}`,
    method: 'PATCH',
    headers: createHttpHeaders({ 'content-type': 'application/json', accept: 'application/json' }),
    body: JSON.stringify({ operation: 'Merge', properties: { tags } }),
    abortSignal,
  });
  const response = await client.sendRequest(request);
  if (response.status !== 200) throw readArmError(response.status, response.bodyAsText ?? undefined);
  const body = JSON.parse(response.bodyAsText || '{}') as { properties?: { tags?: Record<string, string> } };
  return body.properties?.tags ?? {};
}

function writeUrl(resourceManagerUrl: string, resourceId: string): string {
  const apiVersion = apiVersionOf(resourceId);
  if (!apiVersion) {
    throw new CloudError(
      'invalidRequest',
      `Cloudtrim does not change resources of type ${typeOfId(resourceId)}.`,
    );
  }
  return `${resourceManagerUrl}${resourceId}?api-version=${apiVersion}`;
}

async function sendWrite(
  client: ArmPipelineClient,
  method: 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  body: unknown,
  abortSignal: AbortSignal,
): Promise<CloudOperation> {
  const request = createPipelineRequest({
    url,
    method,
    headers: createHttpHeaders({ 'content-type': 'application/json', accept: 'application/json' }),
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    abortSignal,
  });
  const response = await client.sendRequest(request);
  if (![200, 201, 202, 204].includes(response.status)) {
    throw readArmError(response.status, response.bodyAsText ?? undefined);
  }
  // A 200, 201 or 204 without an operation to follow is Azure saying it is done.
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
  if (response.status !== 200 && response.status !== 202 && response.status !== 204)
    throw readArmError(response.status, response.bodyAsText ?? undefined);
  const retryAfterSeconds = readRetryAfterSeconds(response);
  if (response.status === 202) return { status: 'InProgress', retryAfterSeconds };
  // A deletion's Location answers 204 once the resource is gone.
  if (response.status === 204) return { status: 'Succeeded', retryAfterSeconds };
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
