// The CloudProvider on Azure: Entra ID sign-in (ClientSecretCredential), Resource Manager
// (subscriptions, resources, virtual machines, sizes), Azure Monitor (batch and per-resource
// metrics) and the Retail Prices API. Every endpoint and the trusted CA come from config.
import { ComputeManagementClient } from '@azure/arm-compute';
import { MonitorClient } from '@azure/arm-monitor';
import { ResourceManagementClient } from '@azure/arm-resources';
import {
  createDefaultHttpClient,
  createHttpHeaders,
  createPipelineFromOptions,
  createPipelineRequest,
  type HttpClient,
  type Pipeline,
  type PipelineRequest,
  type PipelineResponse,
  type PipelineRetryOptions,
} from '@azure/core-rest-pipeline';
import { ClientSecretCredential } from '@azure/identity';
import { MetricsClient } from '@azure/monitor-query-metrics';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import https from 'node:https';
import tls from 'node:tls';
import { setImmediate } from 'node:timers/promises';
import type { AzureConfig } from '../../config';
import type {
  CloudCallOptions,
  CloudCredentials,
  CloudOperation,
  CloudOperationStatus,
  CloudPowerAction,
  CloudProvider,
  CloudResource,
  CloudSubscription,
  CloudVirtualMachineState,
  CloudVmSku,
  CloudWriteAccess,
  MetricAggregation,
  MetricBatch,
  MetricSeries,
  MetricWindow,
  RetailPrice,
  RetailPriceQuery,
} from '../cloud-provider';
import { CloudError } from '../cloud-provider';
import { readVmSkus, readVmRequirements, type VirtualMachineModel } from './azure-catalog';
import { readArmError, toCloudError } from './azure-errors';
import { readVirtualMachineWriteAccess } from './azure-permissions';
import { readOperationStatus, readVirtualMachine, submitPowerAction, submitResize } from './azure-writes';

// The SDK's retry policy waits out Retry-After on 429 and 503 (its throttling strategy) and backs
// off exponentially on other transient failures; the operation deadline bounds the whole.
const retryOptions: PipelineRetryOptions = { maxRetries: 8, retryDelayInMs: 500, maxRetryDelayInMs: 20_000 };
const subscriptionsApiVersion = '2022-12-01';
const resourcesApiVersion = '2021-04-01';
const computeApiVersion = '2024-07-01';
const virtualMachineType = 'microsoft.compute/virtualmachines';
const maxCachedPrincipals = 500;
const metricsBatchApiVersion = '2024-02-01';

interface PrincipalClients {
  credential: ClientSecretCredential;
  resourceClients: Map<string, ResourceManagementClient>;
  computeClients: Map<string, ComputeManagementClient>;
  monitorClients: Map<string, MonitorClient>;
  // By region, with the endpoint each was made for: the batch call is addressed through its pipeline.
  metricsClients: Map<string, { client: MetricsClient; endpoint: string }>;
}

// Reads the extra CA once, at start-up.
export function createAzureGateway(config: AzureConfig): AzureGateway {
  return new AzureGateway(config, config.caFile ? readFileSync(config.caFile, 'utf8') : undefined);
}

export class AzureGateway implements CloudProvider {
  private readonly agent: https.Agent;
  private readonly principals = new Map<string, PrincipalClients>();
  private readonly httpClient: HttpClient = createDefaultHttpClient();
  private readonly pricesPipeline: Pipeline;
  private readonly scope: string;

  constructor(
    private readonly config: AzureConfig,
    extraCaPem?: string,
  ) {
    // Passing `ca` replaces Node's bundled roots, so they are kept alongside the extra CA. One
    // secure context for every socket: given `ca` alone, each new socket parses ~140 roots again,
    // synchronously, which stalls the event loop for milliseconds per connection.
    this.agent = new https.Agent({
      keepAlive: true,
      maxSockets: 64,
      secureContext: extraCaPem
        ? tls.createSecureContext({ ca: [...tls.rootCertificates, extraCaPem] })
        : undefined,
    });
    this.pricesPipeline = createPipelineFromOptions({ agent: this.agent, retryOptions });
    this.scope = `${config.resourceManagerUrl}/.default`;
  }

