import type { CostResponse } from '@cloudtrim/contracts/costs';
import { formatCostDate } from './format-cost-day';
import { dayMs } from '@cloudtrim/contracts/time';

export const partialTotalText = 'TOTAL (partial)';

// The line under the chart while a tenant's bill is still being read: which days of the range are
// not in yet. Null once the range is complete.
export function describeBillGap(
  answer: Pick<CostResponse, 'Complete' | 'DaysRead'>,
  range: { from: string; to: string },
): string | null {
  if (answer.Complete) return null;
  const prefix = 'The bill is still being read from Azure';
  if (!answer.DaysRead) {
    return `${prefix}: no day from ${formatCostDate(range.from)} to ${formatCostDate(range.to)} is in yet, so these figures are partial.`;
  }
  const lastMissing = new Date(Date.parse(`${answer.DaysRead.From}T00:00:00Z`) - dayMs)
    .toISOString()
    .slice(0, 10);
  const missing =
    lastMissing === range.from
      ? formatCostDate(range.from)
      : `${formatCostDate(range.from)} to ${formatCostDate(lastMissing)}`;
  return `${prefix}: ${missing} not in yet, so these figures are partial (in from ${formatCostDate(answer.DaysRead.From)}).`;
}
