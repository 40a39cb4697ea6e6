// The size catalogue and pay-as-you-go prices per region (vm_size, vm_price, and waste_price for
// disks, snapshots, IPs, plans and databases), shared by every team:
// Resource SKUs and the Retail Prices API say the same of a region to everyone.
import { and, eq, inArray, notInArray, sql } from 'drizzle-orm';
import type { CloudVmSku } from '../../cloud/cloud-provider';
import type { Db } from '../../db/database';
import { vmPrices, vmSizes, wastePrices } from '../../db/schema';
import type { StoredWastePrice, WastePriceRow } from './waste-prices';

export type PricedOsType = 'Linux' | 'Windows';

// A size as stored: what Resource SKUs said of it.
export type VmSizeRow = CloudVmSku;

export interface VmPriceRow {
  sizeName: string;
  osType: PricedOsType;
  hourlyPrice: number;
  currencyCode: string;
}

export interface StoredVmPrice extends VmPriceRow {
  readAt: Date;
}

export interface RegionFreshness {
  region: string;
  sizesReadAt: Date | null;
  pricesReadAt: Date | null;
  wastePricesReadAt: Date | null;
}

// A VM region in use and one subscription of a tenant that can read its catalogue.
export interface RegionReader {
  region: string;
  tenantId: string;
  subscriptionId: string;
}

export class PricingRepository {
  constructor(private readonly db: Db) {}

  // The region's sizes as last listed: sizes Azure no longer lists there go.
  async replaceSizes(region: string, sizes: VmSizeRow[], readAt: Date): Promise<void> {
    await this.db.transaction(async (transaction) => {
      await transaction.delete(vmSizes).where(
        and(
          eq(vmSizes.region, region),
          sizes.length > 0
            ? notInArray(
                vmSizes.name,
                sizes.map((size) => size.name),
              )
            : undefined,
        ),
      );
      if (sizes.length === 0) return;
      await transaction
        .insert(vmSizes)
        .values(sizes.map((size) => ({ ...size, region, readAt })))
        .onConflictDoUpdate({
          target: [vmSizes.region, vmSizes.name],
          set: {
            family: sql`excluded.family`,
            vcpus: sql`excluded.vcpus`,
            memoryGiB: sql`excluded.memory_gib`,
            maxDataDisks: sql`excluded.max_data_disks`,
            uncachedDiskIops: sql`excluded.uncached_disk_iops`,
            maxNics: sql`excluded.max_nics`,
            hasPremiumIo: sql`excluded.has_premium_io`,
            hasAcceleratedNetworking: sql`excluded.has_accelerated_networking`,
            isAvailable: sql`excluded.is_available`,
            readAt: sql`excluded.read_at`,
          },
        });
    });
  }

  // Prices read now replace the region's; a size no longer priced loses its price (never proposed).
  async replacePrices(region: string, prices: VmPriceRow[], readAt: Date): Promise<void> {
    await this.db.transaction(async (transaction) => {
      await transaction.delete(vmPrices).where(eq(vmPrices.region, region));
      if (prices.length === 0) return;
      await transaction.insert(vmPrices).values(prices.map((price) => ({ ...price, region, readAt })));
    });
  }

  async replaceWastePrices(region: string, prices: WastePriceRow[], readAt: Date): Promise<void> {
    await this.db.transaction(async (transaction) => {
      await transaction.delete(wastePrices).where(eq(wastePrices.region, region));
      if (prices.length === 0) return;
      await transaction.insert(wastePrices).values(prices.map((price) => ({ ...price, region, readAt })));
    });
  }

  async listWastePrices(regions: string[]): Promise<StoredWastePrice[]> {
    if (regions.length === 0) return [];
    return this.db
      .select({
        region: wastePrices.region,
        kind: wastePrices.kind,
        skuName: wastePrices.skuName,
        variant: wastePrices.variant,
        unitPrice: wastePrices.unitPrice,
        unit: wastePrices.unit,
        currencyCode: wastePrices.currencyCode,
      })
      .from(wastePrices)
      .where(inArray(wastePrices.region, regions));
  }

