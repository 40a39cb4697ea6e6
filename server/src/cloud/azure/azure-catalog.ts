// What sizing reads from Azure besides metrics: the Resource SKUs of a region (one entry per VM
// size with its capabilities and the subscription's restrictions), and the Retail Prices API's
// pay-as-you-go prices, followed page by page.
import { createPipelineRequest, type HttpClient, type Pipeline } from '@azure/core-rest-pipeline';
import type { CloudVmSku, RetailPrice, RetailPriceQuery } from '../cloud-provider';
import { readArmPages, type ArmPipelineClient } from './azure-arm';
import { readArmError } from './azure-errors';

const skusApiVersion = '2021-07-01';
const retailPricesApiVersion = '2023-01-01-preview';

export interface ResourceSkuItem {
  resourceType?: string;
  name?: string;
  family?: string;
  locations?: string[];
  capabilities?: { name?: string; value?: string }[];
  restrictions?: { type?: string; values?: string[]; reasonCode?: string }[];
}

export async function readVmSkus(
  client: ArmPipelineClient,
  resourceManagerUrl: string,
  subscriptionId: string,
  region: string,
  abortSignal: AbortSignal,
): Promise<CloudVmSku[]> {
  const query = new URLSearchParams({
    'api-version': skusApiVersion,
    $filter: `location eq '${escapeOData(region)}'`,
  });
  const skus: CloudVmSku[] = [];
  // The unfiltered list of a real subscription runs to megabytes: one page per turn of the loop.
  await readArmPages<ResourceSkuItem>(
    client,
    `${resourceManagerUrl}/subscriptions/${encodeURIComponent(subscriptionId)}/providers/Microsoft.Compute/skus?${query}`,
    abortSignal,
    (page) => {
      for (const item of page) {
        const sku = toVmSku(item, region);
        if (sku) skus.push(sku);
      }
    },
  );
  return skus;
}

export function toVmSku(item: ResourceSkuItem, region: string): CloudVmSku | null {
  if (item.resourceType !== 'virtualMachines' || !item.name) return null;
  const regionKey = region.toLowerCase();
  if (!(item.locations ?? []).some((location) => location.toLowerCase() === regionKey)) return null;
  const capabilities = new Map(
    (item.capabilities ?? []).map((capability) => [capability.name ?? '', capability.value ?? '']),
  );
  const vcpus = readNumber(capabilities.get('vCPUs'));
  const memoryGiB = readNumber(capabilities.get('MemoryGB'));
  if (vcpus === null || memoryGiB === null) return null;
  // A 'Location' restriction naming the region means the subscription cannot deploy the size there;
  // a 'Zone' restriction only narrows the zones, the size remains usable.
  const isRestricted = (item.restrictions ?? []).some(
    (restriction) =>
      restriction.type === 'Location' &&
      (restriction.values ?? []).some((value) => value.toLowerCase() === regionKey),
  );
  return {
    name: item.name,
    family: item.family ?? null,
    vcpus,
    memoryGiB,
    maxDataDisks: readNumber(capabilities.get('MaxDataDiskCount')),
    uncachedDiskIops: readNumber(capabilities.get('UncachedDiskIOPS')),
    maxNics: readNumber(capabilities.get('MaxNetworkInterfaces')),
    hasPremiumIo: capabilities.get('PremiumIO')?.toLowerCase() === 'true',
    hasAcceleratedNetworking: capabilities.get('AcceleratedNetworkingEnabled')?.toLowerCase() === 'true',
    isAvailable: !isRestricted,
  };
}

function readNumber(value: string | undefined): number | null {
  if (value === undefined || value.trim() === '') return null;
  const number = Number(value);
  return Number.isFinite(number) ? number : null;
}

export async function readRetailPrices(
  pipeline: Pick<Pipeline, 'sendRequest'>,
  httpClient: HttpClient,
  pricesUrl: string,
  query: RetailPriceQuery,
  abortSignal: AbortSignal,
): Promise<RetailPrice[]> {
  const prices: RetailPrice[] = [];
  let url: string | undefined = buildRetailPricesUrl(pricesUrl, query);
  while (url) {
    const request = createPipelineRequest({ url, method: 'GET', abortSignal });
    const response = await pipeline.sendRequest(httpClient, request);
    if (response.status !== 200) throw readArmError(response.status, response.bodyAsText ?? undefined);
    const page = readRetailPricePage(response.bodyAsText ?? undefined);
    prices.push(...page.prices);
    url = page.nextPageLink;
  }
  return prices;
}

// Consumption (pay-as-you-go) prices only: reservations and savings plans are other price types.
export function buildRetailPricesUrl(pricesUrl: string, query: RetailPriceQuery): string {
  const filters = [`serviceName eq '${escapeOData(query.serviceName)}'`, "priceType eq 'Consumption'"];
  if (query.region) filters.push(`armRegionName eq '${escapeOData(query.region)}'`);
  if (query.skuNames && query.skuNames.length > 0) {
    filters.push(`(${query.skuNames.map((sku) => `armSkuName eq '${escapeOData(sku)}'`).join(' or ')})`);
  }
  if (query.productNames && query.productNames.length > 0) {
    const products = query.productNames.map((product) => `productName eq '${escapeOData(product)}'`);
    filters.push(`(${products.join(' or ')})`);
  }
  const parameters = new URLSearchParams({
    'api-version': retailPricesApiVersion,
    currencyCode: query.currencyCode ?? 'USD',
    $filter: filters.join(' and '),
  });
  return `${pricesUrl}/api/retail/prices?${parameters.toString()}`;
}

interface RetailPriceItem {
  skuName: string;
  armSkuName: string;
  productName: string;
  meterName: string;
  armRegionName: string;
  retailPrice: number;
  unitOfMeasure: string;
  currencyCode: string;
  type: string;
}

// A page of the Retail Prices API (`{ Items: [...], NextPageLink }`, its own casing). A page of
// another shape is refused rather than read as having no prices.
export function readRetailPricePage(body: string | undefined): {
  prices: RetailPrice[];
  nextPageLink: string | undefined;
} {
  const page = JSON.parse(body ?? '{}') as unknown;
  if (typeof page !== 'object' || page === null || Array.isArray(page)) {
    throw new Error('The Retail Prices API answered a page that is not a JSON object.');
  }
  const { Items: items, NextPageLink: nextPageLink } = page as { Items?: unknown; NextPageLink?: unknown };
  if (items !== undefined && items !== null && !Array.isArray(items)) {
    throw new Error('The Retail Prices API answered a page whose Items is not a list.');
  }
  return {
    prices: ((items ?? []) as RetailPriceItem[]).map((item) => ({
      skuName: item.skuName,
      armSkuName: item.armSkuName,
      productName: item.productName,
      meterName: item.meterName,
      region: item.armRegionName,
      retailPrice: item.retailPrice,
      unitOfMeasure: item.unitOfMeasure,
      currencyCode: item.currencyCode,
      type: item.type,
    })),
    nextPageLink: typeof nextPageLink === 'string' && nextPageLink !== '' ? nextPageLink : undefined,
  };
}

// OData string literals double their single quotes.
function escapeOData(text: string): string {
  return text.replaceAll("'", "''");
}
