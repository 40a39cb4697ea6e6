import { describe, expect, it } from 'vitest';
import {
  applyRecommendationQuerySchema,
  automationLogResponseSchema,
  formatAnnualCostSavings,
  recommendationsResponseSchema,
} from './recommendations';

describe('recommendations', () => {
  it('wraps recommendations and automation logs in `Data`', () => {
    const recommendation = {
      Id: 7,
      ResourceId: '/subscriptions/s/resourceGroups/g/providers/Microsoft.Compute/virtualMachines/vm1',
      FriendlyName: 'vm1',
      When: '2025-01-01T10:00:00.000Z',
      PredictionMethod: 'P95',
      Recommendation: 'Resize to Standard_B2s',
      Memo: null,
      AnnualCostSavings: 1234.5,
    };
    expect(recommendationsResponseSchema.safeParse({ Data: [recommendation] }).success).toBe(true);
    expect(recommendationsResponseSchema.safeParse([recommendation]).success).toBe(false);
    const entry = {
      ResourceId: 'r',
      FriendlyName: 'vm1',
      When: '2025-01-01T10:00:00Z',
      PredictionMethod: 'P95',
    };
    expect(automationLogResponseSchema.safeParse({ Data: [{ ...entry, Action: 'Resized' }] }).success).toBe(
      true,
    );
  });

  it('applies by a positive whole id', () => {
    expect(applyRecommendationQuerySchema.parse({ id: '7' })).toEqual({ id: 7 });
    expect(applyRecommendationQuerySchema.safeParse({ id: '0' }).success).toBe(false);
  });

  it('shows savings with $, separators and 2 decimals', () => {
    expect(formatAnnualCostSavings(1234.5)).toBe('$1,234.50');
  });
});
