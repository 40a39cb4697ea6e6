import { useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { costAnalysisTitleText, type CostGroupBy, type CostQuery } from '@cloudtrim/contracts/costs';
import { PageHeading } from '../../../components/page-heading';
import { getForecastQuery } from '../utils/cost-forecast-band';
import { getGroupingName } from '../utils/cost-groups';
import { resolveCostPeriod, type DayRange } from '../utils/cost-periods';
import {
  getCostGroupBy,
  readCostSettings,
  writeCostSettings,
  type CostSettings,
} from '../utils/cost-settings';
import { formatCostDate } from '../utils/format-cost-day';
import { formatCompactCost, formatCost } from '../../../lib/format-cost';
import { CostBreakdown } from './cost-breakdown';
import { CostChart } from './cost-chart';
import { CostControls, tagKeyHintText } from './cost-controls';
import { CostFilters, type CostTenantOption } from './cost-filters';
import { CostSummaryCards } from './cost-summary-cards';
import { DownloadFocusButton } from './download-focus-button';
import { TopResources } from './top-resources';
import '../../../components/data-views.css';
import './cost-analysis.css';

export type { CostTenantOption } from './cost-filters';

// The first Intl formatter of a kind loads its locale's data, 5 to 20 ms: built while the answers are
// on their way, each in a task of its own, rather than between the chart's answer and its paint.
const formatWarmUps = [() => formatCost(0, 'USD'), () => formatCompactCost(0, 'USD')];

function describeRange({ from, to }: DayRange): string {
  return from === to ? formatCostDate(from) : `${formatCostDate(from)} to ${formatCostDate(to)}`;
}

function CostSection({ title, children }: { title: string; children: React.ReactNode }) {
  const headingId = `cost-section-${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
  return (
    <section className="cost-section" aria-labelledby={headingId}>
      <h2 id={headingId} className="cost-section-title">
        {title}
      </h2>
      <div className="data-panel cost-section-body">{children}</div>
    </section>
  );
}

interface CostAnalysisProps {
  /** The team's tenants, for the tenant filter (the route reads them from the tenants feature). */
  tenants: readonly CostTenantOption[];
  /** The budgets' section, under the chart (the route brings it from the budgets feature). */
  budgets?: React.ReactNode;
}

/** /analysis: what the team spends, where, and whether it is going up, from the Azure bill. */
export function CostAnalysis({ tenants, budgets }: CostAnalysisProps) {
  const [searchParams, setSearchParams] = useSearchParams();
  const settings = useMemo(() => readCostSettings(searchParams), [searchParams]);
  // The periods are days as of opening the page, so a visit past midnight keeps asking the same thing.
  const [openedAt] = useState(() => new Date());
  const period = resolveCostPeriod(settings.period, openedAt);
  const groupBy = getCostGroupBy(settings);
  const { filter, costType } = settings;

  useEffect(() => {
    const timers = formatWarmUps.map((warmUp) => setTimeout(warmUp));
    return () => timers.forEach((timer) => clearTimeout(timer));
  }, []);

  function onSettingsChange(next: CostSettings) {
    setSearchParams(writeCostSettings(next));
  }

  const byPeriod = (range: DayRange, granularity: CostQuery['granularity'], by: CostGroupBy): CostQuery => ({
    ...filter,
    from: range.from,
    to: range.to,
    granularity,
    groupBy: by,
    costType,
  });
  const unit = period.granularity === 'daily' ? 'Daily' : 'Monthly';

  return (
    <>
      <PageHeading
        title={costAnalysisTitleText}
        actions={
          <DownloadFocusButton query={{ from: period.from, to: period.to, tenantId: filter.tenantId }} />
        }
      />
      <CostSummaryCards tenantId={filter.tenantId} />
      <div className="cost-settings">
        <CostControls settings={settings} onChange={onSettingsChange} />
        <CostFilters
          key={JSON.stringify(filter)}
          filter={filter}
          tenants={tenants}
          onApply={(nextFilter) => onSettingsChange({ ...settings, filter: nextFilter })}
        />
        <p className="cost-period-note">
          {describeRange(period)} (UTC), compared with {describeRange(period.previous)}.
        </p>
      </div>
      {groupBy === null ? (
        <p className="data-panel data-empty">{tagKeyHintText}</p>
      ) : (
        <CostSection title={`${unit} cost by ${getGroupingName(groupBy)}`}>
          <CostChart
            label={`${unit} cost by ${getGroupingName(groupBy)}, ${describeRange(period)}`}
            groupBy={groupBy}
            query={byPeriod(period, period.granularity, groupBy)}
            period={period}
            granularity={period.granularity}
            forecastQuery={getForecastQuery(settings.period, costType, filter)}
          />
        </CostSection>
      )}
      {budgets ? <CostSection title="Budgets">{budgets}</CostSection> : null}
      {groupBy === null ? null : (
        <CostSection title={`Cost by ${getGroupingName(groupBy)}`}>
          <CostBreakdown
            key={JSON.stringify(byPeriod(period, 'none', groupBy))}
            label={`Cost by ${getGroupingName(groupBy)}`}
            groupBy={groupBy}
            query={byPeriod(period, 'none', groupBy)}
            previousQuery={byPeriod(period.previous, 'none', groupBy)}
          />
        </CostSection>
      )}
      <CostSection title="Top 10 resources by cost">
        <TopResources
          label="Top 10 resources by cost"
          query={byPeriod(period, 'none', 'resource')}
          previousQuery={byPeriod(period.previous, 'none', 'resource')}
        />
      </CostSection>
    </>
  );
}
