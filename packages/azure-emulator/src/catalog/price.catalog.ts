import { deriveGuid, deriveToken } from '../fleet/noise.hash';
import {
  appServicePlanSizes,
  databaseObjectives,
  diskProducts,
  diskSkuNames,
  publicIpHourlyPrices,
  snapshotGiBMonthlyPrice,
  type PublicIpSkuName,
} from './platform.catalog';
import {
  regions,
  isSizeOfferedInRegion,
  virtualMachineSizes,
  type SizeSeries,
  type VirtualMachineSize,
} from './sku.catalog';
import { hoursPerYear } from '../time';

// List prices shaped like the Azure Retail Prices API. Linux pay-as-you-go prices follow the
// published East US figures of each family (a price per vCPU plus a price per GiB), scaled by a
// regional multiplier; Windows, Spot, Low Priority and reservations sit beside them so callers
// must filter as they would against the real API.

export interface RetailPriceItem {
  readonly currencyCode: 'USD';
  readonly tierMinimumUnits: number;
  readonly reservationTerm?: string;
  readonly retailPrice: number;
  readonly unitPrice: number;
  readonly armRegionName: string;
  readonly location: string;
  readonly effectiveStartDate: string;
  readonly meterId: string;
  readonly meterName: string;
  readonly productId: string;
  readonly skuId: string;
  readonly productName: string;
  readonly skuName: string;
  readonly serviceName: string;
  readonly serviceId: string;
  readonly serviceFamily: string;
  readonly unitOfMeasure: string;
  readonly type: 'Consumption' | 'Reservation';
  readonly isPrimaryMeterRegion: boolean;
  readonly armSkuName: string;
}

interface SeriesPricing {
  readonly productName: string;
  readonly pricePerVcpu: number;
  readonly pricePerGiB: number;
  readonly hasSpot: boolean;
}

const seriesPricing: Readonly<Record<SizeSeries, SeriesPricing>> = {
  B: { productName: 'Virtual Machines BS Series', pricePerVcpu: 0, pricePerGiB: 0.0104, hasSpot: false },
  Dsv5: {
    productName: 'Virtual Machines Dsv5 Series',
    pricePerVcpu: 0.0315,
    pricePerGiB: 0.004,
    hasSpot: true,
  },
  Esv5: {
    productName: 'Virtual Machines Esv5 Series',
    pricePerVcpu: 0.0315,
    pricePerGiB: 0.004,
    hasSpot: true,
  },
  Fsv2: {
    productName: 'Virtual Machines FSv2 Series',
    pricePerVcpu: 0.0343,
    pricePerGiB: 0.004,
    hasSpot: true,
  },
};

const priceRegionNames: Readonly<Record<string, string>> = {
  eastus: 'US East',
  westus2: 'US West 2',
  westeurope: 'EU West',
  northeurope: 'EU North',
};

const windowsLicensePerVcpu = 0.046;
const spotDiscount = 0.2;
const oneYearReservationShare = 0.62;
const threeYearReservationShare = 0.4;
const serviceId = 'DZH313Z7MMC8';
const productAlphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ0123456789';
const catalogSeed = 0;

function roundPrice(value: number): number {
  return Math.round(value * 10000) / 10000;
}

/** An East US list price in a region, rounded as the Retail Prices API serves it. */
export function computeRegionalPrice(eastUsPrice: number, regionName: string): number {
  const multiplier = regions.find((candidate) => candidate.name === regionName)?.priceMultiplier ?? 1;
  return roundPrice(eastUsPrice * multiplier);
}

/** The Linux pay-as-you-go hourly list price of a size in a region. */
export function computeLinuxHourlyPrice(size: VirtualMachineSize, regionName: string): number {
  const pricing = seriesPricing[size.series];
  const region = regions.find((candidate) => candidate.name === regionName);
  const multiplier = region?.priceMultiplier ?? 1;
  return roundPrice((pricing.pricePerVcpu * size.vcpus + pricing.pricePerGiB * size.memoryGiB) * multiplier);
}

/** The pay-as-you-go hourly list price of a size in a region for an OS: Windows adds its licence. */
export function computeHourlyPrice(
  size: VirtualMachineSize,
  regionName: string,
  osType: 'Linux' | 'Windows',
): number {
  const linuxPrice = computeLinuxHourlyPrice(size, regionName);
  if (osType === 'Linux') return linuxPrice;
  const multiplier = regions.find((candidate) => candidate.name === regionName)?.priceMultiplier ?? 1;
  return roundPrice(linuxPrice + windowsLicensePerVcpu * size.vcpus * multiplier);
}

