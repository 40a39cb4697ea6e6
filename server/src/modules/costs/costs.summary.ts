// The summary cards: this month so far against the same days of last month, the month's end as the
// forecast sees it, and the savings realized this year.
import { roundCents } from '@cloudtrim/contracts/money';
import { costSummaryQuerySchema, type CostSummaryResponse } from '@cloudtrim/contracts/costs';
import type { AutomationService } from '../automation/automation.service';
import type { PlannedSaving } from '../automation/automation.repository';
import { formatDay, readBillCoverage, readToday } from './costs.plan';
import type { CostScope, CostsRepository } from './costs.repository';
import { hourMs, dayMs } from '../../lib/time';
import type { VersionedAnswers } from '../../lib/versioned-answers';
import type { CostForecasting } from './costs.forecasting';
import { digestPlanned, parse, checkTeamScope } from './costs.scope';

export class CostSummary {
  constructor(
    private readonly costs: CostsRepository,
    private readonly changes: Pick<AutomationService, 'listPlannedSavings'>,
    private readonly cache: VersionedAnswers,
    private readonly forecasting: CostForecasting,
    private readonly now: () => Date,
  ) {}

  // This month so far against the same days of last month; the month's end as the forecast sees it.
  async read(teamId: string, query: unknown): Promise<CostSummaryResponse> {
    const request = parse(costSummaryQuerySchema, query);
    await checkTeamScope(this.costs, teamId, request.tenantId);
    // Realized savings accrue by the hour, the forecast moves with the schedule: both are part of
    // the question.
    const hour = Math.floor(this.now().getTime() / hourMs);
    const planned = await this.changes.listPlannedSavings(teamId, request.tenantId);
    const key = `${teamId}|summary|${hour}|${request.tenantId ?? ''}|${digestPlanned(planned)}`;
    return this.cache.read(key, teamId, () => this.computeSummary(teamId, request, planned));
  }

  private async computeSummary(
    teamId: string,
    request: { tenantId?: string },
    planned: PlannedSaving[],
  ): Promise<CostSummaryResponse> {
    const scope: CostScope = { teamId, tenantId: request.tenantId };
    const today = readToday(this.now());
    const date = new Date(today);
    const monthFirst = Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1);
    const lastMonthFirst = Date.UTC(date.getUTCFullYear(), date.getUTCMonth() - 1, 1);
    const daysInLastMonth = (monthFirst - lastMonthFirst) / dayMs;
    const dayOfMonth = (today - monthFirst) / dayMs + 1;
    const lastMonthSameDayEnd = lastMonthFirst + (Math.min(dayOfMonth, daysInLastMonth) - 1) * dayMs;
    const sumPeriod = async (from: number, to: number) => {
      const rows = await this.costs.sumCosts({
        scope,
        from: formatDay(from),
        to: formatDay(to),
        source: 'day',
        bucket: 'none',
        grouping: { kind: 'subscription' },
        costType: 'actual',
      });
      return rows.reduce((sum, row) => sum + row.cost, 0);
    };
    // Side by side: a refresh changes the bill with every page, so this runs on most calls while one
    // is under way, and each read in turn was a wait for PostgreSQL (and, on a busy host, a core).
    const [monthToDate, lastMonthSameDays, forecast, realized, currency, progress] = await Promise.all([
      sumPeriod(monthFirst, today),
      sumPeriod(lastMonthFirst, lastMonthSameDayEnd),
      this.forecasting.computeForecast(scope, 'month', planned),
      this.costs.sumRealizedSince(
        teamId,
        new Date(Date.UTC(date.getUTCFullYear(), 0, 1)),
        this.now(),
        request.tenantId,
      ),
      this.costs.readCurrency(scope),
      this.costs.listBillProgress(scope),
    ]);
    return {
      MonthToDate: roundCents(monthToDate),
      LastMonthSameDays: roundCents(lastMonthSameDays),
      ForecastMonthEnd: roundCents(forecast.expected),
      RealizedSavingsYearToDate: roundCents(realized),
      Currency: currency ?? 'USD',
      Complete: readBillCoverage(
        progress,
        { from: formatDay(lastMonthFirst), to: formatDay(today), source: 'day' },
        this.now(),
      ).complete,
    };
  }
}
