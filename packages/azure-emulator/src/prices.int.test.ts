import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { regions, isSizeOfferedInRegion, virtualMachineSizes } from './catalog/sku.catalog';
import { startTestEmulator, type TestEmulator } from './testing/emulator.fixture';

interface PricesPage {
  readonly Items: {
    readonly armSkuName: string;
    readonly armRegionName: string;
    readonly retailPrice: number;
    readonly unitPrice: number;
    readonly type: string;
    readonly skuName: string;
    readonly productName: string;
    readonly serviceName: string;
    readonly unitOfMeasure: string;
    readonly currencyCode: string;
  }[];
  readonly NextPageLink: string | null;
  readonly Count: number;
}

describe('Retail Prices API', () => {
  let kit: TestEmulator;

  beforeAll(async () => {
    kit = await startTestEmulator();
  });

  afterAll(async () => {
    await kit.stop();
  });

  async function readAllPages(firstPath: string): Promise<PricesPage[]> {
    const pages: PricesPage[] = [];
    let next: string | null = firstPath;
    while (next) {
      const answer = await kit.send(
        'GET',
        next.startsWith('http') ? next.slice(kit.emulator.url.length) : next,
      );
      expect(answer.status).toBe(200);
      const page = answer.body as PricesPage;
      pages.push(page);
      next = page.NextPageLink;
    }
    return pages;
  }

  it('filters Linux pay-as-you-go prices and pages them 100 at a time', async () => {
    const regionFilter = "serviceName eq 'Virtual Machines' and armRegionName eq 'westeurope'";
    const regionPages = await readAllPages(`/api/retail/prices?$filter=${encodeURIComponent(regionFilter)}`);
    expect(regionPages.length).toBeGreaterThan(1);
    expect(regionPages.slice(0, -1).every((page) => page.Count === 100)).toBe(true);
    expect(regionPages[0]?.NextPageLink).toContain('$skip=100');

    const filter = `${regionFilter} and priceType eq 'Consumption'`;
    const items = (await readAllPages(`/api/retail/prices?$filter=${encodeURIComponent(filter)}`)).flatMap(
      (page) => page.Items,
    );
    expect(items.every((item) => item.armRegionName === 'westeurope' && item.type === 'Consumption')).toBe(
      true,
    );
    const linux = items.filter(
      (item) =>
        !item.productName.endsWith('Windows') &&
        !item.skuName.endsWith('Spot') &&
        !item.skuName.endsWith('Low Priority'),
    );
    const offered = virtualMachineSizes.filter((size) => isSizeOfferedInRegion(size.name, 'westeurope'));
    expect(linux.map((item) => item.armSkuName).sort()).toEqual(offered.map((size) => size.name).sort());
    expect(linux[0]).toMatchObject({
      currencyCode: 'USD',
      unitOfMeasure: '1 Hour',
      serviceName: 'Virtual Machines',
    });
  });

  it('prices every offered size in every region, proportionally to its size and region', async () => {
    const filter = "armSkuName eq 'Standard_D2s_v5' and priceType eq 'Consumption'";
    const pages = await readAllPages(`/api/retail/prices?$filter=${encodeURIComponent(filter)}`);
    const linux = pages
      .flatMap((page) => page.Items)
      .filter((item) => !item.productName.endsWith('Windows') && item.skuName === 'D2s v5');
    expect(linux.map((item) => item.armRegionName).sort()).toEqual(
      regions.map((region) => region.name).sort(),
    );
    const eastUs = linux.find((item) => item.armRegionName === 'eastus');
    const westEurope = linux.find((item) => item.armRegionName === 'westeurope');
    expect(eastUs?.retailPrice).toBeCloseTo(0.095, 3);
    expect(westEurope?.retailPrice).toBeGreaterThan(eastUs?.retailPrice ?? 0);

    const bigger = await kit.send(
      'GET',
      `/api/retail/prices?$filter=${encodeURIComponent("armSkuName eq 'Standard_D8s_v5' and armRegionName eq 'eastus' and priceType eq 'Consumption' and skuName eq 'D8s v5'")}`,
    );
    const prices = (bigger.body as PricesPage).Items.map((item) => item.retailPrice);
    expect(prices.some((price) => Math.abs(price - (eastUs?.retailPrice ?? 0) * 4) < 0.001)).toBe(true);
  });

  it('compares text exactly and rejects a malformed filter', async () => {
    const wrongCase = await kit.send(
      'GET',
      `/api/retail/prices?$filter=${encodeURIComponent("armRegionName eq 'EastUS'")}`,
    );
    expect((wrongCase.body as PricesPage).Items).toEqual([]);
    const malformed = await kit.send(
      'GET',
      `/api/retail/prices?$filter=${encodeURIComponent("armRegionName eq 'eastus")}`,
    );
    expect(malformed.status).toBe(400);
    expect(kit.emulator.stats.calls.prices).toBeGreaterThan(0);
  });
});
