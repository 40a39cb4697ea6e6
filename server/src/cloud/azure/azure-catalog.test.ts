import type { HttpClient, PipelineRequest, PipelineResponse } from '@azure/core-rest-pipeline';
import { createHttpHeaders } from '@azure/core-rest-pipeline';
import { describe, expect, it } from 'vitest';
import {
  buildRetailPricesUrl,
  readRetailPricePage,
  readRetailPrices,
  readVmSkus,
  toVmSku,
} from './azure-catalog';

function answer(request: PipelineRequest, body: unknown): PipelineResponse {
  return { request, status: 200, headers: createHttpHeaders(), bodyAsText: JSON.stringify(body) };
}

const capabilities = (values: Record<string, string>) =>
  Object.entries(values).map(([name, value]) => ({ name, value }));

describe('readVmSkus', () => {
  it('reads capabilities, follows nextLink and marks a Location restriction as unavailable', async () => {
    const urls: string[] = [];
    const client = {
      sendRequest: async (request: PipelineRequest) => {
        urls.push(request.url);
        if (urls.length === 1) {
          return answer(request, {
            value: [
              {
                resourceType: 'virtualMachines',
                name: 'Standard_D2s_v5',
                family: 'standardDSv5Family',
                locations: ['EastUS'],
                capabilities: capabilities({
                  vCPUs: '2',
                  MemoryGB: '8',
                  MaxDataDiskCount: '4',
                  UncachedDiskIOPS: '3750',
                  MaxNetworkInterfaces: '2',
                  PremiumIO: 'True',
                  AcceleratedNetworkingEnabled: 'True',
                }),
                restrictions: [
                  { type: 'Zone', values: ['eastus'], reasonCode: 'NotAvailableForSubscription' },
                ],
              },
              { resourceType: 'disks', name: 'Premium_LRS', locations: ['eastus'] },
            ],
            nextLink: 'https://arm.example/next',
          });
        }
        return answer(request, {
          value: [
            {
              resourceType: 'virtualMachines',
              name: 'Standard_B1s',
              locations: ['eastus'],
              capabilities: capabilities({ vCPUs: '1', MemoryGB: '1', PremiumIO: 'False' }),
              restrictions: [
                { type: 'Location', values: ['eastus'], reasonCode: 'NotAvailableForSubscription' },
              ],
            },
          ],
        });
      },
    };
    const skus = await readVmSkus(
      client,
      'https://arm.example',
      'sub-1',
      'eastus',
      new AbortController().signal,
    );
    expect(urls[0]).toContain('%24filter=location+eq+%27eastus%27');
    expect(urls[1]).toBe('https://arm.example/next');
    expect(skus).toEqual([
      {
        name: 'Standard_D2s_v5',
        family: 'standardDSv5Family',
        vcpus: 2,
        memoryGiB: 8,
        maxDataDisks: 4,
        uncachedDiskIops: 3750,
        maxNics: 2,
        hasPremiumIo: true,
        hasAcceleratedNetworking: true,
        isAvailable: true,
      },
      {
        name: 'Standard_B1s',
        family: null,
        vcpus: 1,
        memoryGiB: 1,
        maxDataDisks: null,
        uncachedDiskIops: null,
        maxNics: null,
        hasPremiumIo: false,
        hasAcceleratedNetworking: false,
        isAvailable: false,
      },
    ]);
  });
});

describe('toVmSku', () => {
  const base = {
    resourceType: 'virtualMachines',
    name: 'Standard_D2s_v5',
    locations: ['eastus'],
    capabilities: capabilities({ vCPUs: '2', MemoryGB: '8' }),
  };

  it('leaves out what is not a VM size of the region, or has no cores or memory', () => {
    expect(toVmSku({ ...base, resourceType: 'disks' }, 'eastus')).toBeNull();
    expect(toVmSku({ ...base, name: undefined }, 'eastus')).toBeNull();
    expect(toVmSku({ ...base, locations: ['westeurope'] }, 'eastus')).toBeNull();
    expect(toVmSku({ ...base, locations: undefined }, 'eastus')).toBeNull();
    expect(toVmSku({ ...base, capabilities: capabilities({ vCPUs: '2' }) }, 'eastus')).toBeNull();
    expect(
      toVmSku({ ...base, capabilities: capabilities({ vCPUs: 'two', MemoryGB: '8' }) }, 'eastus'),
    ).toBeNull();
    expect(
      toVmSku({ ...base, capabilities: capabilities({ vCPUs: ' ', MemoryGB: '8' }) }, 'eastus'),
    ).toBeNull();
  });

  it('reads a capability it cannot parse as unknown, and a region in any letter case', () => {
    const sku = toVmSku(
      {
        ...base,
        locations: ['EASTUS'],
        capabilities: capabilities({
          vCPUs: '2',
          MemoryGB: '0.5',
          MaxDataDiskCount: 'many',
          PremiumIO: 'yes',
        }),
        restrictions: [{ type: 'Location', values: ['westeurope'] }],
      },
      'EastUS',
    );
    expect(sku).toMatchObject({
      vcpus: 2,
      memoryGiB: 0.5,
      maxDataDisks: null,
      hasPremiumIo: false,
      isAvailable: true,
    });
  });
});

