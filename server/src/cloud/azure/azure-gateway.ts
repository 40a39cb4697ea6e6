// The CloudProvider on Azure, composed from one file per concern: the SDK clients and credentials
// (azure-clients), Resource Manager reads (azure-resources, azure-permissions), Azure Monitor
// (azure-metrics), VM sizes and retail prices (azure-catalog) and the writes (azure-writes). Here
// each operation gets its deadline and its errors made safe. Every endpoint and the trusted CA come
// from config.
import { readFileSync } from 'node:fs';
import type { AzureConfig } from '../../config';
import type {
  CloudActivityEvent,
  CloudBudget,
  CloudCallOptions,
  CloudCredentials,
  CloudOperation,
  CloudOperationStatus,
  CloudPowerAction,
  CloudProvider,
  CloudResource,
  CloudResourceState,
  CloudSku,
  CloudSnapshotRequest,
  CloudSubscription,
  CloudVirtualMachineState,
  CloudVmSku,
  CloudWriteAccess,
  CostPage,
  CostQuery,
  MetricBatch,
  MetricSeries,
  MetricWindow,
  RetailPrice,
  RetailPriceQuery,
} from '../cloud-provider';
import type {
  SecurityInventory,
  SecurityInventoryReader,
  SyncedSecurityRecords,
} from '../security-inventory';
import { readActivityEvents } from './azure-activity';
import { readSubscriptionId } from './azure-arm';
import { readRetailPrices, readVmSkus } from './azure-catalog';
import { AzureClients } from './azure-clients';
import { sendBudgetsRead, sendCostQuery } from './azure-costs';
import { toCloudError } from './azure-errors';
import { checkBatchSize, readMetricBatch, readResourceMetrics } from './azure-metrics';
import { readVirtualMachineWriteAccess } from './azure-permissions';
import { readResourceState } from './azure-resource-details';
import { readResources, readSubscriptions, readVirtualMachine } from './azure-resources';
import { readSecurityInventory } from './azure-security';
import {
  readOperationStatus,
  submitDelete,
  submitPowerAction,
  submitResize,
  submitSkuChange,
  submitSnapshot,
  submitTagsMerge,
} from './azure-writes';

// Listing subscriptions names no subscription; the Resource Manager client still wants one.
const noSubscriptionId = '00000000-0000-0000-0000-000000000000';

// Reads the extra CA once, at start-up.
export function createAzureGateway(config: AzureConfig): AzureGateway {
  return new AzureGateway(config, config.caFile ? readFileSync(config.caFile, 'utf8') : undefined);
}

export class AzureGateway implements CloudProvider, SecurityInventoryReader {
  private readonly clients: AzureClients;

  constructor(
    private readonly config: AzureConfig,
    extraCaPem?: string,
  ) {
    this.clients = new AzureClients(config, extraCaPem);
  }

  async listSubscriptions(
    credentials: CloudCredentials,
    options?: CloudCallOptions,
  ): Promise<CloudSubscription[]> {
    return this.run('Listing subscriptions', options, (abortSignal) =>
      readSubscriptions(
        this.clients.getResourceClient(credentials, noSubscriptionId),
        this.config.resourceManagerUrl,
        abortSignal,
      ),
    );
  }