  async listSubscriptions(
    credentials: CloudCredentials,
    options?: CloudCallOptions,
  ): Promise<CloudSubscription[]> {
    return this.run('Listing subscriptions', options, async (abortSignal) => {
      const client = this.getResourceClient(credentials, '00000000-0000-0000-0000-000000000000');
      const subscriptions: CloudSubscription[] = [];
      const firstUrl = `${this.config.resourceManagerUrl}/subscriptions?api-version=${subscriptionsApiVersion}`;
      await readPages<SubscriptionItem>(client, firstUrl, abortSignal, (page) => {
        for (const item of page) {
          subscriptions.push({
            subscriptionId: item.subscriptionId.toLowerCase(),
            displayName: item.displayName ?? item.subscriptionId,
            state: item.state ?? 'Enabled',
          });
        }
      });
      return subscriptions;
    });
  }

  async readWriteAccess(
    credentials: CloudCredentials,
    subscriptionId: string,
    options?: CloudCallOptions,
  ): Promise<CloudWriteAccess> {
    return this.run(`Reading the permissions on subscription ${subscriptionId}`, options, (abortSignal) =>
      readVirtualMachineWriteAccess(
        this.getResourceClient(credentials, subscriptionId),
        this.config.resourceManagerUrl,
        subscriptionId,
        abortSignal,
      ),
    );
  }

  async listResources(
    credentials: CloudCredentials,
    subscriptionId: string,
    options?: CloudCallOptions,
  ): Promise<CloudResource[]> {
    return this.run(`Listing resources of subscription ${subscriptionId}`, options, async (abortSignal) => {
      // Read as JSON through the clients' pipelines rather than their model deserializers, which
      // took 300–600 ms of event-loop time per 1,000-machine page and froze every API call meanwhile.
      const client = this.getResourceClient(credentials, subscriptionId);
      const subscriptionUrl = `${this.config.resourceManagerUrl}/subscriptions/${encodeURIComponent(subscriptionId)}`;
      const genericResources: GenericResourceItem[] = [];
      const machines: VirtualMachineItem[] = [];
      await Promise.all([
        readPages<GenericResourceItem>(
          client,
          `${subscriptionUrl}/resources?api-version=${resourcesApiVersion}`,
          abortSignal,
          (page) => genericResources.push(...page),
        ),
        readPages<VirtualMachineItem>(
          client,
          `${subscriptionUrl}/providers/Microsoft.Compute/virtualMachines?api-version=${computeApiVersion}&statusOnly=true`,
          abortSignal,
          (page) => machines.push(...page),
        ),
      ]);
      const machinesById = new Map(machines.map((machine) => [machine.id?.toLowerCase(), machine]));
      const resources: CloudResource[] = [];
      for (const resource of genericResources) {
        if (!resource.id || !resource.type) continue;
        const isVirtualMachine = resource.type.toLowerCase() === virtualMachineType;
        const machine = isVirtualMachine ? machinesById.get(resource.id.toLowerCase()) : undefined;
        resources.push({
          id: resource.id,
          name: resource.name ?? resource.id.split('/').at(-1) ?? resource.id,
          type: resource.type,
          resourceGroup: readResourceGroup(resource.id),
          region: (resource.location ?? '').toLowerCase(),
          sku: machine?.properties?.hardwareProfile?.vmSize ?? resource.sku?.name ?? null,
          powerState: isVirtualMachine ? readPowerState(machine?.properties?.instanceView?.statuses) : null,
          ...(isVirtualMachine ? { vmRequirements: readVmRequirements(machine?.properties) } : {}),
        });
      }
      return resources;
    });
  }

  async listVmSkus(
    credentials: CloudCredentials,
    subscriptionId: string,
    region: string,
    options?: CloudCallOptions,
  ): Promise<CloudVmSku[]> {
    return this.run(`Listing VM sizes of ${region}`, options, (abortSignal) =>
      readVmSkus(
        this.getComputeClient(credentials, subscriptionId),
        this.config.resourceManagerUrl,
        subscriptionId,
        region,
        abortSignal,
      ),
    );
  }

