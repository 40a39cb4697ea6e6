import { describe, expect, it } from 'vitest';
import type { RetailPrice } from '../../cloud/cloud-provider';
import { buildWastePriceBook, selectWastePrices } from './waste-prices';

function meter(overrides: Partial<RetailPrice>): RetailPrice {
  return {
    skuName: 'P10 LRS',
    armSkuName: '',
    productName: 'Premium SSD Managed Disks',
    meterName: 'P10 LRS Disk',
    region: 'eastus',
    retailPrice: 19.71,
    unitOfMeasure: '1/Month',
    currencyCode: 'USD',
    type: 'Consumption',
    ...overrides,
  };
}

const meters = [
  meter({}),
  meter({
    skuName: 'S10 LRS',
    productName: 'Standard HDD Managed Disks',
    meterName: 'S10 LRS Disk',
    retailPrice: 5.89,
  }),
  meter({ skuName: 'P10 LRS', meterName: 'P10 LRS Disk Mount', retailPrice: 1 }),
  meter({
    skuName: 'Snapshots LRS',
    productName: 'Standard HDD Managed Disks',
    meterName: 'LRS Snapshots',
    unitOfMeasure: '1 GB/Month',
    retailPrice: 0.05,
  }),
  meter({
    skuName: 'Standard',
    productName: 'IP Addresses',
    meterName: 'Standard IPv4 Static Public IP',
    unitOfMeasure: '1 Hour',
    retailPrice: 0.005,
  }),
  meter({
    skuName: 'P1 v3',
    productName: 'Azure App Service Premium v3 Plan - Linux',
    meterName: 'P1 v3 App',
    unitOfMeasure: '1 Hour',
    retailPrice: 0.155,
  }),
  meter({
    skuName: 'P1 v3',
    productName: 'Azure App Service Premium v3 Plan',
    meterName: 'P1 v3 App',
    unitOfMeasure: '1 Hour',
    retailPrice: 0.225,
  }),
  meter({
    skuName: 'S3',
    productName: 'SQL Database Single Standard',
    meterName: 'S3 DTUs',
    unitOfMeasure: '1/Day',
    retailPrice: 4.8,
  }),
  meter({
    skuName: 'vCore',
    productName: 'SQL Database Single/Elastic Pool General Purpose - Compute Gen5',
    meterName: 'vCore',
    unitOfMeasure: '1 Hour',
    retailPrice: 0.2522,
  }),
  meter({ type: 'Reservation', retailPrice: 100 }),
];

describe('selectWastePrices', () => {
  it("keeps the contract's pay-as-you-go meters under the names Cloudtrim looks them up by", () => {
    expect(
      selectWastePrices(meters).map(({ kind, skuName, variant, unitPrice }) => [
        kind,
        skuName,
        variant,
        unitPrice,
      ]),
    ).toEqual([
      ['disk', 'P10', 'LRS', 19.71],
      ['disk', 'S10', 'LRS', 5.89],
      ['snapshot', 'LRS', '', 0.05],
      ['publicIp', 'Standard', '', 0.005],
      ['plan', 'P1v3', 'linux', 0.155],
      ['plan', 'P1v3', 'windows', 0.225],
      ['database', 'S3', '', 4.8],
      ['vcore', 'GP_Gen5', '', 0.2522],
    ]);
  });

  it('keeps the higher of a meter listed twice, whatever the order', () => {
    const twice = [meter({ retailPrice: 19 }), meter({ retailPrice: 21 })];
    expect(selectWastePrices(twice)[0]!.unitPrice).toBe(21);
    expect(selectWastePrices([...twice].reverse())[0]!.unitPrice).toBe(21);
  });
});

describe('buildWastePriceBook', () => {
  const book = buildWastePriceBook(selectWastePrices(meters).map((row) => ({ ...row, region: 'eastus' })));

  it('prices a disk as the smallest tier holding its size, and a snapshot by the GiB', () => {
    expect(book.diskMonthly('eastus', 'Premium_LRS', 100)).toBe(19.71);
    expect(book.diskMonthly('eastus', 'Standard_LRS', 128)).toBe(5.89);
    expect(book.diskMonthly('eastus', 'Premium_LRS', 200)).toBeUndefined();
    expect(book.diskMonthly('westus2', 'Premium_LRS', 100)).toBeUndefined();
    expect(book.snapshotGbMonthly('eastus')).toBe(0.05);
  });

  it('prices IPs and plans by the hour, a DTU database a day over 24 and a vCore one by its vCores', () => {
    expect(book.publicIpHourly('eastus', 'Standard')).toBe(0.005);
    expect(book.publicIpHourly('eastus', 'Basic')).toBeUndefined();
    expect(book.planHourly('eastus', 'P1v3', 'linux')).toBe(0.155);
    expect(book.planHourly('eastus', 'P1v3', 'windows')).toBe(0.225);
    expect(book.databaseHourly('eastus', 'S3')).toBeCloseTo(0.2);
    expect(book.databaseHourly('eastus', 'GP_Gen5_4')).toBeCloseTo(1.0088);
    expect(book.databaseHourly('eastus', 'S1')).toBeUndefined();
  });
});
