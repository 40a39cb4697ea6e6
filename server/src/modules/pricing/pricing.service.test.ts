import { describe, expect, it } from 'vitest';
import type { RetailPrice } from '../../cloud/cloud-provider';
import { selectPayAsYouGoPrices } from './pricing.service';

function price(overrides: Partial<RetailPrice>): RetailPrice {
  return {
    skuName: 'D2s v5',
    armSkuName: 'Standard_D2s_v5',
    productName: 'Virtual Machines Dsv5 Series',
    meterName: 'D2s v5',
    region: 'eastus',
    retailPrice: 0.096,
    unitOfMeasure: '1 Hour',
    currencyCode: 'USD',
    type: 'Consumption',
    ...overrides,
  };
}

describe('selectPayAsYouGoPrices', () => {
  it('keeps the Linux and Windows pay-as-you-go hourly meters and nothing else', () => {
    const selected = selectPayAsYouGoPrices([
      price({}),
      price({ productName: 'Virtual Machines Dsv5 Series Windows', retailPrice: 0.188 }),
      price({ skuName: 'D2s v5 Spot', retailPrice: 0.02 }),
      price({ skuName: 'D2s v5 Low Priority', retailPrice: 0.02 }),
      price({ type: 'Reservation', retailPrice: 500, unitOfMeasure: '1 Year' }),
      price({ type: 'DevTestConsumption', retailPrice: 0.05 }),
      price({ productName: 'Cloud Services Dv5 Series', retailPrice: 0.3 }),
      price({ armSkuName: '', retailPrice: 0.4 }),
    ]);
    expect(selected).toEqual([
      { sizeName: 'Standard_D2s_v5', osType: 'Linux', hourlyPrice: 0.096, currencyCode: 'USD' },
      { sizeName: 'Standard_D2s_v5', osType: 'Windows', hourlyPrice: 0.188, currencyCode: 'USD' },
    ]);
  });

  it('keeps the higher of two pay-as-you-go meters of one size, whatever their order', () => {
    const meters = [price({ retailPrice: 0.1 }), price({ retailPrice: 0.12 })];
    expect(selectPayAsYouGoPrices(meters)[0]!.hourlyPrice).toBe(0.12);
    expect(selectPayAsYouGoPrices([...meters].reverse())[0]!.hourlyPrice).toBe(0.12);
  });
});