function buildItems(): RetailPriceItem[] {
  const items: RetailPriceItem[] = [];
  for (const size of virtualMachineSizes) {
    const pricing = seriesPricing[size.series];
    const skuName = size.size.replace(/_/g, ' ');
    for (const region of regions) {
      if (!isSizeOfferedInRegion(size.name, region.name)) continue;
      const linuxPrice = computeLinuxHourlyPrice(size, region.name);
      const windowsPrice = computeHourlyPrice(size, region.name, 'Windows');
      const variants: {
        label: string;
        productName: string;
        skuName: string;
        price: number;
        type: 'Consumption' | 'Reservation';
        reservationTerm?: string;
      }[] = [
        { label: 'linux', productName: pricing.productName, skuName, price: linuxPrice, type: 'Consumption' },
        {
          label: 'windows',
          productName: `${pricing.productName} Windows`,
          skuName,
          price: windowsPrice,
          type: 'Consumption',
        },
        {
          label: 'reservation-1',
          productName: pricing.productName,
          skuName,
          price: roundPrice(linuxPrice * oneYearReservationShare * hoursPerYear),
          type: 'Reservation',
          reservationTerm: '1 Year',
        },
        {
          label: 'reservation-3',
          productName: pricing.productName,
          skuName,
          price: roundPrice(linuxPrice * threeYearReservationShare * hoursPerYear * 3),
          type: 'Reservation',
          reservationTerm: '3 Years',
        },
      ];
      if (pricing.hasSpot) {
        const discounted = roundPrice(linuxPrice * spotDiscount);
        variants.push(
          {
            label: 'spot',
            productName: pricing.productName,
            skuName: `${skuName} Spot`,
            price: discounted,
            type: 'Consumption',
          },
          {
            label: 'low-priority',
            productName: pricing.productName,
            skuName: `${skuName} Low Priority`,
            price: discounted,
            type: 'Consumption',
          },
        );
      }
      const productId = `DZH318Z0${deriveToken(catalogSeed, `product:${pricing.productName}`, 4, productAlphabet)}`;
      for (const variant of variants) {
        const productForVariant =
          variant.label === 'windows' ? `${productId.slice(0, 8)}W${productId.slice(9)}` : productId;
        items.push({
          currencyCode: 'USD',
          tierMinimumUnits: 0,
          ...(variant.reservationTerm ? { reservationTerm: variant.reservationTerm } : {}),
          retailPrice: variant.price,
          unitPrice: variant.price,
          armRegionName: region.name,
          location: priceRegionNames[region.name] ?? region.displayName,
          effectiveStartDate: '2023-08-01T00:00:00Z',
          meterId: deriveGuid(catalogSeed, `meter:${size.name}:${region.name}:${variant.label}`),
          meterName: variant.skuName,
          productId: productForVariant,
          skuId: `${productForVariant}/${deriveToken(catalogSeed, `sku:${size.name}:${variant.label}`, 4, productAlphabet)}`,
          productName: variant.productName,
          skuName: variant.skuName,
          serviceName: 'Virtual Machines',
          serviceId,
          serviceFamily: 'Compute',
          unitOfMeasure: '1 Hour',
          type: variant.type,
          isPrimaryMeterRegion: true,
          armSkuName: size.name,
        });
      }
    }
  }
  return items;
}

interface ServiceMeter {
  readonly serviceName: string;
  readonly serviceId: string;
  readonly serviceFamily: string;
  readonly productName: string;
  readonly skuName: string;
  readonly meterName: string;
  readonly unitOfMeasure: string;
  readonly armSkuName: string;
  /** East US list price; other regions scale it. */
  readonly price: number;
}

const diskArmSkuPrefixes = {
  Premium_LRS: 'Premium_SSD_Managed_Disk',
  StandardSSD_LRS: 'Standard_SSD_Managed_Disk',
  Standard_LRS: 'Standard_HDD_Managed_Disk',
} as const;

