import { listRetailPriceItems, type RetailPriceItem } from '../catalog/price.catalog';
import { readQuery, sendJson, type RequestContext } from '../http/http.context';
import type { Router } from '../http/http.router';
import { compileFilter, FilterSyntaxError, type FieldValue } from '../http/odata.filter';

// The Azure Retail Prices API (no authentication), 100 items a page with NextPageLink.

const pageSize = 100;

const fieldNamesByLowerName = new Map<string, keyof RetailPriceItem>(
  (
    [
      'currencyCode',
      'tierMinimumUnits',
      'reservationTerm',
      'retailPrice',
      'unitPrice',
      'armRegionName',
      'location',
      'effectiveStartDate',
      'meterId',
      'meterName',
      'productId',
      'skuId',
      'productName',
      'skuName',
      'serviceName',
      'serviceId',
      'serviceFamily',
      'unitOfMeasure',
      'type',
      'isPrimaryMeterRegion',
      'armSkuName',
    ] as const
  ).map((name) => [name.toLowerCase(), name]),
);
fieldNamesByLowerName.set('pricetype', 'type');

function readPriceField(item: RetailPriceItem, field: string): FieldValue {
  const name = fieldNamesByLowerName.get(field.toLowerCase());
  return name ? item[name] : undefined;
}

function sendPricesError(context: RequestContext, message: string): void {
  sendJson(context, 400, { Error: { Code: 'BadRequest', Message: message } });
}

function buildNextPageLink(context: RequestContext, skip: number): string {
  const kept: string[] = [];
  for (const [key, value] of context.query) {
    if (key.toLowerCase() === '$skip') continue;
    kept.push(`${encodeURIComponent(key).replace(/^%24/, '$')}=${encodeURIComponent(value)}`);
  }
  kept.push(`$skip=${skip}`);
  return `${context.origin}/api/retail/prices?${kept.join('&')}`;
}

export function registerPricesRoutes(router: Router): void {
  router.add('GET', '/api/retail/prices', (context) => {
    const currency = (readQuery(context, 'currencyCode') ?? 'USD').replace(/'/g, '');
    if (currency.toUpperCase() !== 'USD')
      return sendPricesError(context, `Currency '${currency}' is not offered; use USD.`);
    const filterText = readQuery(context, '$filter');
    let items: readonly RetailPriceItem[] = listRetailPriceItems();
    if (filterText) {
      try {
        items = items.filter(compileFilter(filterText, readPriceField, { isCaseSensitive: true }));
      } catch (error) {
        if (!(error instanceof FilterSyntaxError)) throw error;
        return sendPricesError(context, 'Invalid OData parameters supplied');
      }
    }
    const skip = Math.max(0, Math.trunc(Number(readQuery(context, '$skip') ?? 0)) || 0);
    const page = items.slice(skip, skip + pageSize);
    sendJson(context, 200, {
      BillingCurrency: 'USD',
      CustomerEntityId: 'Default',
      CustomerEntityType: 'Retail',
      Items: page,
      NextPageLink: skip + pageSize < items.length ? buildNextPageLink(context, skip + pageSize) : null,
      Count: page.length,
    });
  });
}
