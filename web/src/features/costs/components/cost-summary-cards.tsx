import type { ReactNode } from 'react';
import Card from 'react-bootstrap/Card';
import { DataLoading } from '../../../components/data-loading';
import { describeLoadError, isNetworkFailure } from '../../../lib/load-failure';
import { useCostSummary } from '../api/get-cost-summary';
import { formatCost, getChangePercent } from '../../../lib/format-cost';
import { CostChange } from './cost-change';

function SummaryCard({
  label,
  amount,
  children,
}: {
  label: string;
  amount: ReactNode;
  children?: ReactNode;
}) {
  return (
    <Card className="cost-summary-card">
      <Card.Body>
        <p className="cost-summary-label">{label}</p>
        <div className="cost-summary-amount">{amount}</div>
        {children ? <p className="cost-summary-detail">{children}</p> : null}
      </Card.Body>
    </Card>
  );
}

export const summaryPartialText = 'Partial: the bill is still being read from Azure.';

const summaryLabels = ['Month to date', 'Forecast month end', 'Realized savings this year'] as const;

/** This month so far against the same days of last month, the month-end forecast, the savings proven. */
export function CostSummaryCards({ tenantId }: { tenantId?: string }) {
  const summary = useCostSummary(tenantId);
  if (summary.isPending) {
    // The cards keep their place while their amounts load, so nothing below them moves.
    return (
      <section className="cost-summary" aria-label="Cost summary" aria-busy="true">
        {summaryLabels.map((label, index) => (
          <SummaryCard
            key={label}
            label={label}
            amount={index === 0 ? <DataLoading label="Loading the cost summary" isSmall /> : null}
          />
        ))}
      </section>
    );
  }
  if (summary.isError) {
    // A network failure leaves the cards out; the lists below say there is no data.
    return isNetworkFailure(summary.error) ? null : (
      <p className="data-error" role="alert">
        {describeLoadError(summary.error)}
      </p>
    );
  }
  const { MonthToDate, LastMonthSameDays, ForecastMonthEnd, RealizedSavingsYearToDate, Currency, Complete } =
    summary.data;
  return (
    <section className="cost-summary" aria-label="Cost summary">
      <SummaryCard label={summaryLabels[0]} amount={formatCost(MonthToDate, Currency)}>
        <CostChange percent={getChangePercent(MonthToDate, LastMonthSameDays)} /> vs{' '}
        {formatCost(LastMonthSameDays, Currency)} the same days last month
        {Complete ? null : <span className="cost-partial-note d-block">{summaryPartialText}</span>}
      </SummaryCard>
      <SummaryCard label={summaryLabels[1]} amount={formatCost(ForecastMonthEnd, Currency)}>
        This month&rsquo;s bill as it is heading
      </SummaryCard>
      <SummaryCard
        label="Realized savings this year"
        amount={formatCost(RealizedSavingsYearToDate, Currency)}
      >
        Applied changes, measured on the bill
      </SummaryCard>
    </section>
  );
}
