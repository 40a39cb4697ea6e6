import { deriveGuid, deriveToken } from '../fleet/noise.hash';
import {
  regions,
  isSizeOfferedInRegion,
  virtualMachineSizes,
  type SizeSeries,
  type VirtualMachineSize,
} from './sku.catalog';

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
  readonly serviceName: 'Virtual Machines';
  readonly serviceId: string;
  readonly serviceFamily: 'Compute';
  readonly unitOfMeasure: '1 Hour';
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
const hoursPerYear = 8760;
const serviceId = 'DZH313Z7MMC8';
const productAlphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ0123456789';
const catalogSeed = 0;

function roundPrice(value: number): number {
  return Math.round(value * 10000) / 10000;
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

let cachedItems: RetailPriceItem[] | undefined;

export function listRetailPriceItems(): readonly RetailPriceItem[] {
  cachedItems ??= buildItems();
  return cachedItems;
}
