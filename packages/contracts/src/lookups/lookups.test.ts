import { describe, expect, it } from 'vitest';
import { companySizes } from './company-sizes';
import { countries } from './countries';
import { industries, industryGroups, naicsIndustries } from './industries';
import type { LookupEntry } from './lookup-entry';
import { findLookupDescription } from './lookup-entry';
import { getRegionsOfCountry, regions } from './regions';
import { revenues } from './revenues';

const countCodes = (entries: readonly LookupEntry[]) => new Set(entries.map((entry) => entry.code)).size;

describe('lookup lists', () => {
  it('hold every ISO 3166-1 country once, by alpha-3 code', () => {
    expect(countries).toHaveLength(249);
    expect(countCodes(countries)).toBe(249);
    expect(countries.every((country) => /^[A-Z]{3}$/.test(country.code))).toBe(true);
    expect(findLookupDescription(countries, 'USA')).toBe('United States of America');
  });

  it('hold the US states with DC and the Canadian provinces and territories, by two-letter code', () => {
    expect(countCodes(regions)).toBe(regions.length);
    expect(regions.every((region) => /^[A-Z]{2}$/.test(region.code))).toBe(true);
    expect(getRegionsOfCountry('CAN')).toHaveLength(13);
    expect(getRegionsOfCountry('USA').filter((region) => region.code === 'DC')).toHaveLength(1);
    expect(getRegionsOfCountry('USA').length).toBeGreaterThanOrEqual(51);
  });

  it("hold SPEC's company sizes A to I", () => {
    expect(companySizes.map((size) => size.code).join('')).toBe('ABCDEFGHI');
    expect(companySizes.map((size) => size.description)).toEqual([
      '1',
      '2-5',
      '6-10',
      '11-25',
      '25-50',
      '51-100',
      '101-500',
      '501-1000',
      'more than 1000',
    ]);
  });

  it("hold SPEC's revenues A to D", () => {
    expect(revenues.map((revenue) => revenue.code).join('')).toBe('ABCD');
    expect(revenues.map((revenue) => revenue.description)).toEqual([
      'under $100,000',
      '$100,000 to $999,999',
      '$1,000,000 to $4,999,999',
      'over $5,000,000',
    ]);
  });

  it('hold the 20 NAICS 2022 sectors, their 96 subsectors and our groups NN001 to NN008', () => {
    expect(naicsIndustries.filter((industry) => /^NAICS\d{2}$/.test(industry.code))).toHaveLength(20);
    expect(naicsIndustries.filter((industry) => /^NAICS\d{3}$/.test(industry.code))).toHaveLength(96);
    expect(industryGroups.map((group) => group.code)).toEqual(
      Array.from({ length: 8 }, (_, index) => `NN00${index + 1}`),
    );
    expect(countCodes(industries)).toBe(industries.length);
    expect(new Set(industries.map((industry) => industry.description.trim())).size).toBeGreaterThan(100);
    expect(findLookupDescription(industries, 'NAICS111')).toBe('Crop Production');
  });

  it('place each subsector under its sector', () => {
    let sector = '';
    for (const { code } of naicsIndustries) {
      const digits = code.slice('NAICS'.length);
      if (digits.length === 2) sector = digits;
      // Ranged sectors (31-33, 44-45, 48-49) hold subsectors of up to two numbers above their own.
      else expect(Number(digits.slice(0, 2)) - Number(sector)).toBeOneOf([0, 1, 2]);
    }
  });
});
