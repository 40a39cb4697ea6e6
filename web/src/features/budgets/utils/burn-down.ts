import type { Budget, BudgetBasis } from '@cloudtrim/contracts/budgets';

// The geometry of a budget's burn-down, in the SVG's own units: cost to date as a line, the forecast
// on from it to the period's end with its 80% range as a wedge, the budget as a level line and each
// threshold as a mark at its level.

export interface BurnDownSize {
  width: number;
  height: number;
}

export interface ThresholdMark {
  percent: number;
  basis: BudgetBasis;
  y: number;
  isCrossed: boolean;
}

export interface BurnDownLayout {
  /** The cost at the top of the chart. */
  max: number;
  /** SVG path data; empty when there is nothing to draw. */
  actualPath: string;
  forecastPath: string;
  /** SVG polygon points of the forecast's range at the period's end, or '' without a forecast. */
  bandPoints: string;
  budgetY: number;
  marks: ThresholdMark[];
}

// Thresholds far above the budget (up to 1000%) would flatten the rest: the scale reaches one of
// them only while it is at most twice the budget.
const maxScaledThresholdPercent = 200;
const headroom = 1.2;

type BurnDownBudget = Pick<
  Budget,
  'Days' | 'Amount' | 'Thresholds' | 'ForecastLow' | 'ForecastHigh' | 'Crossed'
>;

function round(value: number): number {
  return Math.round(value * 10) / 10;
}

function toPath(points: readonly [number, number][]): string {
  return points.map(([x, y], index) => `${index === 0 ? 'M' : 'L'}${round(x)} ${round(y)}`).join(' ');
}

export function layoutBurnDown(budget: BurnDownBudget, { width, height }: BurnDownSize): BurnDownLayout {
  const { Days: days, Amount: amount } = budget;
  const hasForecast = days.some((day) => day.Forecast !== null);
  const scaledThresholds = budget.Thresholds.filter(
    (threshold) => threshold.Percent <= maxScaledThresholdPercent,
  ).map((threshold) => (amount * threshold.Percent) / 100);
  const highest = Math.max(
    amount,
    ...days.map((day) => Math.max(day.Actual ?? 0, day.Forecast ?? 0)),
    hasForecast ? budget.ForecastHigh : 0,
    ...scaledThresholds,
  );
  const max = highest > 0 ? highest * headroom : 1;
  const toX = (index: number) => (days.length > 1 ? (index / (days.length - 1)) * width : width / 2);
  const toY = (value: number) => height - (Math.max(0, value) / max) * height;

  const actualPoints: [number, number][] = [];
  const forecastPoints: [number, number][] = [];
  days.forEach((day, index) => {
    if (day.Actual !== null) actualPoints.push([toX(index), toY(day.Actual)]);
    if (day.Forecast !== null) forecastPoints.push([toX(index), toY(day.Forecast)]);
  });
  // The forecast goes on from the last day billed, so the two lines meet.
  const lastActual = actualPoints.at(-1);
  if (lastActual && forecastPoints.length > 0) forecastPoints.unshift(lastActual);
  const bandStart = forecastPoints[0];
  const end = toX(days.length - 1);
  const bandPoints =
    hasForecast && bandStart
      ? [bandStart, [end, toY(budget.ForecastHigh)], [end, toY(budget.ForecastLow)]]
          .map(([x, y]) => `${round(x!)},${round(y!)}`)
          .join(' ')
      : '';

  const crossed = new Set(budget.Crossed.map((crossing) => `${crossing.Percent}:${crossing.Basis}`));
  const marks = budget.Thresholds.map((threshold) => ({
    percent: threshold.Percent,
    basis: threshold.Basis,
    y: round(toY((amount * threshold.Percent) / 100)),
    isCrossed: crossed.has(`${threshold.Percent}:${threshold.Basis}`),
  })).filter((mark) => mark.y >= 0);

  return {
    max,
    actualPath: toPath(actualPoints),
    forecastPath: forecastPoints.length > 1 ? toPath(forecastPoints) : '',
    bandPoints,
    budgetY: round(toY(amount)),
    marks,
  };
}
