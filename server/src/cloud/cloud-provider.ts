// What the services need from a cloud, in the services' terms. Only server/src/cloud/azure
// implements it with the Azure SDK; services and jobs never see the SDK.
import type { DiskItem, VirtualMachineItem } from './arm-records';

export interface CloudCredentials {
  tenantId: string;
  applicationId: string;
  secret: string;
}

export interface CloudCallOptions {
  // Cancels the call; the provider also applies its own deadline.
  signal?: AbortSignal;
  // Where to run the CPU-bound reading of a large answer, so answers arriving together are read
  // one at a time with the event loop's turns in between.
  processingLane?: { run<Result>(work: () => Promise<Result>): Promise<Result> };
}

export interface CloudSubscription {
  subscriptionId: string;
  displayName: string;
  state: string;
}

export interface CloudResource {
  // The ARM id as Azure spells it.
  id: string;
  name: string;
  type: string;
  resourceGroup: string;
  region: string;
  // The VM size for virtual machines, otherwise the SKU name when the resource has one.
  sku: string | null;
  // 'running', 'stopped', 'deallocated', … for virtual machines; null where Azure has none.
  powerState: string | null;
  // Azure's tags on the resource ({} when it has none).
  tags: Record<string, string>;
  // Virtual machines only: what a new size must still carry.
  vmRequirements?: CloudVmRequirements;
  // Disks, public IPs, App Service plans and SQL databases: what their type's own listing says
  // beyond the generic one (see CloudResourceState).
  details?: Record<string, unknown>;
  // Virtual machines and managed disks: their record as their type's own list gave it (what the
  // security checks judge), so the security scan after a sync reads neither list again.
  armRecord?: VirtualMachineItem | DiskItem;
}

// Null where the VM's model does not say (a NIC referenced only by id does not show accelerated
// networking, for instance).
export interface CloudVmRequirements {
  osType: 'Linux' | 'Windows' | null;
  dataDiskCount: number | null;
  nicCount: number | null;
  hasPremiumDisk: boolean | null;
  hasAcceleratedNetworking: boolean | null;
}

// A VM size as Resource SKUs describe it in one region, for the subscription asking.
export interface CloudVmSku {
  name: string;
  family: string | null;
  vcpus: number;
  memoryGiB: number;
  maxDataDisks: number | null;
  uncachedDiskIops: number | null;
  maxNics: number | null;
  hasPremiumIo: boolean;
  hasAcceleratedNetworking: boolean;
  // False when Azure restricts the size in the region for this subscription.
  isAvailable: boolean;
}

export type MetricAggregation = 'average' | 'maximum' | 'minimum' | 'total';
export type MetricInterval = 'PT1M' | 'PT1H';

// What to read, for whichever resources a call names.
export interface MetricWindow {
  metricNames: string[];
  // The resource type, which is also Azure Monitor's metric namespace for platform metrics.
  resourceType: string;
  start: Date;
  end: Date;
  interval: MetricInterval;
  aggregations: MetricAggregation[];
}

export interface MetricBatch {
  subscriptionId: string;
  region: string;
  resourceIds: string[];
}

// One resource's values for one metric. Parallel arrays keep a large answer cheap to hold.
export interface MetricSeries {
  resourceId: string;
  metricName: string;
  unit: string;
  times: number[];
  // One array per aggregation asked for, aligned with `times`; null where Azure has no value.
  values: Partial<Record<MetricAggregation, (number | null)[]>>;
}

export interface RetailPriceQuery {
  serviceName: string;
  region?: string;
  skuNames?: string[];
  // Only these products (a service such as Storage lists thousands of meters a region).
  productNames?: string[];
  currencyCode?: string;
}

export interface RetailPrice {
  skuName: string;
  armSkuName: string;
  productName: string;
  meterName: string;
  region: string;
  retailPrice: number;
  unitOfMeasure: string;
  currencyCode: string;
  type: string;
}

// One query of Cost Management: a subscription's cost per resource and service, by day or month.
export interface CostQuery {
  subscriptionId: string;
  costType: 'ActualCost' | 'AmortizedCost';
  granularity: 'Daily' | 'Monthly';
  // UTC days, YYYY-MM-DD, both included.
  from: string;
  to: string;
}

export interface CostRow {
  // The UTC day (Daily) or the month's first day (Monthly), YYYY-MM-DD.
  date: string;
  // Lower case, as Cost Management reports it; '' for a charge of no resource.
  resourceId: string;
  serviceName: string;
  cost: number;
  usageQuantity: number;
  currency: string;
}

export interface CostPage {
  rows: CostRow[];
  // The next page of the same query, or null after the last.
  nextLink: string | null;
}

