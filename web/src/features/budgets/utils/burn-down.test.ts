import { describe, expect, it } from 'vitest';
import { layoutBurnDown } from './burn-down';

const recipients = { AllTeam: true, Emails: [] };
const size = { width: 100, height: 60 };

describe('a budget’s burn-down', () => {
  it('draws cost to date, then the forecast from the last day billed, its range as a wedge at the end', () => {
    const layout = layoutBurnDown(
      {
        Amount: 100,
        Days: [
          { Date: '2026-11-01', Actual: 10, Forecast: null },
          { Date: '2026-11-02', Actual: 20, Forecast: null },
          { Date: '2026-11-03', Actual: null, Forecast: 30 },
          { Date: '2026-11-04', Actual: null, Forecast: 40 },
          { Date: '2026-11-05', Actual: null, Forecast: 50 },
        ],
        ForecastLow: 45,
        ForecastHigh: 60,
        Thresholds: [{ Percent: 50, Basis: 'actual', Recipients: recipients }],
        Crossed: [],
      },
      size,
    );
    // The budget, 100, is the highest: the top is 120, half a unit of height for every unit of cost.
    expect(layout.max).toBe(120);
    expect(layout.budgetY).toBe(10);
    expect(layout.actualPath).toBe('M0 55 L25 50');
    expect(layout.forecastPath).toBe('M25 50 L50 45 L75 40 L100 35');
    expect(layout.bandPoints).toBe('25,50 100,30 100,37.5');
    expect(layout.marks).toEqual([{ percent: 50, basis: 'actual', y: 35, isCrossed: false }]);
  });

  it('rises above an overspend and a threshold up to twice the budget, and marks the crossed ones', () => {
    const layout = layoutBurnDown(
      {
        Amount: 50,
        Days: [
          { Date: '2026-11-01', Actual: 40, Forecast: null },
          { Date: '2026-11-02', Actual: 60, Forecast: null },
        ],
        ForecastLow: 0,
        ForecastHigh: 0,
        Thresholds: [
          { Percent: 100, Basis: 'actual', Recipients: recipients },
          { Percent: 150, Basis: 'forecasted', Recipients: recipients },
          { Percent: 900, Basis: 'actual', Recipients: recipients },
        ],
        Crossed: [{ Percent: 100, Basis: 'actual', CrossedAt: '2026-11-02T06:00:00.000Z' }],
      },
      size,
    );
    // 150% of 50 is 75, above the 60 spent: 75 × 1.2 = 90 at the top; 900% is off the chart.
    expect(layout.max).toBe(90);
    expect(layout.forecastPath).toBe('');
    expect(layout.bandPoints).toBe('');
    expect(layout.marks).toEqual([
      { percent: 100, basis: 'actual', y: 26.7, isCrossed: true },
      { percent: 150, basis: 'forecasted', y: 10, isCrossed: false },
    ]);
  });

  it('keeps a day-one period and an empty bill on the chart', () => {
    const layout = layoutBurnDown(
      {
        Amount: 0.5,
        Days: [{ Date: '2026-11-01', Actual: 0, Forecast: null }],
        ForecastLow: 0,
        ForecastHigh: 0,
        Thresholds: [],
        Crossed: [],
      },
      size,
    );
    expect(layout.actualPath).toBe('M50 60');
    expect(layout.budgetY).toBe(10);
  });
});
