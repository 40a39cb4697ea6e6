// Cost Management's query (api-version 2023-11-01). The official JavaScript client is published only
// as a beta, so the query is sent through a pipeline of our own: the agent, the bearer token and the
// retry policy of every other Azure call, with a policy inside the retries that stops at a 429. Cost
// Management allows a few queries a minute per scope and says how long to wait in headers of its
// own; the caller keeps that wait (across processes and restarts), so no call goes out before it.
import {
  bearerTokenAuthenticationPolicy,
  createHttpHeaders,
  createPipelineFromOptions,
  createPipelineRequest,
  type HttpClient,
  type Pipeline,
  type PipelinePolicy,
  type PipelineRetryOptions,
} from '@azure/core-rest-pipeline';
import type { TokenCredential } from '@azure/identity';
import type https from 'node:https';
import { CloudError, type CloudBudget, type CostPage, type CostQuery, type CostRow } from '../cloud-provider';
import { readArmError } from './azure-errors';

export const costManagementApiVersion = '2023-11-01';
export const consumptionApiVersion = '2023-05-01';
// A subscription has a handful of budgets; a next link beyond this many pages is not followed.
const budgetPageLimit = 20;
// Cost Management's throttling headers, newest first; Retry-After as a last resort.
const retryAfterHeaders = [
  'x-ms-ratelimit-microsoft.costmanagement-qpu-retry-after',
  'x-ms-ratelimit-microsoft.costmanagement-entity-retry-after',
  'x-ms-ratelimit-microsoft.costmanagement-tenant-retry-after',
  'x-ms-ratelimit-microsoft.costmanagement-clienttype-retry-after',
  'retry-after',
];
// When a 429 names no wait: a minute, the window Cost Management counts queries over.
const unsaidRetryAfterSeconds = 60;

interface QueryAnswer {
  properties?: {
    nextLink?: string | null;
    columns?: { name: string; type: string }[];
    rows?: (string | number)[][];
  };
}

export function createCostPipeline(
  credential: TokenCredential,
  scope: string,
  agent: https.Agent,
  retryOptions: PipelineRetryOptions,
): Pipeline {
  const pipeline = createPipelineFromOptions({ agent, retryOptions });
  pipeline.addPolicy(bearerTokenAuthenticationPolicy({ credential, scopes: scope }));
  // Inside the retry policy: a throttled answer is thrown before the SDK could wait and ask again.
  pipeline.addPolicy(stopAtThrottlePolicy, { afterPhase: 'Retry' });
  return pipeline;
}

const stopAtThrottlePolicy: PipelinePolicy = {
  name: 'cloudtrimStopAtThrottle',
  async sendRequest(request, next) {
    const response = await next(request);
    if (response.status !== 429) return response;
    throw new CloudError(
      'throttled',
      'Cost Management is throttling this scope.',
      429,
      '429',
      readRetryAfterSeconds((name) => response.headers.get(name)),
    );
  },
};

export function readRetryAfterSeconds(readHeader: (name: string) => string | undefined): number {
  let longest: number | undefined;
  for (const name of retryAfterHeaders) {
    const value = Number(readHeader(name));
    if (Number.isFinite(value) && value >= 0) longest = Math.max(longest ?? 0, value);
  }
  return longest ?? unsaidRetryAfterSeconds;
}

export function buildCostQueryBody(query: CostQuery): string {
  return JSON.stringify({
    type: query.costType,
    timeframe: 'Custom',
    timePeriod: { from: `${query.from}T00:00:00Z`, to: `${query.to}T23:59:59Z` },
    dataset: {
      granularity: query.granularity,
      aggregation: {
        totalCost: { name: 'Cost', function: 'Sum' },
        totalQuantity: { name: 'UsageQuantity', function: 'Sum' },
      },
      grouping: [
        { type: 'Dimension', name: 'ResourceId' },
        { type: 'Dimension', name: 'ServiceName' },
      ],
    },
  });
}

export async function sendCostQuery(
  pipeline: Pipeline,
  httpClient: HttpClient,
  resourceManagerUrl: string,
  query: CostQuery,
  nextLink: string | null,
  abortSignal: AbortSignal,
): Promise<CostPage> {
  const url =
    nextLink ??
    `${resourceManagerUrl}/subscriptions/${encodeURIComponent(query.subscriptionId)}/providers/Microsoft.CostManagement/query?api-version=${costManagementApiVersion}`;
  if (!url.startsWith(`${resourceManagerUrl}/`)) {
    throw new CloudError('invalidRequest', 'Cost Management answered a next page outside Resource Manager.');
  }
  // A later page is asked for with the query again, as Cost Management expects.
  const request = createPipelineRequest({
    url,
    method: 'POST',
    headers: createHttpHeaders({ 'content-type': 'application/json', accept: 'application/json' }),
    body: buildCostQueryBody(query),
    abortSignal,
  });
  const response = await pipeline.sendRequest(httpClient, request);
  if (response.status !== 200) throw readArmError(response.status, response.bodyAsText ?? undefined);
  return readCostAnswer(response.bodyAsText ?? '{}', query.granularity);
}