// A budget defined in Azure on a subscription (Microsoft.Consumption/budgets), read with Reader rights.
export interface CloudBudget {
  name: string;
  amount: number;
  // 'Monthly', 'Quarterly', 'Annually', …
  timeGrain: string;
  // UTC days, YYYY-MM-DD.
  startDate: string;
  endDate: string | null;
  currentSpend: number;
  forecastSpend: number | null;
  currency: string;
}

// A virtual machine as the executor reads it back.
export interface CloudVirtualMachineState {
  size: string | null;
  // 'running', 'deallocated', … as in CloudResource.
  powerState: string | null;
  // 'Succeeded' once Azure has finished with the VM; 'Updating' while an operation still runs on
  // it (its model may already show the new size).
  provisioningState: string | null;
  // Its tags as Azure has them now, when the answer says (the executor's last look at protection).
  tags?: Record<string, string>;
}

export type CloudPowerAction = 'start' | 'deallocate';

// A disk, public IP, App Service plan, SQL database or snapshot as Azure says it is now, with the
// facts inventory stores in resource.details (camelCase keys, absent when Azure does not say):
// disks { diskState, diskSizeGb, managedBy, tier, lastOwnershipUpdateTime, osType }; public IPs
// { ipAddress, allocationMethod, ipConfigurationId, natGatewayId }; plans { tier, capacity,
// numberOfSites, kind }; databases { tier, capacity, family, maxSizeBytes, serverName }; snapshots
// { completionPercent }.
export interface CloudResourceState {
  // A disk's or IP's sku.name, a plan's ('P1v3'), a database's service objective ('S3', 'GP_Gen5_2').
  sku: string | null;
  details: Record<string, unknown>;
  // 'Succeeded' once Azure has finished with it.
  provisioningState: string | null;
  // Its tags as Azure has them now, when the answer says.
  tags?: Record<string, string>;
}

// An incremental snapshot of a disk, named by the caller so a resumed step finds the same one.
export interface CloudSnapshotRequest {
  snapshotId: string;
  diskId: string;
  region: string;
}

// A SKU as the resource's type spells it: a disk's { name: 'Standard_LRS' }, a plan's
// { name: 'P0v3', tier: 'PremiumV3' }, a DTU database's { name: 'S1', tier: 'Standard' }, a vCore
// database's { name: 'GP_Gen5', tier: 'GeneralPurpose', family: 'Gen5', capacity: 2 }.
export interface CloudSku {
  name: string;
  tier?: string;
  family?: string;
  capacity?: number;
  // Databases: the new maximum size, when the objective holds less than the database allows now.
  maxSizeBytes?: number;
}

// A long-running operation Azure accepted; null when Azure finished at once (nothing to change).
export interface CloudOperation {
  operationUrl: string | null;
  // How long Azure asks us to wait before the first look (Retry-After), in seconds; 0 when unsaid.
  retryAfterSeconds: number;
}

export interface CloudOperationStatus {
  status: 'InProgress' | 'Succeeded' | 'Failed' | 'Canceled';
  // How long Azure asks us to wait before asking again.
  retryAfterSeconds: number;
  // Azure's error code and text when the operation failed.
  error?: string;
}

// Whether the principal may resize, start and deallocate the subscription's virtual machines.
export interface CloudWriteAccess {
  canWrite: boolean;
  // The RBAC actions no role assignment grants, e.g. 'Microsoft.Compute/virtualMachines/write'.
  missingActions: string[];
}

// An administrative event of the Activity Log (Azure keeps 90 days): what was done to a resource and
// when, e.g. 'Microsoft.Compute/virtualMachines/powerOff/action'.
export interface CloudActivityEvent {
  resourceId: string;
  operationName: string;
  status: string;
  at: Date;
}

