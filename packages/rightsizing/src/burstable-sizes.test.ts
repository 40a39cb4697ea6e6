import { describe, expect, it } from 'vitest';
import { findPublishedCredits, isBurstable, readCreditTerms } from './burstable-sizes';

const bsv1 = ['B1ls', 'B1s', 'B1ms', 'B2s', 'B2ms', 'B4ms', 'B8ms', 'B12ms', 'B16ms', 'B20ms'];

describe('burstable sizes', () => {
  it("holds Azure's published figures: credits an hour are the base × 60 / 100, the maximum 24 hours of them", () => {
    for (const size of bsv1) {
      const published = findPublishedCredits(`Standard_${size}`)!;
      // Azure rounds B12ms (202% banks 121 an hour, 2,909 at most) and B20ms (337%, 202, 4,860).
      expect(Math.abs(published.creditsBankedPerHour - (published.baseCpuPct * 60) / 100)).toBeLessThan(0.5);
      expect(Math.abs(published.maxBankedCredits - published.creditsBankedPerHour * 24)).toBeLessThanOrEqual(
        12,
      );
    }
  });

  it('gives 30 initial credits per vCPU, as skus-burstable.csv does', () => {
    expect(readCreditTerms({ name: 'Standard_B4ms' })).toEqual({
      baseVcpus: 0.9,
      maxBankedCredits: 1296,
      initialCredits: 120,
    });
    expect(readCreditTerms({ name: 'standard_b20ms' })?.initialCredits).toBe(600);
  });

  it("prefers the catalogue's figures and knows no figures for other series", () => {
    const credits = { baseVcpus: 0.5, maxBankedCredits: 700, initialCredits: 60 };
    expect(readCreditTerms({ name: 'Standard_B2s', credits })).toBe(credits);
    expect(readCreditTerms({ name: 'Standard_B2s_v2' })).toBeNull();
    expect(readCreditTerms({ name: 'Standard_D4s_v5' })).toBeNull();
  });

  it('tells burstable sizes by name or by their credits', () => {
    expect(isBurstable({ name: 'Standard_B2ls_v2' })).toBe(true);
    expect(isBurstable({ name: 'Standard_B4ms' })).toBe(true);
    expect(isBurstable({ name: 'Standard_D4s_v5' })).toBe(false);
    expect(
      isBurstable({ name: 'Custom', credits: { baseVcpus: 1, maxBankedCredits: 1, initialCredits: 1 } }),
    ).toBe(true);
  });
});
