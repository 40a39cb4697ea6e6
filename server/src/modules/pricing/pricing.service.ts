// Sizes and prices per region: read from Resource SKUs and the Retail Prices API (VM sizes, and the
// meters of disks, snapshots, public IPs, plans and databases), cached in PostgreSQL and refreshed
// daily for regions in use, or sooner when an analysis finds a region with no catalogue or a stale one.
import type { SizeOption, SizePrice } from '@cloudtrim/rightsizing/analysis.types';
import type { WastePriceBook } from '@cloudtrim/rightsizing/waste/waste-prices';
import type { CloudCallOptions, CloudProvider, RetailPrice } from '../../cloud/cloud-provider';
import { isCloudError } from '../../cloud/cloud-provider';
import { pricingRefreshJob } from '../../queue/cloud-work';
import type { TenantsService } from '../tenants/tenants.service';
import type { PricedOsType, PricingRepository, RegionReader, VmPriceRow } from './pricing.repository';
import { buildWastePriceBook, listWastePriceQueries, selectWastePrices } from './waste-prices';
import { dayMs } from '../../lib/time';

// A catalogue older than this is read again before it is used.
export const catalogueMaxAgeMs = dayMs;
export const retailPricesSource = 'Azure Retail Prices API';

export interface RegionCatalogue {
  region: string;
  sizes: SizeOption[];
  pricesByOs: Record<PricedOsType, Map<string, SizePrice>>;
}

export interface RefreshSummary {
  regions: string[];
  failures: string[];
}

export class PricingService {
  constructor(
    private readonly pricing: PricingRepository,
    private readonly tenants: TenantsService,
    private readonly cloud: CloudProvider,
    private readonly now: () => Date,
  ) {}

  // The daily refresh: every region where an active tenant has a VM.
  async refreshRegionsInUse(options: CloudCallOptions = {}): Promise<RefreshSummary> {
    return this.refreshReaders(await this.pricing.listRegionReaders(), options);
  }

  // Reads again the regions of a tenant's resources whose catalogue or prices are missing or older
  // than a day. Failures leave the cached catalogue (if any) in use; they are returned for the caller's log.
  async ensureFreshForTenant(tenantId: string, options: CloudCallOptions = {}): Promise<RefreshSummary> {
    const readers = await this.pricing.listRegionReaders(tenantId);
    const freshness = await this.pricing.readFreshness(readers.map((reader) => reader.region));
    const staleBefore = this.now().getTime() - catalogueMaxAgeMs;
    const isStale = (readAt: Date | null) => readAt === null || readAt.getTime() < staleBefore;
    const staleRegions = new Set(
      freshness
        .filter(
          (region) =>
            isStale(region.sizesReadAt) || isStale(region.pricesReadAt) || isStale(region.wastePricesReadAt),
        )
        .map((region) => region.region),
    );
    return this.refreshReaders(
      readers.filter((reader) => staleRegions.has(reader.region)),
      options,
    );
  }

  async loadCatalogue(region: string): Promise<RegionCatalogue> {
    const [sizes, prices] = await Promise.all([
      this.pricing.listSizes(region),
      this.pricing.listPrices(region),
    ]);
    const pricesByOs: Record<PricedOsType, Map<string, SizePrice>> = { Linux: new Map(), Windows: new Map() };
    for (const price of prices) {
      pricesByOs[price.osType].set(price.sizeName, {
        hourlyPrice: price.hourlyPrice,
        currencyCode: price.currencyCode,
        readAt: price.readAt.toISOString().slice(0, 10),
        source: retailPricesSource,
      });
    }
    return {
      region,
      sizes: sizes.map((size) => ({
        name: size.name,
        family: size.family ?? '',
        vcpus: size.vcpus,
        memoryGiB: size.memoryGiB,
        maxDataDisks: size.maxDataDisks,
        maxNics: size.maxNics,
        hasPremiumIo: size.hasPremiumIo,
        hasAcceleratedNetworking: size.hasAcceleratedNetworking,
        isAvailable: size.isAvailable,
      })),
      pricesByOs,
    };
  }