describe('buildRetailPricesUrl', () => {
  it('asks for consumption prices of the service, region and sizes, quotes escaped', () => {
    const url = new URL(
      buildRetailPricesUrl('https://prices.example', {
        serviceName: 'Virtual Machines',
        region: "east'us",
        skuNames: ['Standard_D2s_v5', 'Standard_B1s'],
      }),
    );
    expect(url.pathname).toBe('/api/retail/prices');
    expect(url.searchParams.get('api-version')).toBe('2023-01-01-preview');
    expect(url.searchParams.get('currencyCode')).toBe('USD');
    expect(url.searchParams.get('$filter')).toBe(
      "serviceName eq 'Virtual Machines' and priceType eq 'Consumption' and armRegionName eq 'east''us'" +
        " and (armSkuName eq 'Standard_D2s_v5' or armSkuName eq 'Standard_B1s')",
    );
  });

  it('asks for the products named, for a service that lists many', () => {
    const url = new URL(
      buildRetailPricesUrl('https://prices.example', {
        serviceName: 'Virtual Network',
        region: 'eastus',
        productNames: ['IP Addresses'],
      }),
    );
    expect(url.searchParams.get('$filter')).toBe(
      "serviceName eq 'Virtual Network' and priceType eq 'Consumption' and armRegionName eq 'eastus'" +
        " and (productName eq 'IP Addresses')",
    );
  });

  it('filters by neither region nor size when the query names none', () => {
    const url = new URL(
      buildRetailPricesUrl('https://prices.example', {
        serviceName: 'Virtual Machines',
        skuNames: [],
        currencyCode: 'EUR',
      }),
    );
    expect(url.searchParams.get('currencyCode')).toBe('EUR');
    expect(url.searchParams.get('$filter')).toBe(
      "serviceName eq 'Virtual Machines' and priceType eq 'Consumption'",
    );
  });
});

const priceItem = {
  skuName: 'D2s v5',
  armSkuName: 'Standard_D2s_v5',
  productName: 'Virtual Machines Dsv5 Series',
  meterName: 'D2s v5',
  armRegionName: 'eastus',
  retailPrice: 0.096,
  unitOfMeasure: '1 Hour',
  currencyCode: 'USD',
  type: 'Consumption',
};

describe('readRetailPricePage', () => {
  it('reads the rows in our names and the next page link', () => {
    expect(
      readRetailPricePage(JSON.stringify({ Items: [priceItem], NextPageLink: 'https://p/next' })),
    ).toEqual({
      prices: [
        {
          skuName: 'D2s v5',
          armSkuName: 'Standard_D2s_v5',
          productName: 'Virtual Machines Dsv5 Series',
          meterName: 'D2s v5',
          region: 'eastus',
          retailPrice: 0.096,
          unitOfMeasure: '1 Hour',
          currencyCode: 'USD',
          type: 'Consumption',
        },
      ],
      nextPageLink: 'https://p/next',
    });
  });

  it('reads a last or empty page as no further link', () => {
    expect(readRetailPricePage(JSON.stringify({ Items: [], NextPageLink: null }))).toEqual({
      prices: [],
      nextPageLink: undefined,
    });
    expect(readRetailPricePage(undefined)).toEqual({ prices: [], nextPageLink: undefined });
  });

  it('refuses a page that is not JSON or not of the API’s shape', () => {
    expect(() => readRetailPricePage('<html>busy</html>')).toThrow(SyntaxError);
    expect(() => readRetailPricePage('[]')).toThrow('not a JSON object');
    expect(() => readRetailPricePage('null')).toThrow('not a JSON object');
    expect(() => readRetailPricePage(JSON.stringify({ Items: { first: priceItem } }))).toThrow(
      'Items is not a list',
    );
  });
});

describe('readRetailPrices', () => {
  // The pipeline under test is a fake: the HTTP client it would hand the request to is never reached.
  const httpClient: HttpClient = {
    sendRequest: () => Promise.reject(new Error('The fake pipeline sends nothing.')),
  };

  function createPipeline(pages: Record<string, { status: number; body: unknown }>) {
    const urls: string[] = [];
    const pipeline = {
      sendRequest: async (_httpClient: HttpClient, request: PipelineRequest): Promise<PipelineResponse> => {
        urls.push(request.url);
        const page = pages[urls.length - 1]!;
        return { ...answer(request, page.body), status: page.status };
      },
    };
    return { pipeline, urls };
  }

  it('follows NextPageLink to the last page', async () => {
    const { pipeline, urls } = createPipeline({
      0: { status: 200, body: { Items: [priceItem], NextPageLink: 'https://prices.example/page2' } },
      1: { status: 200, body: { Items: [{ ...priceItem, armSkuName: 'Standard_B1s' }], NextPageLink: null } },
    });
    const prices = await readRetailPrices(
      pipeline,
      httpClient,
      'https://prices.example',
      { serviceName: 'Virtual Machines' },
      new AbortController().signal,
    );
    expect(prices.map((price) => price.armSkuName)).toEqual(['Standard_D2s_v5', 'Standard_B1s']);
    expect(urls[1]).toBe('https://prices.example/page2');
  });

  it("throws Azure's error code and text when a page is refused", async () => {
    const { pipeline } = createPipeline({
      0: { status: 429, body: { error: { code: 'TooManyRequests', message: 'Slow down' } } },
    });
    await expect(
      readRetailPrices(
        pipeline,
        httpClient,
        'https://prices.example',
        { serviceName: 'Virtual Machines' },
        new AbortController().signal,
      ),
    ).rejects.toMatchObject({ statusCode: 429, code: 'TooManyRequests', message: 'Slow down' });
  });
});