// Columns are found by name, as their order follows the query's aggregations and groupings.
export function readCostAnswer(body: string, granularity: CostQuery['granularity']): CostPage {
  const answer = JSON.parse(body) as QueryAnswer;
  const columns = answer.properties?.columns ?? [];
  const find = (name: string) =>
    columns.findIndex((column) => column.name.toLowerCase() === name.toLowerCase());
  const costColumn = find('Cost') >= 0 ? find('Cost') : find('PreTaxCost');
  const quantityColumn = find('UsageQuantity');
  const dateColumn = granularity === 'Daily' ? find('UsageDate') : find('BillingMonth');
  const resourceColumn = find('ResourceId');
  const serviceColumn = find('ServiceName');
  const currencyColumn = find('Currency');
  if (costColumn < 0 || dateColumn < 0 || resourceColumn < 0 || serviceColumn < 0) {
    throw new CloudError('unavailable', 'Cost Management answered without the columns asked for.');
  }
  const rows: CostRow[] = (answer.properties?.rows ?? []).map((row) => ({
    date: readDate(row[dateColumn]),
    resourceId: String(row[resourceColumn] ?? '').toLowerCase(),
    serviceName: String(row[serviceColumn] ?? ''),
    cost: Number(row[costColumn] ?? 0),
    usageQuantity: quantityColumn >= 0 ? Number(row[quantityColumn] ?? 0) : 0,
    currency: currencyColumn >= 0 ? String(row[currencyColumn] ?? 'USD') : 'USD',
  }));
  return { rows, nextLink: answer.properties?.nextLink ?? null };
}

// UsageDate comes as the number 20261101; BillingMonth as '2026-11-01T00:00:00'.
function readDate(value: string | number | undefined): string {
  const text = String(value ?? '');
  if (/^\d{8}$/.test(text)) return `${text.slice(0, 4)}-${text.slice(4, 6)}-${text.slice(6, 8)}`;
  if (/^\d{4}-\d{2}-\d{2}/.test(text)) return text.slice(0, 10);
  throw new CloudError(
    'unavailable',
    `Cost Management answered a date it does not document: ${text.slice(0, 40)}.`,
  );
}

interface BudgetAnswer {
  value?: {
    name?: string;
    properties?: {
      amount?: number;
      timeGrain?: string;
      timePeriod?: { startDate?: string; endDate?: string | null };
      currentSpend?: { amount?: number; unit?: string } | null;
      forecastSpend?: { amount?: number; unit?: string } | null;
    };
  }[];
  nextLink?: string | null;
}

// Consumption's budgets of a subscription, through the cost pipeline (its token and throttle rule).
export async function sendBudgetsRead(
  pipeline: Pipeline,
  httpClient: HttpClient,
  resourceManagerUrl: string,
  subscriptionId: string,
  abortSignal: AbortSignal,
): Promise<CloudBudget[]> {
  const budgets: CloudBudget[] = [];
  let url: string | null =
    `${resourceManagerUrl}/subscriptions/${encodeURIComponent(subscriptionId)}/providers/Microsoft.Consumption/budgets?api-version=${consumptionApiVersion}`;
  for (let page = 0; url !== null && page < budgetPageLimit; page += 1) {
    if (!url.startsWith(`${resourceManagerUrl}/`)) {
      throw new CloudError('invalidRequest', 'Consumption answered a next page outside Resource Manager.');
    }
    const request = createPipelineRequest({
      url,
      method: 'GET',
      headers: createHttpHeaders({ accept: 'application/json' }),
      abortSignal,
    });
    const response = await pipeline.sendRequest(httpClient, request);
    if (response.status !== 200) throw readArmError(response.status, response.bodyAsText ?? undefined);
    const answer = readBudgetAnswer(response.bodyAsText ?? '{}');
    budgets.push(...answer.budgets);
    url = answer.nextLink;
  }
  return budgets;
}

export function readBudgetAnswer(body: string): { budgets: CloudBudget[]; nextLink: string | null } {
  const answer = JSON.parse(body) as BudgetAnswer;
  const budgets = (answer.value ?? []).map(
    (budget): CloudBudget => ({
      name: budget.name ?? '',
      amount: Number(budget.properties?.amount ?? 0),
      timeGrain: budget.properties?.timeGrain ?? '',
      startDate: (budget.properties?.timePeriod?.startDate ?? '').slice(0, 10),
      endDate: budget.properties?.timePeriod?.endDate?.slice(0, 10) ?? null,
      currentSpend: Number(budget.properties?.currentSpend?.amount ?? 0),
      forecastSpend:
        budget.properties?.forecastSpend?.amount === undefined
          ? null
          : Number(budget.properties.forecastSpend.amount),
      currency: budget.properties?.currentSpend?.unit ?? budget.properties?.forecastSpend?.unit ?? 'USD',
    }),
  );
  return { budgets, nextLink: answer.nextLink ?? null };
}
