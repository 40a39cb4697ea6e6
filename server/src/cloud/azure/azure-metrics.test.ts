import {
  createHttpHeaders,
  type HttpClient,
  type PipelineRequest,
  type PipelineResponse,
} from '@azure/core-rest-pipeline';
import { describe, expect, it } from 'vitest';
import { isCloudError, type MetricWindow } from '../cloud-provider';
import { buildBatchUrl, checkBatchSize, readBatchAnswer, readMetricBatch, toSeries } from './azure-metrics';

const window: MetricWindow = {
  metricNames: ['Percentage CPU', 'Available Memory Bytes'],
  resourceType: 'Microsoft.Compute/virtualMachines',
  start: new Date('2026-11-23T10:00:00Z'),
  end: new Date('2026-11-23T11:00:00Z'),
  interval: 'PT1M',
  aggregations: ['average', 'maximum'],
};
const vmId = '/subscriptions/sub-1/resourceGroups/rg/providers/Microsoft.Compute/virtualMachines/vm-1';

function metric(name: string, data: unknown[], extra: Record<string, unknown> = {}) {
  return { name: { value: name }, unit: 'Percent', timeseries: [{ data }], ...extra };
}

describe('buildBatchUrl', () => {
  it("addresses the subscription's getBatch with the window, names and aggregations", () => {
    const url = new URL(buildBatchUrl('https://eastus.metrics.example', 'sub 1', window));
    expect(url.origin + url.pathname).toBe(
      'https://eastus.metrics.example/subscriptions/sub%201/metrics:getBatch',
    );
    expect(Object.fromEntries(url.searchParams)).toEqual({
      'api-version': '2024-02-01',
      starttime: '2026-11-23T10:00:00.000Z',
      endtime: '2026-11-23T11:00:00.000Z',
      interval: 'PT1M',
      metricnamespace: 'Microsoft.Compute/virtualMachines',
      metricnames: 'Percentage CPU,Available Memory Bytes',
      aggregation: 'average,maximum',
    });
  });
});

describe('readBatchAnswer', () => {
  it('reads each resource and metric into parallel arrays of times and values', () => {
    const body = JSON.stringify({
      values: [
        {
          resourceid: vmId,
          value: [
            metric('Percentage CPU', [
              { timeStamp: '2026-11-23T10:00:00Z', average: 12.5, maximum: 40 },
              { timeStamp: '2026-11-23T10:01:00Z', average: 13 },
            ]),
          ],
        },
      ],
    });
    expect(readBatchAnswer(body, ['average', 'maximum'])).toEqual([
      {
        resourceId: vmId,
        metricName: 'Percentage CPU',
        unit: 'Percent',
        times: [Date.parse('2026-11-23T10:00:00Z'), Date.parse('2026-11-23T10:01:00Z')],
        values: { average: [12.5, 13], maximum: [40, null] },
      },
    ]);
  });

  it('leaves out results without a resource id and metrics Azure could not read', () => {
    const body = JSON.stringify({
      values: [
        { value: [metric('Percentage CPU', [])] },
        {
          resourceid: vmId,
          value: [
            metric('Percentage CPU', [], { errorCode: 'Success' }),
            metric('Available Memory Bytes', [], { errorCode: 'ResourceNotFound' }),
          ],
        },
      ],
    });
    expect(readBatchAnswer(body, ['average']).map((series) => series.metricName)).toEqual(['Percentage CPU']);
  });

  it('reads an answer with no values, no metrics or no time series as nothing to add', () => {
    expect(readBatchAnswer('{}', ['average'])).toEqual([]);
    expect(readBatchAnswer(JSON.stringify({ values: [{ resourceid: vmId }] }), ['average'])).toEqual([]);
    const [series] = readBatchAnswer(
      JSON.stringify({
        values: [{ resourceid: vmId, value: [{ name: { value: 'Percentage CPU' }, unit: 'Percent' }] }],
      }),
      ['average'],
    );
    expect(series).toEqual({
      resourceId: vmId,
      metricName: 'Percentage CPU',
      unit: 'Percent',
      times: [],
      values: { average: [] },
    });
  });

  it('refuses an answer that is not JSON', () => {
    expect(() => readBatchAnswer('<html>Bad Gateway</html>', ['average'])).toThrow(SyntaxError);
  });
});

describe('toSeries', () => {
  it('reads the SDK points (Date time stamps) like the wire ones, the first time series only', () => {
    const series = toSeries(
      vmId,
      'Percentage CPU',
      'Percent',
      [
        { data: [{ timeStamp: new Date('2026-11-23T10:00:00Z'), maximum: 90 }] },
        { data: [{ timeStamp: new Date('2026-11-23T10:05:00Z'), maximum: 10 }] },
      ],
      ['maximum', 'total'],
    );
    expect(series.times).toEqual([Date.parse('2026-11-23T10:00:00Z')]);
    expect(series.values).toEqual({ maximum: [90], total: [null] });
  });
});

describe('checkBatchSize', () => {
  it("refuses more than getBatch's 50 resources as an invalid request", () => {
    const batch = (count: number) => ({
      subscriptionId: 'sub-1',
      region: 'eastus',
      resourceIds: Array.from({ length: count }, (_, index) => `${vmId}${index}`),
    });
    expect(() => checkBatchSize(batch(50))).not.toThrow();
    expect(() => checkBatchSize(batch(51))).toThrow(
      expect.toSatisfy((error) => isCloudError(error) && error.kind === 'invalidRequest'),
    );
  });
});

describe('readMetricBatch', () => {
  const httpClient: HttpClient = {
    sendRequest: () => Promise.reject(new Error('The fake pipeline sends nothing.')),
  };

  function createMetrics(status: number, body: unknown) {
    const requests: PipelineRequest[] = [];
    const pipeline = {
      sendRequest: async (_httpClient: HttpClient, request: PipelineRequest): Promise<PipelineResponse> => {
        requests.push(request);
        return { request, status, headers: createHttpHeaders(), bodyAsText: JSON.stringify(body) };
      },
    };
    return { metrics: { client: { pipeline }, endpoint: 'https://eastus.metrics.example' }, requests };
  }
  const batch = { subscriptionId: 'sub-1', region: 'eastus', resourceIds: [vmId] };

  it('posts the resource ids and reads the answer in the processing lane given', async () => {
    const { metrics, requests } = createMetrics(200, {
      values: [
        {
          resourceid: vmId,
          value: [metric('Percentage CPU', [{ timeStamp: '2026-11-23T10:00:00Z', average: 5 }])],
        },
      ],
    });
    const lanes: string[] = [];
    const processingLane = {
      run: <Result>(work: () => Promise<Result>) => {
        lanes.push('ran');
        return work();
      },
    };
    const series = await readMetricBatch(
      metrics,
      httpClient,
      batch,
      window,
      new AbortController().signal,
      processingLane,
    );
    expect(series).toHaveLength(1);
    expect(lanes).toEqual(['ran']);
    expect(requests[0]!.method).toBe('POST');
    expect(JSON.parse(String(requests[0]!.body))).toEqual({ resourceids: [vmId] });
  });

  it("throws Azure's code and text when the batch is refused", async () => {
    const { metrics } = createMetrics(429, { error: { code: 'TooManyRequests', message: 'Wait' } });
    await expect(
      readMetricBatch(metrics, httpClient, batch, window, new AbortController().signal),
    ).rejects.toMatchObject({ statusCode: 429, code: 'TooManyRequests' });
  });
});
