// The list prices the waste finders need beyond VM sizes. The pricing module fills one from the
// Retail Prices API; the finders only read it, so they stay pure and testable.
export interface WastePriceBook {
  // List price a month of a managed disk of this SKU holding sizeGb (Azure bills the smallest tier that holds it).
  diskMonthly(region: string, skuName: string, sizeGb: number): number | undefined;
  // An incremental snapshot's price per used GiB a month.
  snapshotGbMonthly(region: string): number | undefined;
  publicIpHourly(region: string, skuName: string): number | undefined;
  // One instance (worker) of a plan SKU an hour; os 'linux' | 'windows'.
  planHourly(region: string, skuName: string, os: 'linux' | 'windows'): number | undefined;
  // A database at this SKU an hour (DTU objectives are priced a day in Azure: divide by 24).
  databaseHourly(region: string, skuName: string): number | undefined;
}
