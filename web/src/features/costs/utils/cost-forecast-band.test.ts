import { describe, expect, it } from 'vitest';
import { buildForecastBand, getForecastQuery, getMonthEnd } from './cost-forecast-band';

const tenantId = '0b2f5e4c-8a3d-4f61-9c7e-2d1a6b9e0f34';

describe('the forecast band', () => {
  it('is asked for this month’s actual cost, with the filters the forecast takes', () => {
    expect(getForecastQuery('this-month', 'actual', { tenantId, resourceGroup: 'web-rg' })).toEqual({
      period: 'month',
      tenantId,
      subscriptionId: undefined,
      resourceGroup: 'web-rg',
      tag: undefined,
    });
  });

  it('is not asked for other periods, amortized cost or one service', () => {
    expect(getForecastQuery('last-month', 'actual', {})).toBeNull();
    expect(getForecastQuery('this-month', 'amortized', {})).toBeNull();
    expect(getForecastQuery('this-month', 'actual', { service: 'Storage' })).toBeNull();
  });

  it('puts each forecast day under its bucket and leaves the billed days empty', () => {
    const days = [
      { Date: '2026-11-24', Cost: 10, Kind: 'actual' as const, Low: 10, High: 10 },
      { Date: '2026-11-25', Cost: 11, Kind: 'forecast' as const, Low: 9, High: 13 },
      { Date: '2026-11-26', Cost: 12, Kind: 'forecast' as const, Low: 9.5, High: 14.5 },
    ];
    expect(buildForecastBand(days, ['2026-11-24', '2026-11-25', '2026-11-26', '2026-11-27'])).toEqual([
      null,
      { expected: 11, low: 9, high: 13 },
      { expected: 12, low: 9.5, high: 14.5 },
      null,
    ]);
  });

  it('runs to the last day of the month', () => {
    expect(getMonthEnd('2026-11-25')).toBe('2026-11-30');
    expect(getMonthEnd('2028-02-01')).toBe('2028-02-29');
    expect(getMonthEnd('2026-12-31')).toBe('2026-12-31');
  });
});