  // The list prices of disks, snapshots, IPs, plans and databases in these regions, as last read.
  async loadWastePriceBook(regions: string[]): Promise<WastePriceBook> {
    return buildWastePriceBook(await this.pricing.listWastePrices(regions));
  }

  private async refreshReaders(readers: RegionReader[], options: CloudCallOptions): Promise<RefreshSummary> {
    const summary: RefreshSummary = { regions: [], failures: [] };
    for (const reader of readers) {
      try {
        await this.refreshRegion(reader, options);
        summary.regions.push(reader.region);
      } catch (error) {
        if (!isCloudError(error) && !(error instanceof CatalogueReadError)) throw error;
        summary.failures.push(`${reader.region}: ${error.message}`);
      }
    }
    return summary;
  }

  private async refreshRegion(reader: RegionReader, options: CloudCallOptions): Promise<void> {
    const work = await this.tenants.openForWork(reader.tenantId, pricingRefreshJob.name);
    if (!work) throw new MissingCredentialsError(reader.region);
    const { credentials } = work;
    const [skus, retailPrices, wasteMeters] = await Promise.all([
      this.cloud.listVmSkus(credentials, reader.subscriptionId, reader.region, options),
      this.cloud.listRetailPrices({ serviceName: 'Virtual Machines', region: reader.region }, options),
      Promise.all(
        listWastePriceQueries(reader.region).map((query) => this.cloud.listRetailPrices(query, options)),
      ),
    ]);
    const prices = selectPayAsYouGoPrices(retailPrices);
    const wastePrices = selectWastePrices(wasteMeters.flat());
    // An empty answer (a transient fault, a filter Azure stopped honouring) must not wipe a region's
    // catalogue: the cached one stays in use until a read brings something.
    if (skus.length === 0 || prices.length === 0) throw new EmptyCatalogueError(reader.region);
    const readAt = this.now();
    await this.pricing.replaceSizes(reader.region, skus, readAt);
    await this.pricing.replacePrices(reader.region, prices, readAt);
    // Likewise the other meters: none read keeps the cached ones.
    if (wastePrices.length > 0) await this.pricing.replaceWastePrices(reader.region, wastePrices, readAt);
  }
}

// The Retail Prices API lists, per size, Linux and Windows pay-as-you-go meters beside Spot, Low
// Priority, reservations, DevTest and Cloud Services ones. Only the two pay-as-you-go hourly
// meters are kept; Windows meters are those whose product name ends in "Windows".
export function selectPayAsYouGoPrices(prices: RetailPrice[]): VmPriceRow[] {
  const selected = new Map<string, VmPriceRow>();
  for (const price of prices) {
    if (price.type !== 'Consumption' || price.unitOfMeasure !== '1 Hour' || !price.armSkuName) continue;
    if (/\b(spot|low priority)\b/i.test(price.skuName) || /cloud services/i.test(price.productName)) continue;
    const osType: PricedOsType = /\bwindows\b/i.test(price.productName) ? 'Windows' : 'Linux';
    const key = `${price.armSkuName.toLowerCase()}|${osType}`;
    // A size listed twice (two product lines with one meter each) keeps its higher price, one rule
    // for every size whatever order the pages come in.
    const existing = selected.get(key);
    if (existing && existing.hourlyPrice >= price.retailPrice) continue;
    selected.set(key, {
      sizeName: price.armSkuName,
      osType,
      hourlyPrice: price.retailPrice,
      currencyCode: price.currencyCode,
    });
  }
  return [...selected.values()];
}

class CatalogueReadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CatalogueReadError';
  }
}

class MissingCredentialsError extends CatalogueReadError {
  constructor(region: string) {
    super(`No tenant with stored credentials can read the size catalogue of ${region}.`);
  }
}

class EmptyCatalogueError extends CatalogueReadError {
  constructor(region: string) {
    super(`Azure listed no VM sizes or no pay-as-you-go prices for ${region}; the cached catalogue is kept.`);
  }
}
