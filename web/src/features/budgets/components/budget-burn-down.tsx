import { useMemo } from 'react';
import type { Budget } from '@cloudtrim/contracts/budgets';
import { formatCost } from '../../../lib/format-cost';
import { layoutBurnDown } from '../utils/burn-down';
import { formatBudgetDay } from '../utils/budget-text';

// Drawn in a fixed coordinate space stretched to the cell's width; strokes keep their width.
const size = { width: 300, height: 80 };

interface BudgetBurnDownProps {
  budget: Budget;
}

/** The period's cost to date, the forecast to its end with its range, the budget and its thresholds. */
export function BudgetBurnDown({ budget }: BudgetBurnDownProps) {
  const layout = useMemo(() => layoutBurnDown(budget, size), [budget]);
  const money = (amount: number) => formatCost(amount, budget.Currency);
  const label =
    `Burn-down of ${budget.Name}: ${money(budget.Spent)} spent of ${money(budget.Amount)}, ` +
    `forecast ${money(budget.Forecast)} (${money(budget.ForecastLow)} to ${money(budget.ForecastHigh)}) ` +
    `by ${formatBudgetDay(budget.PeriodEnd)}`;
  return (
    <svg
      className="budget-burn-down"
      viewBox={`0 0 ${size.width} ${size.height}`}
      preserveAspectRatio="none"
      role="img"
      aria-label={label}
    >
      <title>{label}</title>
      {layout.bandPoints ? <polygon className="budget-burn-down-band" points={layout.bandPoints} /> : null}
      <line
        className="budget-burn-down-budget"
        x1={0}
        x2={size.width}
        y1={layout.budgetY}
        y2={layout.budgetY}
        vectorEffect="non-scaling-stroke"
      />
      {layout.marks.map((mark) => (
        <line
          key={`${mark.percent}:${mark.basis}`}
          className={mark.isCrossed ? 'budget-burn-down-mark is-crossed' : 'budget-burn-down-mark'}
          x1={size.width - 12}
          x2={size.width}
          y1={mark.y}
          y2={mark.y}
          vectorEffect="non-scaling-stroke"
        />
      ))}
      {layout.forecastPath ? (
        <path
          className="budget-burn-down-forecast"
          d={layout.forecastPath}
          vectorEffect="non-scaling-stroke"
        />
      ) : null}
      {layout.actualPath ? (
        <path className="budget-burn-down-actual" d={layout.actualPath} vectorEffect="non-scaling-stroke" />
      ) : null}
    </svg>
  );
}
