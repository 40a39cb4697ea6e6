// Azure Monitor reads: getBatch for virtual machines (up to 50 resources of one subscription, region
// and type a call) and the per-resource metrics list, both answered as MetricSeries.
import type { MonitorClient } from '@azure/arm-monitor';
import {
  createHttpHeaders,
  createPipelineRequest,
  type HttpClient,
  type Pipeline,
} from '@azure/core-rest-pipeline';
import type {
  CloudCallOptions,
  MetricAggregation,
  MetricBatch,
  MetricSeries,
  MetricWindow,
} from '../cloud-provider';
import { CloudError } from '../cloud-provider';
import { readArmError } from './azure-errors';

const metricsBatchApiVersion = '2024-02-01';
// getBatch's own limit on resourceids.
export const maxBatchResources = 50;

// The getBatch answer as Azure Monitor writes it (api-version 2024-02-01).
interface BatchAnswer {
  values?: {
    resourceid?: string;
    value?: {
      name: { value: string };
      unit: string;
      errorCode?: string;
      timeseries?: { data?: ({ timeStamp: string } & Partial<Record<MetricAggregation, number>>)[] }[];
    }[];
  }[];
}

// A metric point as the SDK gives it (timeStamp a Date) or as the wire carries it (an ISO string).
type MetricPointLike = { timeStamp: Date | string } & Partial<Record<MetricAggregation, number>>;

// Refused before any client is made or request sent: a larger batch is the caller's mistake.
export function checkBatchSize(batch: MetricBatch): void {
  if (batch.resourceIds.length > maxBatchResources) {
    throw new CloudError('invalidRequest', `A metrics batch holds at most ${maxBatchResources} resources.`);
  }
}

export async function readMetricBatch(
  metrics: { client: { pipeline: Pick<Pipeline, 'sendRequest'> }; endpoint: string },
  httpClient: HttpClient,
  batch: MetricBatch,
  window: MetricWindow,
  abortSignal: AbortSignal,
  processingLane?: CloudCallOptions['processingLane'],
): Promise<MetricSeries[]> {
  // Sent through the client's own pipeline (token, retries honouring Retry-After, the trusted
  // agent) but parsed here: the generated deserializer builds a Date object per point, about
  // 7 ms of event-loop time per 50-machine answer, where JSON.parse and Date.parse take ~2 ms.
  const request = createPipelineRequest({
    url: buildBatchUrl(metrics.endpoint, batch.subscriptionId, window),
    method: 'POST',
    headers: createHttpHeaders({ 'content-type': 'application/json', accept: 'application/json' }),
    body: JSON.stringify({ resourceids: batch.resourceIds }),
    abortSignal,
  });
  const response = await metrics.client.pipeline.sendRequest(httpClient, request);
  if (response.status !== 200) throw readArmError(response.status, response.bodyAsText ?? undefined);
  const readAnswer = async () => readBatchAnswer(response.bodyAsText ?? '{}', window.aggregations);
  return processingLane ? processingLane.run(readAnswer) : readAnswer();
}

export async function readResourceMetrics(
  client: MonitorClient,
  resourceId: string,
  window: MetricWindow,
  abortSignal: AbortSignal,
): Promise<MetricSeries[]> {
  const response = await client.metrics.list(resourceId, {
    timespan: `${window.start.toISOString()}/${window.end.toISOString()}`,
    interval: window.interval,
    metricnames: window.metricNames.join(','),
    aggregation: window.aggregations.map(toAzureAggregation).join(','),
    metricnamespace: window.resourceType,
    abortSignal,
  });
  return response.value.map((metric) =>
    toSeries(resourceId, metric.name.value, metric.unit, metric.timeseries ?? [], window.aggregations),
  );
}

export function buildBatchUrl(endpoint: string, subscriptionId: string, window: MetricWindow): string {
  const query = new URLSearchParams({
    'api-version': metricsBatchApiVersion,
    starttime: window.start.toISOString(),
    endtime: window.end.toISOString(),
    interval: window.interval,
    metricnamespace: window.resourceType,
    metricnames: window.metricNames.join(','),
    aggregation: window.aggregations.join(','),
  });
  return `${endpoint}/subscriptions/${encodeURIComponent(subscriptionId)}/metrics:getBatch?${query}`;
}

// A metric Azure could not read for one resource (its errorCode other than Success) is left out;
// the others of the answer still count.
export function readBatchAnswer(body: string, aggregations: MetricAggregation[]): MetricSeries[] {
  const answer = JSON.parse(body) as BatchAnswer;
  const series: MetricSeries[] = [];
  for (const result of answer.values ?? []) {
    if (!result.resourceid) continue;
    for (const metric of result.value ?? []) {
      if (metric.errorCode && metric.errorCode !== 'Success') continue;
      series.push(
        toSeries(result.resourceid, metric.name.value, metric.unit, metric.timeseries ?? [], aggregations),
      );
    }
  }
  return series;
}

export function toSeries(
  resourceId: string,
  metricName: string,
  unit: string,
  timeseries: { data?: MetricPointLike[] }[],
  aggregations: MetricAggregation[],
): MetricSeries {
  const times: number[] = [];
  const columns = aggregations.map((aggregation) => ({ aggregation, values: [] as (number | null)[] }));
  // Platform metrics without dimensions come as one time series.
  for (const point of timeseries[0]?.data ?? []) {
    times.push(typeof point.timeStamp === 'string' ? Date.parse(point.timeStamp) : point.timeStamp.getTime());
    for (const column of columns) column.values.push(point[column.aggregation] ?? null);
  }
  const values = Object.fromEntries(columns.map((column) => [column.aggregation, column.values]));
  return { resourceId, metricName, unit, times, values };
}

// The metrics list spells aggregations as Azure names them: 'average' → 'Average'.
function toAzureAggregation(aggregation: MetricAggregation): string {
  return aggregation.charAt(0).toUpperCase() + aggregation.slice(1);
}
