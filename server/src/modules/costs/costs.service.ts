// The bill from Azure Cost Management: read into PostgreSQL per subscription (a 13-month backfill,
// then the settling days again after each Azure refresh), and answered by day, month or period,
// grouped and filtered as the Cost Analysis screen asks.
//
// The parts, each in its file: the sync (costs.sync.ts), the answer cache (lib/versioned-answers.ts),
// the summary (costs.summary.ts), the forecaster's calls (costs.forecasting.ts), one resource's cost
// (costs.resource-cost.ts), the FOCUS export (costs.focus-export.ts) and the savings realized on
// the bill (costs.realized-savings.ts); the question's scope is costs.scope.ts. This class answers
// the cost analysis itself and hands the rest to those parts.
import { roundCents } from '@cloudtrim/contracts/money';
import {
  costQuerySchema,
  type CostFilter,
  type CostForecastResponse,
  type CostRequest,
  type CostResponse,
  type CostSummaryResponse,
  type CostType,
  type ResourceCostResponse,
} from '@cloudtrim/contracts/costs';
import type { CloudProvider } from '../../cloud/cloud-provider';
import type { CloudWorkQueue } from '../../queue/cloud-work';
import type { ActivityService } from '../activity/activity.service';
import type { AutomationService } from '../automation/automation.service';
import type { TenantsService } from '../tenants/tenants.service';
import { dailyHistoryDays, formatDay, readBillCoverage, readToday } from './costs.plan';
import type { CostGrouping, CostsRepository } from './costs.repository';
import { dayMs } from '../../lib/time';
import { VersionedAnswers, type CachedAnswer } from '../../lib/versioned-answers';
import { FocusExport } from './costs.focus-export';
import { CostForecasting, type CostSpanForecast } from './costs.forecasting';
import { RealizedSavings } from './costs.realized-savings';
import { ResourceCosts } from './costs.resource-cost';
import { checkTeamScope, parse, readCostScope } from './costs.scope';
import { CostSummary } from './costs.summary';
import { CostSync, type CostSyncOptions, type CostSyncSummary } from './costs.sync';

export class CostsService {
  private readonly cache: VersionedAnswers;
  private readonly savings: RealizedSavings;
  private readonly sync: CostSync;
  private readonly forecasting: CostForecasting;
  private readonly summary: CostSummary;
  private readonly resourceCosts: ResourceCosts;
  private readonly focus: FocusExport;

  constructor(
    private readonly costs: CostsRepository,
    tenants: TenantsService,
    cloud: CloudProvider,
    activity: ActivityService,
    work: Pick<CloudWorkQueue, 'enqueueCostSync' | 'enqueueRecommendationsAnalysis'>,
    changes: Pick<AutomationService, 'listChangesToMeasure' | 'recordMeasuredSaving' | 'listPlannedSavings'>,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.cache = new VersionedAnswers((teamId) => costs.readTeamVersion(teamId));
    this.savings = new RealizedSavings(costs, activity, changes, now);
    this.sync = new CostSync(costs, tenants, cloud, activity, work, this.savings, now);
    this.forecasting = new CostForecasting(costs, changes, this.cache, now);
    this.summary = new CostSummary(costs, changes, this.cache, this.forecasting, now);
    this.resourceCosts = new ResourceCosts(costs, now);
    this.focus = new FocusExport(costs);
  }

  // The schedule's fan-out: a job for each tenant with a read due (one queued per tenant at most).
  enqueueDueTenants(): Promise<number> {
    return this.sync.enqueueDueTenants();
  }

  // A tenant's pages read in turn until their plans are done, the job's deadline comes, or (with
  // longestHeldWaitMs) Cost Management asks for a longer wait than the run may hold its place for.
  syncTenant(tenantId: string, options: CostSyncOptions = {}): Promise<CostSyncSummary | undefined> {
    return this.sync.syncTenant(tenantId, options);
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
    await checkTeamScope(this.costs, teamId, request.tenantId, request.subscriptionId);
    // The days the source covers move with the clock: the day is part of the question.
    const today = formatDay(readToday(this.now()));
    return this.cache.find(`${teamId}|costs|${today}|${JSON.stringify(request)}`, teamId, () =>
      this.computeCosts(teamId, request),
    );
  }

  private async computeCosts(teamId: string, request: CostRequest): Promise<CostResponse> {
    const scope = readCostScope(teamId, request);
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

  readSummary(teamId: string, query: unknown): Promise<CostSummaryResponse> {
    return this.summary.read(teamId, query);
  }

  readForecast(teamId: string, query: unknown): Promise<CostForecastResponse> {
    return this.forecasting.readForecast(teamId, query);
  }

  forecastSpan(
    teamId: string,
    filter: CostFilter,
    span: { from: string; to: string; costType: CostType },
  ): Promise<CostSpanForecast> {
    return this.forecasting.forecastSpan(teamId, filter, span);
  }

  isSpanComplete(teamId: string, filter: CostFilter, span: { from: string; to: string }): Promise<boolean> {
    return this.forecasting.isSpanComplete(teamId, filter, span);
  }

  readResourceCosts(teamId: string, query: unknown): Promise<ResourceCostResponse> {
    return this.resourceCosts.read(teamId, query);
  }

  exportFocus(teamId: string, query: unknown): AsyncGenerator<string> {
    return this.focus.export(teamId, query);
  }

  measureRealizedSavings(tenantId: string): Promise<number> {
    return this.savings.measure(tenantId);
  }

  // Days come from the daily rows while the range lies within the days kept by day; a longer range,
  // or a monthly answer reaching past them, comes from the monthly rows (whole months).
  private chooseSource(request: CostRequest): 'day' | 'month' {
    const oldestDaily = formatDay(readToday(this.now()) - (dailyHistoryDays - 1) * dayMs);
    if (request.granularity === 'daily') return 'day';
    return request.from >= oldestDaily ? 'day' : 'month';
  }
}

function monthStart(day: string): string {
  return `${day.slice(0, 7)}-01`;
}
