// The bill from Azure Cost Management: read into PostgreSQL per subscription (a 13-month backfill,
// then the settling days again after each Azure refresh), and answered by day, month or period,
// grouped and filtered as the Cost Analysis screen asks.
import { formatDollars, roundCents } from '@cloudtrim/contracts/money';
import { createHash, randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import type { z } from 'zod';
import {
  costForecastQuerySchema,
  costQuerySchema,
  costSummaryQuerySchema,
  focusColumns,
  resourceCostDays,
  resourceCostQuerySchema,
  costExportQuerySchema,
  type CostFilter,
  type CostForecastRequest,
  type CostForecastResponse,
  type CostRequest,
  type CostResponse,
  type CostSummaryResponse,
  type CostType,
  type ResourceCostResponse,
} from '@cloudtrim/contracts/costs';
import type { CloudCallOptions, CloudError, CloudProvider, CostRow } from '../../cloud/cloud-provider';
import { isCloudError } from '../../cloud/cloud-provider';
import type { CostRead } from '../../db/schema';
import type { CloudWorkQueue } from '../../queue/cloud-work';
import { FreshReads } from '../../lib/fresh-read';
import { badRequest, notFound } from '../../lib/http-errors';
import { activityServiceNames, type ActivityService } from '../activity/activity.service';
import type { AutomationService } from '../automation/automation.service';
import type { ChangeToMeasure, PlannedSaving } from '../automation/automation.repository';
import type { TenantsService, TenantWork } from '../tenants/tenants.service';
import { forecastPeriodCost, type CostForecast, type KnownChange } from './cost-forecast';
import {
  dailyHistoryDays,
  formatDay,
  planBackfill,
  planRefresh,
  readBillCoverage,
  readToday,
  refreshHours,
  settlingDays,
} from './costs.plan';
import type {
  CostExportRow,
  CostGrouping,
  CostPageRow,
  CostScope,
  CostsRepository,
  CostSyncRow,
} from './costs.repository';
import { hourMs, dayMs, daysPerYear } from '../../lib/time';

// A refusal of Cost Management's read right is asked about again once a day.
const deniedRetryHours = 24;
// After an unforeseen Azure failure, a subscription's reads pause this long.
const failureBackoffMs = 5 * 60_000;
export const costReaderRoleName = 'Cost Management Reader';

export interface CostSpanForecast extends CostForecast {
  // What the days before the first one kept by day cost (in `spent` and the totals, not in `days`).
  earlier: number;
  currency: string;
}

export interface CostSyncSummary {
  pagesRead: number;
  throttled: number;
  measuredCount?: number;
}

// An applied change is judged on the settled week before it and the week after.
const measuredDays = 7;
// A change that realized less than this share of its promise is said in Recent Activity.
const underdeliveredShare = 0.5;

// Answers kept per team and question while the team's bill stands still (dashboards ask the same
// questions again and again); a bound keeps the memory small.
const cachedAnswerLimit = 500;

interface CachedAnswer {
  version: string;
  answer: Promise<unknown>;
  /** The answer as the JSON a route sends, made on the first call that wants it. */
  json?: Promise<Buffer>;
}

export class CostsService {
  private readonly answers = new Map<string, CachedAnswer>();
  private readonly versions = new FreshReads<string>();

  constructor(
    private readonly costs: CostsRepository,
    private readonly tenants: TenantsService,
    private readonly cloud: CloudProvider,
    private readonly activity: ActivityService,
    private readonly work: Pick<CloudWorkQueue, 'enqueueCostSync' | 'enqueueRecommendationsAnalysis'>,
    private readonly changes: Pick<
      AutomationService,
      'listChangesToMeasure' | 'recordMeasuredSaving' | 'listPlannedSavings'
    >,
    private readonly now: () => Date = () => new Date(),
  ) {}

  // The schedule's fan-out: a job for each tenant with a read due (one queued per tenant at most).
  async enqueueDueTenants(): Promise<number> {
    const now = this.now();
    const tenantIds = await this.costs.listTenantsDue(
      new Date(readWallClock()),
      new Date(now.getTime() - refreshHours * hourMs),
      new Date(now.getTime() - deniedRetryHours * hourMs),
    );
    for (const tenantId of tenantIds) await this.work.enqueueCostSync(tenantId);
    return tenantIds.length;
  }

  // Reads pages of the tenant's subscriptions in turn until their plans are done or the job's
  // deadline comes. A throttled subscription waits out Cost Management's retry-after (kept in the
  // database for every process) while the others go on; nothing is sent before it.
  async syncTenant(tenantId: string, options: CloudCallOptions = {}): Promise<CostSyncSummary | undefined> {
    const work = await this.tenants.openForWork(tenantId, 'cost-sync');
    if (!work) return undefined;
    await this.costs.ensureSyncs(tenantId);
    const summary: CostSyncSummary = { pagesRead: 0, throttled: 0 };
    for (;;) {
      if (options.signal?.aborted) return summary;
      const syncs = await this.costs.listSyncs(tenantId);
      const now = this.now();
      const due = syncs.filter((sync) => this.hasWorkNow(sync, now));
      if (due.length === 0) {
        const waitMs = this.readShortestWait(syncs, now);
        if (waitMs === undefined) {
          summary.measuredCount = await this.measureRealizedSavings(tenantId);
          return summary;
        }
        try {
          await delay(waitMs, undefined, { signal: options.signal });
        } catch {
          return summary;
        }
        continue;
      }
      for (const sync of due) {
        const outcome = await this.readNextPage(work, sync, options);
        if (outcome === 'read') summary.pagesRead += 1;
        if (outcome === 'throttled') summary.throttled += 1;
        if (options.signal?.aborted) return summary;
      }
    }
  }

  async readCosts(teamId: string, query: unknown): Promise<CostResponse> {
    return (await this.findCosts(teamId, query)).answer as Promise<CostResponse>;
  }

  // readCosts as the JSON the route sends: a repeated question costs two small queries (scope and
  // version) and no serialisation, whatever the size of the answer.
  async readCostsJson(teamId: string, query: unknown): Promise<Buffer> {
    const cached = await this.findCosts(teamId, query);
    cached.json ??= cached.answer.then((answer) => Buffer.from(JSON.stringify(answer)));
    return cached.json;
  }

  private async findCosts(teamId: string, query: unknown): Promise<CachedAnswer> {
    const request = parse(costQuerySchema, query);
    await this.checkScope(teamId, request.tenantId, request.subscriptionId);
    // The days the source covers move with the clock: the day is part of the question.
    const today = formatDay(readToday(this.now()));
    return this.findCached(`${teamId}|costs|${today}|${JSON.stringify(request)}`, teamId, () =>
      this.computeCosts(teamId, request),
    );
  }

  private async computeCosts(teamId: string, request: CostRequest): Promise<CostResponse> {
    const scope = this.readScope(teamId, request);
    const grouping: CostGrouping = request.groupBy.startsWith('tag:')
      ? { kind: 'tag', name: request.groupBy.slice('tag:'.length) }
      : { kind: request.groupBy as 'service' | 'resourceGroup' | 'subscription' | 'resource' };
    const source = this.chooseSource(request);
    const rows = await this.costs.sumCosts({
      scope,
      from: source === 'month' ? monthStart(request.from) : request.from,
      to: request.to,
      source,
      bucket: request.granularity === 'daily' ? 'day' : request.granularity === 'monthly' ? 'month' : 'none',
      grouping,
      costType: request.costType,
    });
    const data = rows.map((row) => ({
      Date: request.granularity === 'none' ? request.from : row.date,
      Group: row.group,
      Cost: roundCents(row.cost),
    }));
    const coverage = readBillCoverage(
      await this.costs.listBillProgress(scope),
      { from: request.from, to: request.to, source },
      this.now(),
    );
    return {
      Data: data,
      Total: roundCents(rows.reduce((sum, row) => sum + row.cost, 0)),
      Currency: (await this.costs.readCurrency(scope)) ?? 'USD',
      Complete: coverage.complete,
      DaysRead: coverage.daysRead && { From: coverage.daysRead.from, To: coverage.daysRead.to },
    };
  }

  // This month so far against the same days of last month; the month's end as the forecast sees it.
  async readSummary(teamId: string, query: unknown): Promise<CostSummaryResponse> {
    const request = parse(costSummaryQuerySchema, query);
    await this.checkScope(teamId, request.tenantId);
    // Realized savings accrue by the hour, the forecast moves with the schedule: both are part of
    // the question.
    const hour = Math.floor(this.now().getTime() / hourMs);
    const planned = await this.changes.listPlannedSavings(teamId, request.tenantId);
    const key = `${teamId}|summary|${hour}|${request.tenantId ?? ''}|${digestPlanned(planned)}`;
    return this.readCached(key, teamId, () => this.computeSummary(teamId, request, planned));
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
    const monthToDate = await sumPeriod(monthFirst, today);
    const lastMonthSameDays = await sumPeriod(lastMonthFirst, lastMonthSameDayEnd);
    const forecast = await this.computeForecast(scope, 'month', planned);
    return {
      MonthToDate: roundCents(monthToDate),
      LastMonthSameDays: roundCents(lastMonthSameDays),
      ForecastMonthEnd: roundCents(forecast.expected),
      RealizedSavingsYearToDate: roundCents(
        await this.costs.sumRealizedSince(
          teamId,
          new Date(Date.UTC(date.getUTCFullYear(), 0, 1)),
          this.now(),
          request.tenantId,
        ),
      ),
      Currency: (await this.costs.readCurrency(scope)) ?? 'USD',
      Complete: readBillCoverage(
        await this.costs.listBillProgress(scope),
        { from: formatDay(lastMonthFirst), to: formatDay(today), source: 'day' },
        this.now(),
      ).complete,
    };
  }

  // The month's or quarter's cost at its end for a scope: expected, an 80% band and its days.
  async readForecast(teamId: string, query: unknown): Promise<CostForecastResponse> {
    const request = parse(costForecastQuerySchema, query);
    await this.checkScope(teamId, request.tenantId, request.subscriptionId);
    // The schedule changes apart from the bill: the planned changes are part of the question.
    const planned = await this.changes.listPlannedSavings(teamId, request.tenantId);
    const today = formatDay(readToday(this.now()));
    const key = `${teamId}|forecast|${today}|${JSON.stringify(request)}|${digestPlanned(planned)}`;
    return this.readCached(key, teamId, async () => {
      const scope = this.readScope(teamId, request);
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
  private async computeForecast(
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
    return this.readCached(key, teamId, () => this.computeSpan(teamId, filter, span, planned));
  }

  // Whether a span of a scope's bill is all in: its days kept by day from the daily reads, the days
  // before them from the monthly ones (the backfill reads those last).
  async isSpanComplete(
    teamId: string,
    filter: CostFilter,
    span: { from: string; to: string },
  ): Promise<boolean> {
    const progress = await this.costs.listBillProgress(this.readScope(teamId, filter));
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
    const scope = this.readScope(teamId, filter);
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

  async readResourceCosts(teamId: string, query: unknown): Promise<ResourceCostResponse> {
    const request = parse(resourceCostQuerySchema, query);
    if (!(await this.costs.isTeamResource(teamId, request.resourceId.toLowerCase())))
      throw notFound('Resource not found.');
    const today = readToday(this.now());
    const date = new Date(today);
    const monthFirst = formatDay(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1));
    const from = formatDay(today - (resourceCostDays - 1) * dayMs);
    const earliest = monthFirst < from ? monthFirst : from;
    const days = await this.costs.listResourceDays(
      teamId,
      request.resourceId.toLowerCase(),
      earliest,
      formatDay(today),
    );
    return {
      Data: days
        .filter((day) => day.date >= from)
        .map((day) => ({ Date: day.date, Cost: roundCents(day.cost) })),
      MonthToDate: roundCents(
        days.filter((day) => day.date >= monthFirst).reduce((sum, day) => sum + day.cost, 0),
      ),
      Currency: days[0]?.currency ?? (await this.costs.readCurrency({ teamId })) ?? 'USD',
    };
  }

  // FOCUS 1.0 rows (one per resource, service and day), streamed as CSV lines.
  async *exportFocus(teamId: string, query: unknown): AsyncGenerator<string> {
    const request = parse(costExportQuerySchema, query);
    await this.checkScope(teamId, request.tenantId);
    if (request.from > request.to) throw badRequest('from must not be after to.', 'from');
    if ((Date.parse(request.to) - Date.parse(request.from)) / dayMs + 1 > dailyHistoryDays + 31) {
      throw badRequest(`An export covers at most ${dailyHistoryDays + 31} days, the bill kept by day.`, 'to');
    }
    yield `${focusColumns.join(',')}\r\n`;
    for await (const batch of this.costs.streamDays(teamId, request.from, request.to, request.tenantId)) {
      yield batch.map((row) => toFocusLine(row)).join('');
    }
  }

  // Each applied resize or shutdown whose week after has settled on the bill: its cost per running
  // hour (and per day) the week before and the week after, annualised, against what it promised.
  async measureRealizedSavings(tenantId: string): Promise<number> {
    const today = readToday(this.now());
    const lastSettledDay = today - (settlingDays + 1) * dayMs;
    // The week before must lie within the days kept by day.
    const earliest = new Date(today - (dailyHistoryDays - measuredDays - 1) * dayMs);
    const latest = new Date(lastSettledDay - measuredDays * dayMs);
    if (latest <= earliest) return 0;
    let measured = 0;
    for (const change of await this.changes.listChangesToMeasure(tenantId, earliest, latest)) {
      if (await this.measureChange(tenantId, change)) measured += 1;
    }
    return measured;
  }

  private async measureChange(tenantId: string, change: ChangeToMeasure): Promise<boolean> {
    const appliedDay = readToday(change.completedAt);
    const armId = change.resourceArmId.toLowerCase();
    const [before, after] = await Promise.all([
      this.costs.readVmDays(
        tenantId,
        armId,
        formatDay(appliedDay - measuredDays * dayMs),
        formatDay(appliedDay - dayMs),
      ),
      this.costs.readVmDays(
        tenantId,
        armId,
        formatDay(appliedDay + dayMs),
        formatDay(appliedDay + measuredDays * dayMs),
      ),
    ]);
    const beforeHourly = before.hours > 0 ? before.cost / before.hours : null;
    const afterHourly = after.hours > 0 ? after.cost / after.hours : null;
    const beforeDaily = before.cost / measuredDays;
    const afterDaily = after.cost / measuredDays;
    // A resize changes what an hour costs; a shutdown how many hours are paid.
    const realizedAnnual =
      change.kind === 'resize' && beforeHourly !== null && afterHourly !== null
        ? (beforeHourly - afterHourly) * (after.hours / measuredDays) * daysPerYear
        : (beforeDaily - afterDaily) * daysPerYear;
    const isNew = await this.costs.insertRealizedSaving({
      scheduledChangeId: change.id,
      teamId: change.teamId,
      tenantId,
      appliedAt: change.completedAt,
      expectedAnnual: change.expectedAnnual,
      realizedAnnual,
      beforeHourly,
      afterHourly,
      beforeDaily,
      afterDaily,
      measuredAt: this.now(),
    });
    if (!isNew) return false;
    const rates =
      change.kind === 'resize' && beforeHourly !== null && afterHourly !== null
        ? `${formatRate(beforeHourly)}/h before, ${formatRate(afterHourly)}/h after`
        : `${formatDollars(beforeDaily)} a day before, ${formatDollars(afterDaily)} a day after`;
    await this.changes.recordMeasuredSaving(
      change,
      `Saving on the bill: ${formatDollars(realizedAnnual)} a year realized against ${formatDollars(change.expectedAnnual)} expected (${rates}, a week each)`,
    );
    if (change.expectedAnnual > 0 && realizedAnnual < underdeliveredShare * change.expectedAnnual) {
      await this.activity.record([
        {
          teamId: change.teamId,
          tenantId,
          serviceName: activityServiceNames.costs,
          resourceArmId: change.resourceArmId,
          logText: `The change to ${change.resourceName} saved ${formatDollars(realizedAnnual)} a year on the bill, under half of the ${formatDollars(change.expectedAnnual)} it promised (${rates})`,
        },
      ]);
    }
    return true;
  }

  private hasWorkNow(sync: CostSyncRow, now: Date): boolean {
    if (sync.notBefore && sync.notBefore.getTime() > readWallClock()) return false;
    if (sync.deniedAt && now.getTime() - sync.deniedAt.getTime() < deniedRetryHours * hourMs) return false;
    if (sync.plan.length > 0) return true;
    return !sync.refreshedAt || now.getTime() - sync.refreshedAt.getTime() >= refreshHours * hourMs;
  }

  // The wait until a throttled subscription with work may be asked again; undefined when none has.
  private readShortestWait(syncs: CostSyncRow[], now: Date): number | undefined {
    let shortest: number | undefined;
    for (const sync of syncs) {
      if (!sync.notBefore || sync.notBefore.getTime() <= readWallClock()) continue;
      if (sync.deniedAt) continue;
      const hasWork =
        sync.plan.length > 0 ||
        !sync.refreshedAt ||
        now.getTime() - sync.refreshedAt.getTime() >= refreshHours * hourMs;
      if (!hasWork) continue;
      const wait = sync.notBefore.getTime() - readWallClock();
      shortest = shortest === undefined ? wait : Math.min(shortest, wait);
    }
    return shortest;
  }

  private async readNextPage(
    work: TenantWork,
    sync: CostSyncRow,
    options: CloudCallOptions,
  ): Promise<'read' | 'throttled' | 'stopped'> {
    const now = this.now();
    const plan: CostRead[] =
      sync.plan.length > 0 ? sync.plan : sync.backfilledAt ? planRefresh(now) : planBackfill(now);
    const [first, ...rest] = plan;
    const read = { ...first!, readId: first!.readId ?? randomUUID(), nextLink: first!.nextLink ?? null };
    let page;
    try {
      page = await this.cloud.queryCosts(
        work.credentials,
        {
          subscriptionId: sync.subscriptionId,
          costType: read.costType,
          granularity: read.granularity,
          from: read.from,
          to: read.to,
        },
        read.nextLink,
        options,
      );
    } catch (caught) {
      if (!isCloudError(caught)) throw caught;
      const error: CloudError = caught;
      if (error.kind === 'throttled') {
        const waitMs = (error.retryAfterSeconds ?? 60) * 1000;
        await this.costs.updateSync(
          sync.tenantId,
          sync.subscriptionId,
          { plan, notBefore: new Date(readWallClock() + waitMs) },
          now,
        );
        return 'throttled';
      }
      if (error.kind === 'authorization') {
        await this.recordDenied(work, sync, plan, now);
        return 'stopped';
      }
      if (error.kind === 'timeout' && options.signal?.aborted) return 'stopped';
      await this.costs.updateSync(
        sync.tenantId,
        sync.subscriptionId,
        { plan, notBefore: new Date(readWallClock() + failureBackoffMs), lastError: error.message },
        now,
      );
      return 'stopped';
    }
    const nextPlan = page.nextLink ? [{ ...read, nextLink: page.nextLink }, ...rest] : rest;
    const isDone = nextPlan.length === 0;
    await this.costs.writePage(
      sync.tenantId,
      sync.subscriptionId,
      read,
      toPageRows(page.rows),
      nextPlan,
      {
        notBefore: null,
        deniedAt: null,
        lastError: null,
        ...(isDone ? { refreshedAt: now, ...(sync.backfilledAt ? {} : { backfilledAt: now }) } : {}),
      },
      now,
    );
    // The bill's newest days by day, both cost types, are in for the first time: the recommendations
    // made at list prices are priced at the tenant's own rates now, not at the next hourly analysis.
    if (
      !sync.backfilledAt &&
      !page.nextLink &&
      read.granularity === 'Daily' &&
      !rest.some((other) => other.granularity === 'Daily' && other.to >= read.to)
    ) {
      const newest = plan.filter((other) => other.granularity === 'Daily').map((other) => other.to);
      if (newest.every((to) => to <= read.to)) await this.work.enqueueRecommendationsAnalysis(sync.tenantId);
    }
    return 'read';
  }

  // Said once in Recent Activity (the tenant's Status says it for as long as it lasts).
  private async recordDenied(
    work: TenantWork,
    sync: CostSyncRow,
    plan: CostRead[],
    now: Date,
  ): Promise<void> {
    await this.costs.updateSync(sync.tenantId, sync.subscriptionId, { plan, deniedAt: now }, now);
    if (sync.deniedAt) return;
    await this.activity.record([
      {
        teamId: work.tenant.teamId,
        tenantId: work.tenant.id,
        serviceName: activityServiceNames.costs,
        resourceArmId: null,
        logText: `The service principal of tenant "${work.tenant.friendlyName}" may not read the costs of subscription ${sync.subscriptionId}: grant it the ${costReaderRoleName} role to see the bill`,
      },
    ]);
  }

  private async readCached<Answer>(
    key: string,
    teamId: string,
    compute: () => Promise<Answer>,
  ): Promise<Answer> {
    return (await this.findCached(key, teamId, compute)).answer as Promise<Answer>;
  }

  private async findCached(
    key: string,
    teamId: string,
    compute: () => Promise<unknown>,
  ): Promise<CachedAnswer> {
    // Ten dashboards asking at once share one read of the version, begun after each asked.
    const version = await this.versions.read(teamId, () => this.costs.readTeamVersion(teamId));
    const cached = this.answers.get(key);
    if (cached && cached.version === version) {
      // Most recently used last, so the bound drops the oldest.
      this.answers.delete(key);
      this.answers.set(key, cached);
      return cached;
    }
    const answer = compute();
    const entry: CachedAnswer = { version, answer };
    this.answers.set(key, entry);
    answer.catch(() => {
      if (this.answers.get(key) === entry) this.answers.delete(key);
    });
    if (this.answers.size > cachedAnswerLimit) this.answers.delete(this.answers.keys().next().value!);
    return entry;
  }

  // Another team's tenant or subscription is not found, as every other call answers it.
  private async checkScope(teamId: string, tenantId?: string, subscriptionId?: string): Promise<void> {
    if (!tenantId && !subscriptionId) return;
    if (!(await this.costs.isTeamScope(teamId, tenantId, subscriptionId)))
      throw notFound('Tenant or subscription not found.');
  }

  private readScope(teamId: string, request: CostFilter): CostScope {
    const [tagName, ...tagValue] = request.tag?.split('=') ?? [];
    return {
      teamId,
      tenantId: request.tenantId,
      subscriptionId: request.subscriptionId,
      resourceGroup: request.resourceGroup,
      service: request.service,
      tag: tagName === undefined ? undefined : { name: tagName, value: tagValue.join('=') },
    };
  }

  // Days come from the daily rows while the range lies within the days kept by day; a longer range,
  // or a monthly answer reaching past them, comes from the monthly rows (whole months).
  private chooseSource(request: CostRequest): 'day' | 'month' {
    const oldestDaily = formatDay(readToday(this.now()) - (dailyHistoryDays - 1) * dayMs);
    if (request.granularity === 'daily') return 'day';
    return request.from >= oldestDaily ? 'day' : 'month';
  }
}

// The routes have validated already; a service called otherwise answers the same 400.
function parse<Schema extends z.ZodType>(schema: Schema, input: unknown): z.infer<Schema> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  throw badRequest(issue.message, issue.path.map(String).join('.') || undefined);
}

function digestPlanned(planned: PlannedSaving[]): string {
  return createHash('sha256').update(JSON.stringify(planned)).digest('base64url').slice(0, 16);
}

// Whether a resource (ARM id, its tags) lies in a scope's subscription, resource group and tag.
function isInScope(armId: string, tags: Record<string, string>, scope: CostScope): boolean {
  const id = armId.toLowerCase();
  if (scope.subscriptionId && !id.startsWith(`/subscriptions/${scope.subscriptionId.toLowerCase()}/`))
    return false;
  if (scope.resourceGroup && readResourceGroup(id) !== scope.resourceGroup.toLowerCase()) return false;
  if (scope.tag && (tags[scope.tag.name] ?? '') !== scope.tag.value) return false;
  return true;
}

function monthStart(day: string): string {
  return `${day.slice(0, 7)}-01`;
}

// Cost Management's waits are real seconds, whatever day the service's clock says it is (the tests
// move that clock): not_before is kept and compared on the wall clock.
function readWallClock(): number {
  return Date.now();
}

function formatRate(hourly: number): string {
  return `$${hourly.toFixed(4).replace(/0{1,2}$/, '')}`;
}

// Rows of one key summed (ids compared lower case, so one resource is one row), each with its group.
export function toPageRows(rows: CostRow[]): CostPageRow[] {
  const byKey = new Map<string, CostPageRow>();
  for (const row of rows) {
    const key = `${row.date}|${row.resourceId}|${row.serviceName}`;
    const existing = byKey.get(key);
    if (existing) {
      existing.cost += row.cost;
      existing.usageQuantity += row.usageQuantity;
      continue;
    }
    byKey.set(key, {
      date: row.date,
      resourceId: row.resourceId,
      resourceGroup: readResourceGroup(row.resourceId),
      serviceName: row.serviceName,
      cost: row.cost,
      usageQuantity: row.usageQuantity,
      currency: row.currency,
    });
  }
  return [...byKey.values()];
}

function readResourceGroup(resourceId: string): string {
  return /\/resourcegroups\/([^/]+)/i.exec(resourceId)?.[1]?.toLowerCase() ?? '';
}

function toFocusLine(row: CostExportRow): string {
  const next = formatDay(Date.parse(row.day) + dayMs);
  const isPurchase = row.resourceId.includes('/microsoft.capacity/reservationorders/');
  const values = [
    row.actualCost,
    row.amortizedCost,
    row.listCost,
    row.currency,
    `${row.day}T00:00:00Z`,
    `${next}T00:00:00Z`,
    isPurchase ? 'Purchase' : 'Usage',
    row.usageQuantity,
    row.serviceName === 'Virtual Machines' ? 'Hours' : 'Units',
    row.resourceId,
    row.resourceName ?? row.resourceId.split('/').at(-1) ?? '',
    row.resourceType ?? '',
    row.region ?? '',
    row.serviceName,
    readServiceCategory(row.serviceName),
    row.subscriptionId,
    row.subscriptionName ?? '',
    JSON.stringify(row.tags),
  ];
  return `${values.map(toCsvField).join(',')}\r\n`;
}

// FOCUS 1.0's ServiceCategory for the services an Azure estate bills.
function readServiceCategory(serviceName: string): string {
  const name = serviceName.toLowerCase();
  if (name.includes('virtual machine') || name.includes('app service') || name.includes('functions'))
    return 'Compute';
  if (name.includes('storage') || name.includes('disk')) return 'Storage';
  if (name.includes('sql') || name.includes('cosmos') || name.includes('database')) return 'Databases';
  if (name.includes('network') || name.includes('bandwidth') || name.includes('ip')) return 'Networking';
  return 'Other';
}

function toCsvField(value: string | number): string {
  const text = typeof value === 'number' ? String(Math.round(value * 1e6) / 1e6) : value;
  // Formula characters are quoted with a leading apostrophe so a spreadsheet does not run them.
  const safe = /^[=+\-@\t\r]/.test(text) && typeof value === 'string' ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}
