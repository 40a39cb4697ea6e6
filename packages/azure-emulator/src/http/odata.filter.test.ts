import { describe, expect, it } from 'vitest';
import { compileFilter, FilterSyntaxError } from './odata.filter';

interface Row {
  readonly armRegionName: string;
  readonly armSkuName: string;
  readonly type: string;
  readonly retailPrice: number;
}

const rows: Row[] = [
  { armRegionName: 'eastus', armSkuName: 'Standard_D2s_v5', type: 'Consumption', retailPrice: 0.096 },
  { armRegionName: 'eastus', armSkuName: 'Standard_D4s_v5', type: 'Reservation', retailPrice: 500 },
  { armRegionName: 'westeurope', armSkuName: 'Standard_D2s_v5', type: 'Consumption', retailPrice: 0.107 },
];

const readField = (row: Row, field: string) => row[field as keyof Row];

function select(filter: string, isCaseSensitive = true): string[] {
  return rows
    .filter(compileFilter(filter, readField, { isCaseSensitive }))
    .map((row) => `${row.armRegionName}/${row.armSkuName}`);
}

describe('compileFilter', () => {
  it('joins comparisons with and, or and parentheses', () => {
    expect(select("armRegionName eq 'eastus' and type eq 'Consumption'")).toEqual(['eastus/Standard_D2s_v5']);
    expect(select("(armRegionName eq 'westeurope' or type eq 'Reservation') and armSkuName ne 'x'")).toEqual([
      'eastus/Standard_D4s_v5',
      'westeurope/Standard_D2s_v5',
    ]);
    expect(select("retailPrice lt 1 and not (armRegionName eq 'eastus')")).toEqual([
      'westeurope/Standard_D2s_v5',
    ]);
  });

  it('supports the string functions and quoted quotes', () => {
    expect(select("contains(armSkuName, 'D4s')")).toEqual(['eastus/Standard_D4s_v5']);
    expect(select("startswith(armRegionName, 'west')")).toEqual(['westeurope/Standard_D2s_v5']);
    expect(select("substringof('D2s', armSkuName) and armRegionName eq 'eastus'")).toEqual([
      'eastus/Standard_D2s_v5',
    ]);
    expect(select("armSkuName eq 'it''s'")).toEqual([]);
  });

  it('compares text exactly or without regard to case, as asked', () => {
    expect(select("armRegionName eq 'EastUS'")).toEqual([]);
    expect(select("armRegionName eq 'EastUS'", false)).toHaveLength(2);
  });

  it('rejects malformed filters', () => {
    expect(() => select("armRegionName eq 'eastus")).toThrow(FilterSyntaxError);
    expect(() => select('armRegionName eastus')).toThrow(FilterSyntaxError);
    expect(() => select("(armRegionName eq 'eastus'")).toThrow(FilterSyntaxError);
  });
});
