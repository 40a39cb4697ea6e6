// The forecaster (cost-forecast.ts) called on the bill: the month's or quarter's end for a scope, and
// a budget's span with what it has cost so far, the planned changes in scope lowering the days.
import { roundCents } from '@cloudtrim/contracts/money';
import {
  costForecastQuerySchema,
  type CostFilter,
  type CostForecastRequest,
  type CostForecastResponse,
  type CostType,
} from '@cloudtrim/contracts/costs';
import type { AutomationService } from '../automation/automation.service';
import type { PlannedSaving } from '../automation/automation.repository';
import { forecastPeriodCost, type CostForecast, type KnownChange } from './cost-forecast';
import { dailyHistoryDays, formatDay, readBillCoverage, readToday } from './costs.plan';
import type { CostScope, CostsRepository } from './costs.repository';
import { dayMs, daysPerYear } from '../../lib/time';
import type { VersionedAnswers } from '../../lib/versioned-answers';
import { digestPlanned, isInScope, parse, checkTeamScope, readCostScope } from './costs.scope';

export interface CostSpanForecast extends CostForecast {
  // What the days before the first one kept by day cost (in `spent` and the totals, not in `days`).
  earlier: number;
  currency: string;
}

export class CostForecasting {
  constructor(
    private readonly costs: CostsRepository,
    private readonly changes: Pick<AutomationService, 'listPlannedSavings'>,
    private readonly cache: VersionedAnswers,
    private readonly now: () => Date,
  ) {}

  // The month's or quarter's cost at its end for a scope: expected, an 80% band and its days.
  async readForecast(teamId: string, query: unknown): Promise<CostForecastResponse> {
    const request = parse(costForecastQuerySchema, query);
    await checkTeamScope(this.costs, teamId, request.tenantId, request.subscriptionId);
    // The schedule changes apart from the bill: the planned changes are part of the question.
    const planned = await this.changes.listPlannedSavings(teamId, request.tenantId);
    const today = formatDay(readToday(this.now()));
    const key = `${teamId}|forecast|${today}|${JSON.stringify(request)}|${digestPlanned(planned)}`;
    return this.cache.read(key, teamId, async () => {
      const scope = readCostScope(teamId, request);
      const forecast = await this.computeForecast(scope, request.period, planned);
      return {
        Expected: roundCents(forecast.expected),
        Low: roundCents(forecast.low),
        High: roundCents(forecast.high),
        Currency: (await this.costs.readCurrency(scope)) ?? 'USD',
        Data: forecast.days.map((day) => ({
          Date: day.day,
          Cost: roundCents(day.cost),
          Kind: day.kind,
          Low: roundCents(day.low),
          High: roundCents(day.high),
        })),
      };
    });
  }

  // The forecaster on the scope's daily actual cost (the days kept by day, back to the period's
  // start), with the planned resizes and shutdowns in scope lowering the days from theirs.
  async computeForecast(
    scope: CostScope,
    period: CostForecastRequest['period'],
    planned: PlannedSaving[],
  ): Promise<CostForecast> {
    const date = new Date(readToday(this.now()));
    const firstMonth =
      period === 'month' ? date.getUTCMonth() : date.getUTCMonth() - (date.getUTCMonth() % 3);
    const periodFrom = Date.UTC(date.getUTCFullYear(), firstMonth, 1);
    const periodTo = Date.UTC(date.getUTCFullYear(), firstMonth + (period === 'month' ? 1 : 3), 1) - dayMs;
    return this.forecastDays(scope, periodFrom, periodTo, planned, 'actual');
  }

  // A budget's period (whole months from a month's first, up to a year) for a scope and cost type:
  // its expected end with the band, its days, and what it has cost so far (the days before the
  // first one the forecaster has as actual, `earlier`, come from the monthly rows). Kept while the
  // bill and the schedule stand still, as the forecast's answers are.
  async forecastSpan(
    teamId: string,
    filter: CostFilter,
    span: { from: string; to: string; costType: CostType },
  ): Promise<CostSpanForecast> {
    const planned = await this.changes.listPlannedSavings(teamId, filter.tenantId);
    const today = formatDay(readToday(this.now()));
    const key = `${teamId}|span|${today}|${JSON.stringify([filter, span])}|${digestPlanned(planned)}`;
    return this.cache.read(key, teamId, () => this.computeSpan(teamId, filter, span, planned));
  }

