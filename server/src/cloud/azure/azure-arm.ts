// What every Resource Manager call shares: a client's pipeline to send through, nextLink paging,
// and reading the parts of a resource id and a VM's power state.
import {
  createPipelineRequest,
  type PipelineRequest,
  type PipelineResponse,
} from '@azure/core-rest-pipeline';
import { CloudError } from '../cloud-provider';
import { yieldToEventLoop } from '../../lib/concurrency';
import { readArmError } from './azure-errors';

// Any SDK client: sending through its pipeline adds the token, the retries and the trusted agent.
export interface ArmPipelineClient {
  sendRequest(request: PipelineRequest): Promise<PipelineResponse>;
}

export interface ArmPage<Item> {
  items: Item[];
  nextLink: string | undefined;
}

// Follows Resource Manager's nextLink paging; each page is handled on its own turn of the event loop.
export async function readArmPages<Item>(
  client: ArmPipelineClient,
  firstUrl: string,
  abortSignal: AbortSignal,
  onPage: (items: Item[]) => void,
): Promise<void> {
  let url: string | undefined = firstUrl;
  while (url) {
    const response = await client.sendRequest(createPipelineRequest({ url, method: 'GET', abortSignal }));
    if (response.status !== 200) throw readArmError(response.status, response.bodyAsText ?? undefined);
    const page = readArmPage<Item>(response.bodyAsText ?? undefined);
    onPage(page.items);
    url = page.nextLink;
    await yieldToEventLoop();
  }
}

// A list page (`{ value: [...], nextLink }`). A page of another shape is refused rather than read as
// empty: an inventory that took it for "no resources" would forget the whole subscription.
export function readArmPage<Item>(body: string | undefined): ArmPage<Item> {
  const page = JSON.parse(body ?? '{}') as unknown;
  if (typeof page !== 'object' || page === null || Array.isArray(page)) {
    throw new Error('Resource Manager answered a list page that is not a JSON object.');
  }
  const { value, nextLink } = page as { value?: unknown; nextLink?: unknown };
  if (value !== undefined && value !== null && !Array.isArray(value)) {
    throw new Error('Resource Manager answered a list page whose value is not a list.');
  }
  return {
    items: (value ?? []) as Item[],
    nextLink: typeof nextLink === 'string' && nextLink !== '' ? nextLink : undefined,
  };
}

export function readSubscriptionId(resourceId: string): string {
  const subscriptionId = /\/subscriptions\/([^/]+)/i.exec(resourceId)?.[1];
  if (!subscriptionId) throw new CloudError('invalidRequest', `Not a resource id: ${resourceId}`);
  return subscriptionId;
}

export function readResourceGroup(resourceId: string): string {
  return /\/resourceGroups\/([^/]+)/i.exec(resourceId)?.[1] ?? '';
}

// 'PowerState/running' among a VM's instance-view statuses → 'running'; null when none says.
export function readPowerState(statuses: { code?: string }[] | undefined): string | null {
  const code = statuses?.find((status) => status.code?.toLowerCase().startsWith('powerstate/'))?.code;
  return code ? code.slice('PowerState/'.length).toLowerCase() : null;
}