  async readWriteAccess(
    credentials: CloudCredentials,
    subscriptionId: string,
    options?: CloudCallOptions,
  ): Promise<CloudWriteAccess> {
    return this.run(`Reading the permissions on subscription ${subscriptionId}`, options, (abortSignal) =>
      readVirtualMachineWriteAccess(
        this.clients.getResourceClient(credentials, subscriptionId),
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
    return this.run(`Listing resources of subscription ${subscriptionId}`, options, (abortSignal) =>
      readResources(
        this.clients.getResourceClient(credentials, subscriptionId),
        this.config.resourceManagerUrl,
        subscriptionId,
        abortSignal,
      ),
    );
  }

  async listVmSkus(
    credentials: CloudCredentials,
    subscriptionId: string,
    region: string,
    options?: CloudCallOptions,
  ): Promise<CloudVmSku[]> {
    return this.run(`Listing VM sizes of ${region}`, options, (abortSignal) =>
      readVmSkus(
        this.clients.getComputeClient(credentials, subscriptionId),
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
    checkBatchSize(batch);
    return this.run(`Reading metrics of ${batch.resourceIds.length} resources`, options, (abortSignal) =>
      readMetricBatch(
        this.clients.getMetricsClient(credentials, batch.region),
        this.clients.httpClient,
        batch,
        window,
        abortSignal,
        options?.processingLane,
      ),
    );
  }

  async getResourceMetrics(
    credentials: CloudCredentials,
    resourceId: string,
    window: MetricWindow,
    options?: CloudCallOptions,
  ): Promise<MetricSeries[]> {
    return this.run(`Reading metrics of ${resourceId}`, options, (abortSignal) =>
      readResourceMetrics(
        this.clients.getMonitorClient(credentials, readSubscriptionId(resourceId)),
        resourceId,
        window,
        abortSignal,
      ),
    );
  }

  async listRetailPrices(query: RetailPriceQuery, options?: CloudCallOptions): Promise<RetailPrice[]> {
    return this.run(`Reading retail prices of ${query.serviceName}`, options, (abortSignal) =>
      readRetailPrices(
        this.clients.pricesPipeline,
        this.clients.httpClient,
        this.config.pricesUrl,
        query,
        abortSignal,
      ),
    );
  }

  async queryCosts(
    credentials: CloudCredentials,
    query: CostQuery,
    nextLink: string | null,
    options?: CloudCallOptions,
  ): Promise<CostPage> {
    return this.run(`Reading the costs of subscription ${query.subscriptionId}`, options, (abortSignal) =>
      sendCostQuery(
        this.clients.getCostPipeline(credentials),
        this.clients.httpClient,
        this.config.resourceManagerUrl,
        query,
        nextLink,
        abortSignal,
      ),
    );
  }

  async listActivityEvents(
    credentials: CloudCredentials,
    resourceId: string,
    since: Date,
    options?: CloudCallOptions,
  ): Promise<CloudActivityEvent[]> {
    return this.run(`Reading the Activity Log of ${resourceId}`, options, (abortSignal) =>
      readActivityEvents(
        this.clients.getMonitorClient(credentials, readSubscriptionId(resourceId)),
        resourceId,
        since,
        abortSignal,
      ),
    );
  }

  async listBudgets(
    credentials: CloudCredentials,
    subscriptionId: string,
    options?: CloudCallOptions,
  ): Promise<CloudBudget[]> {
    return this.run(`Reading the budgets of subscription ${subscriptionId}`, options, (abortSignal) =>
      sendBudgetsRead(
        this.clients.getCostPipeline(credentials),
        this.clients.httpClient,
        this.config.resourceManagerUrl,
        subscriptionId,
        abortSignal,
      ),
    );
  }

  async getVirtualMachine(
    credentials: CloudCredentials,
    resourceId: string,
    options?: CloudCallOptions,
  ): Promise<CloudVirtualMachineState> {
    return this.run(`Reading ${resourceId}`, options, (abortSignal) =>
      readVirtualMachine(
        this.clients.getComputeClientFor(credentials, resourceId),
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
        this.clients.getComputeClientFor(credentials, resourceId),
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
        this.clients.getComputeClientFor(credentials, resourceId),
        this.config.resourceManagerUrl,
        resourceId,
        action,
        abortSignal,
      ),
    );
  }

  async getResourceState(
    credentials: CloudCredentials,
    resourceId: string,
    options?: CloudCallOptions,
  ): Promise<CloudResourceState | null> {
    return this.run(`Reading ${resourceId}`, options, (abortSignal) =>
      readResourceState(
        this.clients.getResourceClientFor(credentials, resourceId),
        this.config.resourceManagerUrl,
        resourceId,
        abortSignal,
      ),
    );
  }

  async beginSnapshot(
    credentials: CloudCredentials,
    snapshot: CloudSnapshotRequest,
    options?: CloudCallOptions,
  ): Promise<CloudOperation> {
    return this.run(`Snapshot of ${snapshot.diskId}`, options, (abortSignal) =>
      submitSnapshot(
        this.clients.getResourceClientFor(credentials, snapshot.diskId),
        this.config.resourceManagerUrl,
        snapshot,
        abortSignal,
      ),
    );
  }

  async beginDelete(
    credentials: CloudCredentials,
    resourceId: string,
    options?: CloudCallOptions,
  ): Promise<CloudOperation> {
    return this.run(`Deleting ${resourceId}`, options, (abortSignal) =>
      submitDelete(
        this.clients.getResourceClientFor(credentials, resourceId),
        this.config.resourceManagerUrl,
        resourceId,
        abortSignal,
      ),
    );
  }

  async beginSkuChange(
    credentials: CloudCredentials,
    resourceId: string,
    sku: CloudSku,
    options?: CloudCallOptions,
  ): Promise<CloudOperation> {
    return this.run(`Changing ${resourceId} to ${sku.name}`, options, (abortSignal) =>
      submitSkuChange(
        this.clients.getResourceClientFor(credentials, resourceId),
        this.config.resourceManagerUrl,
        resourceId,
        sku,
        abortSignal,
      ),
    );
  }

  async mergeTags(
    credentials: CloudCredentials,
    resourceId: string,
    tags: Readonly<Record<string, string>>,
    options?: CloudCallOptions,
  ): Promise<Record<string, string>> {
    return this.run(`Tagging ${resourceId}`, options, (abortSignal) =>
      submitTagsMerge(
        this.clients.getResourceClientFor(credentials, resourceId),
        this.config.resourceManagerUrl,
        resourceId,
        tags,
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
        this.clients.getComputeClientFor(
          credentials,
          operationUrl.slice(this.config.resourceManagerUrl.length),
        ),
        this.config.resourceManagerUrl,
        operationUrl,
        abortSignal,
      ),
    );
  }

  async readSecurityInventory(
    credentials: CloudCredentials,
    subscriptionId: string,
    options?: CloudCallOptions,
    synced?: SyncedSecurityRecords,
  ): Promise<SecurityInventory> {
    return this.run(
      `Reading the security settings of subscription ${subscriptionId}`,
      options,
      (abortSignal) =>
        readSecurityInventory(
          this.clients.getResourceClient(credentials, subscriptionId),
          this.config.resourceManagerUrl,
          credentials.tenantId,
          subscriptionId,
          abortSignal,
          undefined,
          synced,
        ),
    );
  }

  forgetCredentials(principal: Pick<CloudCredentials, 'tenantId' | 'applicationId'>): void {
    this.clients.forgetPrincipal(principal);
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
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