// The meters of disks, snapshots, public IPs, App Service plans and SQL databases, named as the
// Retail Prices API names them.
function listServiceMeters(): ServiceMeter[] {
  const meters: ServiceMeter[] = [];
  const storage = { serviceName: 'Storage', serviceId: 'DZH317F1HKN0', serviceFamily: 'Storage' };
  for (const skuName of diskSkuNames) {
    const product = diskProducts[skuName];
    for (const tier of product.tiers) {
      meters.push({
        ...storage,
        productName: product.productName,
        skuName: `${tier.name} LRS`,
        meterName: `${tier.name} LRS Disk`,
        unitOfMeasure: '1/Month',
        armSkuName: `${diskArmSkuPrefixes[skuName]}_${tier.name}`,
        price: tier.monthlyPrice,
      });
    }
  }
  meters.push({
    ...storage,
    productName: diskProducts.Standard_LRS.productName,
    skuName: 'Snapshots LRS',
    meterName: 'LRS Snapshots',
    unitOfMeasure: '1 GB/Month',
    armSkuName: '',
    price: snapshotGiBMonthlyPrice,
  });
  for (const skuName of Object.keys(publicIpHourlyPrices) as PublicIpSkuName[]) {
    meters.push({
      serviceName: 'Virtual Network',
      serviceId: 'DZH3180BS45F',
      serviceFamily: 'Networking',
      productName: 'IP Addresses',
      skuName,
      meterName: `${skuName} IPv4 Static Public IP`,
      unitOfMeasure: '1 Hour',
      armSkuName: '',
      price: publicIpHourlyPrices[skuName],
    });
  }
  for (const size of appServicePlanSizes) {
    const appService = {
      serviceName: 'Azure App Service',
      serviceId: 'DZH317F1HKN1',
      serviceFamily: 'Compute',
      skuName: size.retailSkuName,
      meterName: `${size.retailSkuName} App`,
      unitOfMeasure: '1 Hour',
      armSkuName: '',
    };
    meters.push(
      { ...appService, productName: `${size.productName} - Linux`, price: size.linuxHourlyPrice },
      { ...appService, productName: size.productName, price: size.windowsHourlyPrice },
    );
  }
  const sql = { serviceName: 'SQL Database', serviceId: 'DZH317F1HKN2', serviceFamily: 'Databases' };
  for (const objective of databaseObjectives) {
    if (objective.dailyPrice === undefined) continue;
    meters.push({
      ...sql,
      productName: `SQL Database Single ${objective.tier}`,
      skuName: objective.name,
      meterName: `${objective.name} DTUs`,
      unitOfMeasure: '1/Day',
      armSkuName: '',
      price: objective.dailyPrice,
    });
  }
  const vcoreTiers = new Map<string, number>();
  for (const objective of databaseObjectives) {
    if (objective.vcoreHourlyPrice !== undefined) vcoreTiers.set(objective.tier, objective.vcoreHourlyPrice);
  }
  for (const [tier, price] of vcoreTiers) {
    meters.push({
      ...sql,
      productName: `SQL Database Single/Elastic Pool ${tier === 'GeneralPurpose' ? 'General Purpose' : 'Business Critical'} - Compute Gen5`,
      skuName: 'vCore',
      meterName: 'vCore',
      unitOfMeasure: '1 Hour',
      armSkuName: '',
      price,
    });
  }
  return meters;
}

function buildServiceItems(): RetailPriceItem[] {
  const items: RetailPriceItem[] = [];
  for (const meter of listServiceMeters()) {
    const productId = `DZH318Z0${deriveToken(catalogSeed, `product:${meter.productName}`, 4, productAlphabet)}`;
    const skuId = `${productId}/${deriveToken(catalogSeed, `sku:${meter.productName}:${meter.skuName}`, 4, productAlphabet)}`;
    for (const region of regions) {
      const price = computeRegionalPrice(meter.price, region.name);
      items.push({
        currencyCode: 'USD',
        tierMinimumUnits: 0,
        retailPrice: price,
        unitPrice: price,
        armRegionName: region.name,
        location: priceRegionNames[region.name] ?? region.displayName,
        effectiveStartDate: '2023-08-01T00:00:00Z',
        meterId: deriveGuid(catalogSeed, `meter:${meter.productName}:${meter.meterName}:${region.name}`),
        meterName: meter.meterName,
        productId,
        skuId,
        productName: meter.productName,
        skuName: meter.skuName,
        serviceName: meter.serviceName,
        serviceId: meter.serviceId,
        serviceFamily: meter.serviceFamily,
        unitOfMeasure: meter.unitOfMeasure,
        type: 'Consumption',
        isPrimaryMeterRegion: true,
        armSkuName: meter.armSkuName,
      });
    }
  }
  return items;
}

let cachedItems: RetailPriceItem[] | undefined;

export function listRetailPriceItems(): readonly RetailPriceItem[] {
  cachedItems ??= [...buildItems(), ...buildServiceItems()];
  return cachedItems;
}