  async getMetricBatch(
    credentials: CloudCredentials,
    batch: MetricBatch,
    window: MetricWindow,
    options?: CloudCallOptions,
  ): Promise<MetricSeries[]> {
    if (batch.resourceIds.length === 0) return [];
    if (batch.resourceIds.length > 50) {
      throw new CloudError('invalidRequest', 'A metrics batch holds at most 50 resources.');
    }
    return this.run(
      `Reading metrics of ${batch.resourceIds.length} resources`,
      options,
      async (abortSignal) => {
        const { client, endpoint } = this.getMetricsClient(credentials, batch.region);
        // Sent through the client's own pipeline (token, retries honouring Retry-After, the trusted
        // agent) but parsed here: the generated deserializer builds a Date object per point, about
        // 7 ms of event-loop time per 50-machine answer, where JSON.parse and Date.parse take ~2 ms.
        const request = createPipelineRequest({
          url: buildBatchUrl(endpoint, batch.subscriptionId, window),
          method: 'POST',
          headers: createHttpHeaders({ 'content-type': 'application/json', accept: 'application/json' }),
          body: JSON.stringify({ resourceids: batch.resourceIds }),
          abortSignal,
        });
        const response = await client.pipeline.sendRequest(this.httpClient, request);
        if (response.status !== 200) throw readArmError(response.status, response.bodyAsText ?? undefined);
        const readAnswer = async () => readBatchAnswer(response.bodyAsText ?? '{}', window.aggregations);
        return options?.processingLane ? options.processingLane.run(readAnswer) : readAnswer();
      },
    );
  }

  async getResourceMetrics(
    credentials: CloudCredentials,
    resourceId: string,
    window: MetricWindow,
    options?: CloudCallOptions,
  ): Promise<MetricSeries[]> {
    return this.run(`Reading metrics of ${resourceId}`, options, async (abortSignal) => {
      const client = this.getMonitorClient(credentials, readSubscriptionId(resourceId));
      const response = await client.metrics.list(resourceId, {
        timespan: `${window.start.toISOString()}/${window.end.toISOString()}`,
        interval: window.interval,
        metricnames: window.metricNames.join(','),
        aggregation: window.aggregations.map(capitalize).join(','),
        metricnamespace: window.resourceType,
        abortSignal,
      });
      return response.value.map((metric) =>
        toSeries(resourceId, metric.name.value, metric.unit, metric.timeseries ?? [], window.aggregations),
      );
    });
  }

  async listRetailPrices(query: RetailPriceQuery, options?: CloudCallOptions): Promise<RetailPrice[]> {
    return this.run(`Reading retail prices of ${query.serviceName}`, options, async (abortSignal) => {
      const filters = [`serviceName eq '${escapeOData(query.serviceName)}'`, "priceType eq 'Consumption'"];
      if (query.region) filters.push(`armRegionName eq '${escapeOData(query.region)}'`);
      if (query.skuNames && query.skuNames.length > 0) {
        filters.push(`(${query.skuNames.map((sku) => `armSkuName eq '${escapeOData(sku)}'`).join(' or ')})`);
      }
      const parameters = new URLSearchParams({
        'api-version': '2023-01-01-preview',
        currencyCode: query.currencyCode ?? 'USD',
        $filter: filters.join(' and '),
      });
      const prices: RetailPrice[] = [];
      let url: string | undefined = `${this.config.pricesUrl}/api/retail/prices?${parameters.toString()}`;
      while (url) {
        const request = createPipelineRequest({ url, method: 'GET', abortSignal });
        const response = await this.pricesPipeline.sendRequest(this.httpClient, request);
        if (response.status !== 200) throw readArmError(response.status, response.bodyAsText ?? undefined);
        const page = JSON.parse(response.bodyAsText ?? '{}') as RetailPricePage;
        for (const item of page.Items ?? []) {
          prices.push({
            skuName: item.skuName,
            armSkuName: item.armSkuName,
            productName: item.productName,
            meterName: item.meterName,
            region: item.armRegionName,
            retailPrice: item.retailPrice,
            unitOfMeasure: item.unitOfMeasure,
            currencyCode: item.currencyCode,
            type: item.type,
          });
        }
        url = page.NextPageLink ?? undefined;
      }
      return prices;
    });
  }