  // Whether a span of a scope's bill is all in: its days kept by day from the daily reads, the days
  // before them from the monthly ones (the backfill reads those last).
  async isSpanComplete(
    teamId: string,
    filter: CostFilter,
    span: { from: string; to: string },
  ): Promise<boolean> {
    const progress = await this.costs.listBillProgress(readCostScope(teamId, filter));
    if (progress.length === 0) return true;
    const now = this.now();
    const today = formatDay(readToday(now));
    const oldestDaily = formatDay(readToday(now) - (dailyHistoryDays - 1) * dayMs);
    const to = span.to < today ? span.to : today;
    if (span.from > to) return true;
    const dayFrom = span.from > oldestDaily ? span.from : oldestDaily;
    if (dayFrom <= to && !readBillCoverage(progress, { from: dayFrom, to, source: 'day' }, now).complete)
      return false;
    if (span.from >= oldestDaily) return true;
    const monthTo = formatDay(Date.parse(oldestDaily) - dayMs);
    return readBillCoverage(progress, { from: span.from, to: monthTo, source: 'month' }, now).complete;
  }

  private async computeSpan(
    teamId: string,
    filter: CostFilter,
    span: { from: string; to: string; costType: CostType },
    planned: PlannedSaving[],
  ): Promise<CostSpanForecast> {
    const scope = readCostScope(teamId, filter);
    const forecast = await this.forecastDays(
      scope,
      Date.parse(span.from),
      Date.parse(span.to),
      planned,
      span.costType,
    );
    return { ...forecast, currency: (await this.costs.readCurrency(scope)) ?? 'USD' };
  }

  private async forecastDays(
    scope: CostScope,
    periodFrom: number,
    periodTo: number,
    planned: PlannedSaving[],
    costType: CostType,
  ): Promise<CostForecast & { earlier: number }> {
    const today = readToday(this.now());
    const from = Math.min(periodFrom, today - (dailyHistoryDays - 1) * dayMs);
    // Today's cost so far is read too: spent counts it, as the month-to-date card and GET
    // /api/v1/cost do (one rule for "spent so far": Azure's budgets include the latest data).
    const days = await this.costs.listDailyCosts(scope, formatDay(from), formatDay(today), costType);
    const changes: KnownChange[] = planned
      .filter((change) => isInScope(change.resourceArmId, change.tags, scope))
      .map((change) => ({
        fromDay: formatDay(readToday(change.changeAt)),
        dailyDelta: -change.annualSavings / daysPerYear,
      }));
    const forecast = forecastPeriodCost({
      days,
      from: formatDay(periodFrom),
      to: formatDay(periodTo),
      today: formatDay(today),
      changes,
    });
    // A quarter may begin before the days kept by day (the first days after a tenant is added): what
    // those days cost comes from the month's total.
    const firstDaily = days[0]?.day;
    if (firstDaily === undefined || firstDaily <= formatDay(periodFrom)) return { ...forecast, earlier: 0 };
    const earlier = await this.sumEarlierDays(scope, periodFrom, Date.parse(firstDaily), costType);
    return {
      ...forecast,
      expected: forecast.expected + earlier,
      low: forecast.low + earlier,
      high: forecast.high + earlier,
      spent: forecast.spent + earlier,
      earlier,
    };
  }

  // The cost of the days from `from` (a month's first) to the day before `firstDaily`, from the
  // monthly rows less the daily ones of the same months.
  private async sumEarlierDays(
    scope: CostScope,
    from: number,
    firstDaily: number,
    costType: CostType,
  ): Promise<number> {
    const date = new Date(firstDaily);
    const lastMonthEnd = Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1) - dayMs;
    const sum = async (source: 'day' | 'month', sumFrom: number) => {
      const rows = await this.costs.sumCosts({
        scope,
        from: formatDay(sumFrom),
        to: formatDay(lastMonthEnd),
        source,
        bucket: 'none',
        grouping: { kind: 'subscription' },
        costType,
      });
      return rows.reduce((total, row) => total + row.cost, 0);
    };
    return Math.max(0, (await sum('month', from)) - (await sum('day', firstDaily)));
  }
}