export interface CloudProvider {
  // Signs in and lists the subscriptions the principal can read; the credentials check of "add tenant".
  listSubscriptions(credentials: CloudCredentials, options?: CloudCallOptions): Promise<CloudSubscription[]>;
  // The principal's own permissions on a subscription (Reader alone cannot change a VM).
  readWriteAccess(
    credentials: CloudCredentials,
    subscriptionId: string,
    options?: CloudCallOptions,
  ): Promise<CloudWriteAccess>;
  listResources(
    credentials: CloudCredentials,
    subscriptionId: string,
    options?: CloudCallOptions,
  ): Promise<CloudResource[]>;
  // Resource SKUs: the region's VM sizes with their capabilities and restrictions.
  listVmSkus(
    credentials: CloudCredentials,
    subscriptionId: string,
    region: string,
    options?: CloudCallOptions,
  ): Promise<CloudVmSku[]>;
  // One call for up to 50 resources of one subscription, region and type.
  getMetricBatch(
    credentials: CloudCredentials,
    batch: MetricBatch,
    window: MetricWindow,
    options?: CloudCallOptions,
  ): Promise<MetricSeries[]>;
  // One resource's metrics, for types the batch call does not serve.
  getResourceMetrics(
    credentials: CloudCredentials,
    resourceId: string,
    window: MetricWindow,
    options?: CloudCallOptions,
  ): Promise<MetricSeries[]>;
  listRetailPrices(query: RetailPriceQuery, options?: CloudCallOptions): Promise<RetailPrice[]>;
  // One page of a cost query (nextLink: a later page of the same query). Throttled, it throws a
  // CloudError 'throttled' carrying the wait Cost Management asked for; it never waits itself.
  queryCosts(
    credentials: CloudCredentials,
    query: CostQuery,
    nextLink: string | null,
    options?: CloudCallOptions,
  ): Promise<CostPage>;
  // One resource's Activity Log events from `since` (at most 90 days back), newest first, every page.
  listActivityEvents(
    credentials: CloudCredentials,
    resourceId: string,
    since: Date,
    options?: CloudCallOptions,
  ): Promise<CloudActivityEvent[]>;
  // The subscription's budgets, every page. A principal without the read right fails 'authorization'.
  listBudgets(
    credentials: CloudCredentials,
    subscriptionId: string,
    options?: CloudCallOptions,
  ): Promise<CloudBudget[]>;
  getVirtualMachine(
    credentials: CloudCredentials,
    resourceId: string,
    options?: CloudCallOptions,
  ): Promise<CloudVirtualMachineState>;
  // The ARM update of hardwareProfile.vmSize. A running VM whose hardware cluster lacks the size
  // fails with code 'OperationNotAllowed' (deallocate first, as Azure asks).
  beginResize(
    credentials: CloudCredentials,
    resourceId: string,
    size: string,
    options?: CloudCallOptions,
  ): Promise<CloudOperation>;
  beginPowerAction(
    credentials: CloudCredentials,
    resourceId: string,
    action: CloudPowerAction,
    options?: CloudCallOptions,
  ): Promise<CloudOperation>;
  // A disk, public IP, plan, database or snapshot read back; null when Azure no longer has it.
  getResourceState(
    credentials: CloudCredentials,
    resourceId: string,
    options?: CloudCallOptions,
  ): Promise<CloudResourceState | null>;
  beginSnapshot(
    credentials: CloudCredentials,
    snapshot: CloudSnapshotRequest,
    options?: CloudCallOptions,
  ): Promise<CloudOperation>;
  // Deletes a disk, public IP or plan. Azure refuses one still in use (a disk attached, an IP
  // associated, a plan with apps); one already gone is nothing to do.
  beginDelete(
    credentials: CloudCredentials,
    resourceId: string,
    options?: CloudCallOptions,
  ): Promise<CloudOperation>;
  // A disk's, plan's or database's SKU.
  beginSkuChange(
    credentials: CloudCredentials,
    resourceId: string,
    sku: CloudSku,
    options?: CloudCallOptions,
  ): Promise<CloudOperation>;
  // The Tags API's Merge at the resource's scope: the tags given are added or overwritten, the others
  // kept, so writing the same tags again changes nothing. Answers the resource's tags after it.
  mergeTags(
    credentials: CloudCredentials,
    resourceId: string,
    tags: Readonly<Record<string, string>>,
    options?: CloudCallOptions,
  ): Promise<Record<string, string>>;
  // One look at an operation a begin… call returned, from any process.
  readOperation(
    credentials: CloudCredentials,
    operationUrl: string,
    options?: CloudCallOptions,
  ): Promise<CloudOperationStatus>;
  // Drops what this process keeps of the principal (its credentials and their secret, its token),
  // whatever its secret: its tenant was deleted or deactivated. A later call signs in afresh.
  forgetCredentials(principal: Pick<CloudCredentials, 'tenantId' | 'applicationId'>): void;
}

export type CloudErrorKind =
  | 'authentication'
  | 'authorization'
  | 'notFound'
  | 'throttled'
  | 'timeout'
  | 'unavailable'
  | 'invalidRequest';

// A failed cloud call, with a message safe to show and to log: never a secret or a token.
export class CloudError extends Error {
  constructor(
    readonly kind: CloudErrorKind,
    message: string,
    readonly statusCode?: number,
    // Azure's own error code ('OperationNotAllowed', 'QuotaExceeded', …) when it gave one.
    readonly code?: string,
    // Throttled: how long Azure asked the caller to wait before the next call, in seconds.
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'CloudError';
  }
}

export function isCloudError(error: unknown, kind?: CloudErrorKind): error is CloudError {
  return error instanceof CloudError && (kind === undefined || error.kind === kind);
}
