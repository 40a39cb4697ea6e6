import {
  computeLinuxHourlyPrice,
  listRetailPriceItems,
} from '@cloudtrim/azure-emulator/catalog/price.catalog';
import { listSizesOfferedInRegion } from '@cloudtrim/azure-emulator/catalog/sku.catalog';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectTenant, createCloudTestContext, type CloudTestContext } from '../../../test/azure-emulator';
import { createUser } from '../../../test/helper';
import { hourMs } from '../../lib/time';

describe('prices and sizes', () => {
  let context: CloudTestContext;
  let tenantId: string;
  let clock = Date.parse('2026-03-02T10:00:00Z');

  beforeAll(async () => {
    context = await createCloudTestContext({ emulator: { fleetSize: 12 }, now: () => new Date(clock) });
    const user = await createUser(context);
    tenantId = await connectTenant(context, user.teamId);
    await context.container.inventory.syncTenant(tenantId);
  });
  afterAll(() => context.close());

  async function readRegionsInUse(): Promise<string[]> {
    const result = await context.container.database.db.execute<{ region: string }>(sql`
      select distinct region from resource
      where tenant_id = ${tenantId}::uuid
        and type in ('Microsoft.Compute/virtualMachines', 'Microsoft.Compute/disks',
          'Microsoft.Network/publicIPAddresses', 'Microsoft.Web/serverfarms', 'Microsoft.Sql/servers/databases')
      order by region`);
    return result.rows.map((row) => row.region);
  }

  it('reads the catalogue of every region in use, with capabilities, and both OS prices with their read time', async () => {
    const regions = await readRegionsInUse();
    expect(regions.length).toBeGreaterThan(0);
    const summary = await context.container.pricing.ensureFreshForTenant(tenantId);
    expect(summary.failures).toEqual([]);
    expect([...summary.regions].sort()).toEqual(regions);

    for (const region of regions) {
      const catalogue = await context.container.pricing.loadCatalogue(region);
      const offered = listSizesOfferedInRegion(region);
      expect(catalogue.sizes.map((size) => size.name).sort()).toEqual(
        offered.map((size) => size.name).sort(),
      );
      for (const size of offered) {
        expect(catalogue.sizes.find((item) => item.name === size.name)).toEqual({
          name: size.name,
          family: size.family,
          vcpus: size.vcpus,
          memoryGiB: size.memoryGiB,
          maxDataDisks: size.maxDataDisks,
          maxNics: size.maxNetworkInterfaces,
          hasPremiumIo: size.isPremiumIoSupported,
          hasAcceleratedNetworking: size.isAcceleratedNetworkingEnabled,
          isAvailable: true,
        });
        const linux = catalogue.pricesByOs.Linux.get(size.name);
        const windows = catalogue.pricesByOs.Windows.get(size.name);
        expect(linux).toEqual({
          hourlyPrice: computeLinuxHourlyPrice(size, region),
          currencyCode: 'USD',
          readAt: '2026-03-02',
          source: 'Azure Retail Prices API',
        });
        const windowsItem = listRetailPriceItems().find(
          (item) =>
            item.armSkuName === size.name &&
            item.armRegionName === region &&
            item.type === 'Consumption' &&
            item.productName.endsWith('Windows'),
        );
        expect(windows?.hourlyPrice).toBe(windowsItem?.retailPrice);
        expect(windows!.hourlyPrice).toBeGreaterThan(linux!.hourlyPrice);
      }
    }
    const stored = await context.container.database.db.execute<{ count: number; read_at: Date }>(sql`
      select count(*)::int as count, min(read_at) as read_at from vm_price`);
    expect(stored.rows[0]!.count).toBeGreaterThan(0);
    expect(new Date(stored.rows[0]!.read_at).toISOString()).toBe('2026-03-02T10:00:00.000Z');
  });

  it("prices disks, snapshots, IPs, plans and databases from the region's retail meters", async () => {
    const regions = await readRegionsInUse();
    const book = await context.container.pricing.loadWastePriceBook(regions);
    const items = listRetailPriceItems();
    const find = (region: string, productName: string, meterName: string) =>
      items.find(
        (item) =>
          item.armRegionName === region &&
          item.productName === productName &&
          item.meterName === meterName &&
          item.type === 'Consumption',
      )?.retailPrice;
    for (const region of regions) {
      expect(book.diskMonthly(region, 'Premium_LRS', 100)).toBe(
        find(region, 'Premium SSD Managed Disks', 'P10 LRS Disk'),
      );
      expect(book.diskMonthly(region, 'Standard_LRS', 1000)).toBe(
        find(region, 'Standard HDD Managed Disks', 'S30 LRS Disk'),
      );
      expect(book.snapshotGbMonthly(region)).toBe(
        find(region, 'Standard HDD Managed Disks', 'LRS Snapshots'),
      );
      expect(book.publicIpHourly(region, 'Standard')).toBe(
        find(region, 'IP Addresses', 'Standard IPv4 Static Public IP'),
      );
      expect(book.planHourly(region, 'P1v3', 'linux')).toBe(
        find(region, 'Azure App Service Premium v3 Plan - Linux', 'P1 v3 App'),
      );
      expect(book.planHourly(region, 'P1v3', 'windows')).toBe(
        find(region, 'Azure App Service Premium v3 Plan', 'P1 v3 App'),
      );
      expect(book.databaseHourly(region, 'S3')).toBeCloseTo(
        find(region, 'SQL Database Single Standard', 'S3 DTUs')! / 24,
      );
      expect(book.databaseHourly(region, 'GP_Gen5_2')).toBeCloseTo(
        find(region, 'SQL Database Single/Elastic Pool General Purpose - Compute Gen5', 'vCore')! * 2,
      );
    }
  });

  it('keeps a fresh catalogue and reads a stale one again', async () => {
    clock += 2 * hourMs;
    expect((await context.container.pricing.ensureFreshForTenant(tenantId)).regions).toEqual([]);

    clock += 24 * hourMs;
    const regions = await readRegionsInUse();
    expect([...(await context.container.pricing.ensureFreshForTenant(tenantId)).regions].sort()).toEqual(
      regions,
    );
    const stored = await context.container.database.db.execute<{ read_at: Date }>(sql`
      select distinct read_at from vm_size union select distinct read_at from vm_price
      union select distinct read_at from waste_price`);
    expect(stored.rows.map((row) => new Date(row.read_at).getTime())).toEqual([clock]);
  });

  it('refreshes every region in use on the daily schedule', async () => {
    clock += hourMs;
    const summary = await context.container.pricing.refreshRegionsInUse();
    expect(summary.failures).toEqual([]);
    expect([...summary.regions].sort()).toEqual(await readRegionsInUse());
  });
});
