import Card from 'react-bootstrap/Card';
import { DataLoading } from '../../../components/data-loading';
import { describeLoadError, isNetworkFailure } from '../../../lib/load-failure';
import { useCostSummary } from '../api/get-cost-summary';
import { formatCost, getChangePercent } from '../utils/format-cost';
import { CostChange } from './cost-change';

function SummaryCard({
  label,
  amount,
  children,
}: {
  label: string;
  amount: string;
  children?: React.ReactNode;
}) {
  return (
    <Card className="cost-summary-card">
      <Card.Body>
        <p className="cost-summary-label">{label}</p>
        <p className="cost-summary-amount">{amount}</p>
        {children ? <p className="cost-summary-detail">{children}</p> : null}
      </Card.Body>
    </Card>
  );
}

/** This month so far against the same days of last month, the month-end forecast, the savings proven. */
export function CostSummaryCards({ tenantId }: { tenantId?: string }) {
  const summary = useCostSummary(tenantId);
  if (summary.isPending) return <DataLoading label="Loading the cost summary" />;
  if (summary.isError) {
    // A network failure leaves the cards out; the lists below say there is no data.
    return isNetworkFailure(summary.error) ? null : (
      <p className="data-error" role="alert">
        {describeLoadError(summary.error)}
      </p>
    );
  }
  const { MonthToDate, LastMonthSameDays, ForecastMonthEnd, RealizedSavingsYearToDate, Currency } =
    summary.data;
  return (
    <section className="cost-summary" aria-label="Cost summary">
      <SummaryCard label="Month to date" amount={formatCost(MonthToDate, Currency)}>
        <CostChange percent={getChangePercent(MonthToDate, LastMonthSameDays)} /> vs{' '}
        {formatCost(LastMonthSameDays, Currency)} the same days last month
      </SummaryCard>
      <SummaryCard label="Forecast month end" amount={formatCost(ForecastMonthEnd, Currency)}>
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