  async getVirtualMachine(
    credentials: CloudCredentials,
    resourceId: string,
    options?: CloudCallOptions,
  ): Promise<CloudVirtualMachineState> {
    return this.run(`Reading ${resourceId}`, options, (abortSignal) =>
      readVirtualMachine(
        this.getArmClient(credentials, resourceId),
        this.config.resourceManagerUrl,
        resourceId,
        abortSignal,
      ),
    );
  }

  async beginResize(
    credentials: CloudCredentials,
    resourceId: string,
    size: string,
    options?: CloudCallOptions,
  ): Promise<CloudOperation> {
    return this.run(`Resizing ${resourceId} to ${size}`, options, (abortSignal) =>
      submitResize(
        this.getArmClient(credentials, resourceId),
        this.config.resourceManagerUrl,
        resourceId,
        size,
        abortSignal,
      ),
    );
  }

  async beginPowerAction(
    credentials: CloudCredentials,
    resourceId: string,
    action: CloudPowerAction,
    options?: CloudCallOptions,
  ): Promise<CloudOperation> {
    return this.run(`${capitalize(action)} of ${resourceId}`, options, (abortSignal) =>
      submitPowerAction(
        this.getArmClient(credentials, resourceId),
        this.config.resourceManagerUrl,
        resourceId,
        action,
        abortSignal,
      ),
    );
  }

  async readOperation(
    credentials: CloudCredentials,
    operationUrl: string,
    options?: CloudCallOptions,
  ): Promise<CloudOperationStatus> {
    return this.run('Reading an Azure operation', options, (abortSignal) =>
      readOperationStatus(
        this.getArmClient(credentials, operationUrl.slice(this.config.resourceManagerUrl.length)),
        this.config.resourceManagerUrl,
        operationUrl,
        abortSignal,
      ),
    );
  }

  // The compute client of the subscription a resource (or operation) path names.
  private getArmClient(credentials: CloudCredentials, path: string): ComputeManagementClient {
    return this.getComputeClient(credentials, readSubscriptionId(path));
  }

  // Every operation: one deadline over all its pages and retries, errors made safe.
  private async run<Result>(
    operation: string,
    options: CloudCallOptions | undefined,
    call: (abortSignal: AbortSignal) => Promise<Result>,
  ): Promise<Result> {
    const deadline = AbortSignal.timeout(this.config.timeoutMs);
    const abortSignal = options?.signal ? AbortSignal.any([options.signal, deadline]) : deadline;
    try {
      return await call(abortSignal);
    } catch (error) {
      throw toCloudError(error, operation);
    }
  }

  private getPrincipal(credentials: CloudCredentials): PrincipalClients {
    const key = principalKey(credentials);
    let principal = this.principals.get(key);
    if (principal) {
      // Least recently used first: a principal in use moves to the end, so the ones of deleted
      // tenants (in whichever thread or process cached them) age out.
      this.principals.delete(key);
    } else {
      if (this.principals.size >= maxCachedPrincipals) {
        this.principals.delete(this.principals.keys().next().value!);
      }
      principal = {
        // One credential per principal keeps its token cached across calls and jobs.
        credential: new ClientSecretCredential(
          credentials.tenantId,
          credentials.applicationId,
          credentials.secret,
          {
            authorityHost: this.config.authorityHost,
            disableInstanceDiscovery: true,
            agent: this.agent,
            retryOptions,
          },
        ),
        resourceClients: new Map(),
        computeClients: new Map(),
        monitorClients: new Map(),
        metricsClients: new Map(),
      };
    }
    this.principals.set(key, principal);
    return principal;
  }

  private getResourceClient(credentials: CloudCredentials, subscriptionId: string): ResourceManagementClient {
    const principal = this.getPrincipal(credentials);
    return getOrCreate(principal.resourceClients, subscriptionId, () => {
      return new ResourceManagementClient(principal.credential, subscriptionId, this.armOptions());
    });
  }

  private getComputeClient(credentials: CloudCredentials, subscriptionId: string): ComputeManagementClient {
    const principal = this.getPrincipal(credentials);
    return getOrCreate(principal.computeClients, subscriptionId, () => {
      return new ComputeManagementClient(principal.credential, subscriptionId, this.armOptions());
    });
  }

  private getMonitorClient(credentials: CloudCredentials, subscriptionId: string): MonitorClient {
    const principal = this.getPrincipal(credentials);
    return getOrCreate(principal.monitorClients, subscriptionId, () => {
      return new MonitorClient(principal.credential, subscriptionId, this.armOptions());
    });
  }