  async listSizes(region: string): Promise<VmSizeRow[]> {
    return this.db
      .select({
        name: vmSizes.name,
        family: vmSizes.family,
        vcpus: vmSizes.vcpus,
        memoryGiB: vmSizes.memoryGiB,
        maxDataDisks: vmSizes.maxDataDisks,
        uncachedDiskIops: vmSizes.uncachedDiskIops,
        maxNics: vmSizes.maxNics,
        hasPremiumIo: vmSizes.hasPremiumIo,
        hasAcceleratedNetworking: vmSizes.hasAcceleratedNetworking,
        isAvailable: vmSizes.isAvailable,
      })
      .from(vmSizes)
      .where(eq(vmSizes.region, region))
      .orderBy(vmSizes.name);
  }

  async listPrices(region: string): Promise<StoredVmPrice[]> {
    return this.db
      .select({
        sizeName: vmPrices.sizeName,
        osType: vmPrices.osType,
        hourlyPrice: vmPrices.hourlyPrice,
        currencyCode: vmPrices.currencyCode,
        readAt: vmPrices.readAt,
      })
      .from(vmPrices)
      .where(eq(vmPrices.region, region));
  }

  // When each region's sizes and prices were read (null: never).
  async readFreshness(regions: string[]): Promise<RegionFreshness[]> {
    if (regions.length === 0) return [];
    const [sizes, prices, waste] = await Promise.all([
      this.db
        .select({ region: vmSizes.region, readAt: sql<Date>`min(${vmSizes.readAt})`.mapWith(vmSizes.readAt) })
        .from(vmSizes)
        .where(inArray(vmSizes.region, regions))
        .groupBy(vmSizes.region),
      this.db
        .select({
          region: vmPrices.region,
          readAt: sql<Date>`min(${vmPrices.readAt})`.mapWith(vmPrices.readAt),
        })
        .from(vmPrices)
        .where(inArray(vmPrices.region, regions))
        .groupBy(vmPrices.region),
      this.db
        .select({
          region: wastePrices.region,
          readAt: sql<Date>`min(${wastePrices.readAt})`.mapWith(wastePrices.readAt),
        })
        .from(wastePrices)
        .where(inArray(wastePrices.region, regions))
        .groupBy(wastePrices.region),
    ]);
    const sizesByRegion = new Map(sizes.map((row) => [row.region, row.readAt]));
    const pricesByRegion = new Map(prices.map((row) => [row.region, row.readAt]));
    const wasteByRegion = new Map(waste.map((row) => [row.region, row.readAt]));
    return regions.map((region) => ({
      region,
      sizesReadAt: sizesByRegion.get(region) ?? null,
      pricesReadAt: pricesByRegion.get(region) ?? null,
      wastePricesReadAt: wasteByRegion.get(region) ?? null,
    }));
  }

  // Every region where an active tenant has a VM, disk, public IP, plan or database, each with one
  // subscription that can read it.
  async listRegionReaders(tenantId?: string): Promise<RegionReader[]> {
    const result = await this.db.execute<{ region: string; tenantId: string; subscriptionId: string }>(sql`
      select distinct on (resource.region)
        resource.region, resource.tenant_id as "tenantId", subscription.subscription_id as "subscriptionId"
      from resource
      join subscription on subscription.id = resource.subscription_id
      join tenant on tenant.id = resource.tenant_id
      where lower(resource.type) in ('microsoft.compute/virtualmachines', 'microsoft.compute/disks',
          'microsoft.network/publicipaddresses', 'microsoft.web/serverfarms', 'microsoft.sql/servers/databases')
        and resource.region <> ''
        and tenant.is_active
        ${tenantId ? sql`and resource.tenant_id = ${tenantId}::uuid` : sql``}
      order by resource.region, resource.tenant_id, subscription.subscription_id
    `);
    return result.rows;
  }
}