  private getMetricsClient(
    credentials: CloudCredentials,
    region: string,
  ): { client: MetricsClient; endpoint: string } {
    const principal = this.getPrincipal(credentials);
    return getOrCreate(principal.metricsClients, region, () => {
      const endpoint = this.config.metricsUrlTemplate.replaceAll('{region}', encodeURIComponent(region));
      // Scopes rather than `audience`: the client appends no '/.default' to an audience it is given.
      const client = new MetricsClient(endpoint, principal.credential, {
        credentials: { scopes: [this.scope] },
        agent: this.agent,
        retryOptions,
      });
      return { client, endpoint };
    });
  }

  private armOptions() {
    return {
      endpoint: this.config.resourceManagerUrl,
      credentialScopes: [this.scope],
      agent: this.agent,
      retryOptions,
    };
  }
}

interface SubscriptionItem {
  subscriptionId: string;
  displayName?: string;
  state?: string;
}

interface GenericResourceItem {
  id?: string;
  name?: string;
  type?: string;
  location?: string;
  sku?: { name?: string };
}

interface VirtualMachineItem {
  id?: string;
  properties?: VirtualMachineModel & {
    hardwareProfile?: { vmSize?: string };
    instanceView?: { statuses?: { code?: string }[] };
  };
}

// Follows Resource Manager's nextLink paging; each page is handled on its own turn of the event loop.
async function readPages<Item>(
  client: { sendRequest(request: PipelineRequest): Promise<PipelineResponse> },
  firstUrl: string,
  abortSignal: AbortSignal,
  onPage: (items: Item[]) => void,
): Promise<void> {
  let url: string | undefined = firstUrl;
  while (url) {
    const response = await client.sendRequest(createPipelineRequest({ url, method: 'GET', abortSignal }));
    if (response.status !== 200) throw readArmError(response.status, response.bodyAsText ?? undefined);
    const page = JSON.parse(response.bodyAsText ?? '{}') as { value?: Item[]; nextLink?: string | null };
    onPage(page.value ?? []);
    url = page.nextLink ?? undefined;
    await setImmediate();
  }
}

interface RetailPricePage {
  Items?: {
    skuName: string;
    armSkuName: string;
    productName: string;
    meterName: string;
    armRegionName: string;
    retailPrice: number;
    unitOfMeasure: string;
    currencyCode: string;
    type: string;
  }[];
  NextPageLink?: string | null;
}

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

function buildBatchUrl(endpoint: string, subscriptionId: string, window: MetricWindow): string {
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

function readBatchAnswer(body: string, aggregations: MetricAggregation[]): MetricSeries[] {
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

// A metric point as the SDK gives it (timeStamp a Date) or as the wire carries it (an ISO string).
type MetricPointLike = { timeStamp: Date | string } & Partial<Record<MetricAggregation, number>>;

function toSeries(
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

function getOrCreate<Value>(map: Map<string, Value>, key: string, create: () => Value): Value {
  let value = map.get(key);
  if (value === undefined) {
    value = create();
    map.set(key, value);
  }
  return value;
}

function principalKey(credentials: CloudCredentials): string {
  const secretHash = createHash('sha256').update(credentials.secret).digest('base64url');
  return `${credentials.tenantId.toLowerCase()}|${credentials.applicationId.toLowerCase()}|${secretHash}`;
}

function readResourceGroup(resourceId: string): string {
  return /\/resourceGroups\/([^/]+)/i.exec(resourceId)?.[1] ?? '';
}

function readSubscriptionId(resourceId: string): string {
  const subscriptionId = /\/subscriptions\/([^/]+)/i.exec(resourceId)?.[1];
  if (!subscriptionId) throw new CloudError('invalidRequest', `Not a resource id: ${resourceId}`);
  return subscriptionId;
}

function readPowerState(statuses: { code?: string }[] | undefined): string | null {
  const code = statuses?.find((status) => status.code?.toLowerCase().startsWith('powerstate/'))?.code;
  return code ? code.slice('PowerState/'.length).toLowerCase() : null;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function escapeOData(text: string): string {
  return text.replaceAll("'", "''");
}
