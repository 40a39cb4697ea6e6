// Budgets on a scope of the team's bill: their period's spend and forecast (the burn-down), and the
// thresholds they cross, each alerted once per period (the crossing row, its alert, Recent Activity
// and mails in one transaction). Azure's own budgets are listed beside them, read-only.
import { formatMoney, roundCents } from '@cloudtrim/contracts/money';
import {
  budgetRequestSchema,
  getBudgetThresholdKey,
  type AzureBudget,
  type Budget,
  type BudgetBasis,
  type BudgetDay,
  type BudgetInput,
  type BudgetListResponse,
  type BudgetThreshold,
} from '@cloudtrim/contracts/budgets';
import type { AlertFilter } from '@cloudtrim/contracts/alerts';
import type { z } from 'zod';
import { isCloudError, type CloudProvider } from '../../cloud/cloud-provider';
import type { TransactionRunner } from '../../db/transaction';
import { badRequest, conflict, notFound } from '../../lib/http-errors';
import type { AlertsService } from '../alerts/alerts.service';
import { formatDay, readToday } from '../costs/costs.plan';
import type { CostSpanForecast } from '../costs/costs.forecasting';
import type { CostsService } from '../costs/costs.service';
import type { TenantsService, TenantWorkLog } from '../tenants/tenants.service';
import { findBudgetSpan, type BudgetSpan } from './budget-period';
import {
  BudgetsRepository,
  type BudgetCrossingRow,
  type BudgetRow,
  type TeamTenant,
} from './budgets.repository';

// A team's budgets at most, as its pipelines (pipelines.limits.ts).
export const maxBudgetsPerTeam = 100;

// Azure's budgets move with its daily bill: a tenant's are read again after this long.
const azureBudgetsMaxAgeMs = 10 * 60_000;

interface AzureBudgetsRead {
  readAt: number;
  budgets: Promise<AzureBudget[]>;
}

export class BudgetsService {
  private readonly azureBudgets = new Map<string, AzureBudgetsRead>();

  constructor(
    private readonly budgets: BudgetsRepository,
    private readonly runTransaction: TransactionRunner,
    private readonly costs: Pick<CostsService, 'forecastSpan' | 'isSpanComplete'>,
    private readonly alerts: Pick<AlertsService, 'raise' | 'findStrangers'>,
    private readonly tenants: Pick<TenantsService, 'openForWork'>,
    private readonly cloud: Pick<CloudProvider, 'listBudgets'>,
    private readonly log: TenantWorkLog,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async listBudgets(teamId: string): Promise<BudgetListResponse> {
    const [rows, teamTenants] = await Promise.all([
      this.budgets.listForTeam(teamId),
      this.budgets.listTeamTenants(teamId),
    ]);
    const crossings = await this.budgets.listCrossings(rows.map((row) => row.id));
    const answers: Budget[] = [];
    // One after another: each reads a period of the bill.
    for (const row of rows) answers.push(await this.describeBudget(row, crossings));
    return { Budgets: answers, AzureBudgets: await this.listAzureBudgets(teamTenants) };
  }

  async createBudget(teamId: string, input: unknown): Promise<Budget> {
    const budget = parse(budgetRequestSchema, input);
    await this.checkBudget(teamId, budget);
    const row = await this.runTransaction(async (transaction) => {
      const budgets = new BudgetsRepository(transaction.db);
      await budgets.lockTeam(teamId);
      if ((await budgets.countForTeam(teamId)) >= maxBudgetsPerTeam) {
        throw conflict(`A team may have at most ${maxBudgetsPerTeam} budgets.`);
      }
      return budgets.insert(teamId, toValues(budget), this.now());
    });
    await this.evaluateBudget(row, { rearm: false });
    return this.describeBudget(row, await this.budgets.listCrossings([row.id]));
  }

  async updateBudget(teamId: string, id: string, input: unknown): Promise<Budget> {
    if (!(await this.budgets.findForTeam(teamId, id))) throw notFound('Budget not found.');
    const budget = parse(budgetRequestSchema, input);
    await this.checkBudget(teamId, budget);
    const row = await this.budgets.update(teamId, id, toValues(budget), this.now());
    if (!row) throw notFound('Budget not found.');
    // A threshold the new amount (or period, scope, thresholds) leaves uncrossed is armed again.
    await this.evaluateBudget(row, { rearm: true });
    return this.describeBudget(row, await this.budgets.listCrossings([row.id]));
  }

  async deleteBudget(teamId: string, id: string): Promise<void> {
    if (!(await this.budgets.delete(teamId, id))) throw notFound('Budget not found.');
  }

  // After each ingestion of a tenant's bill: every budget its costs count in.
  async evaluateTenant(tenantId: string): Promise<number> {
    let raised = 0;
    for (const row of await this.budgets.listForTenant(tenantId)) {
      raised += await this.evaluateBudget(row, { rearm: false });
    }
    return raised;
  }

  // How many thresholds crossed now. Each crossing row and its alert commit together; a second
  // worker's insert waits on the first's and finds it there, so a threshold alerts once a period.
  private async evaluateBudget(row: BudgetRow, options: { rearm: boolean }): Promise<number> {
    const span = this.findSpan(row);
    const forecast = await this.costs.forecastSpan(row.teamId, toFilter(row), {
      ...span,
      costType: row.costType,
    });
    const isCrossed = (threshold: BudgetThreshold) =>
      readBasisCost(forecast, threshold.Basis) >= (row.amount * threshold.Percent) / 100;
    // Nothing crossed and nothing to re-arm: no transaction, no lock.
    if (!options.rearm && !row.thresholds.some(isCrossed)) return 0;
    const scope = await this.describeScope(row);
    return this.runTransaction(async (transaction) => {
      const budgets = new BudgetsRepository(transaction.db);
      await budgets.lockBudget(row.id);
      const current = await budgets.findForTeam(row.teamId, row.id);
      // Deleted or edited since: the edit evaluates the budget as it now is.
      if (current?.updatedAt.getTime() !== row.updatedAt.getTime()) return 0;
      const crossed = new Set(
        (await budgets.listCrossings([row.id]))
          .filter((crossing) => crossing.periodStart === span.from)
          .map((crossing) => crossing.thresholdKey),
      );
      if (options.rearm) {
        const armed = [...crossed].filter(
          (key) =>
            !row.thresholds.some(
              (threshold) => getBudgetThresholdKey(threshold) === key && isCrossed(threshold),
            ),
        );
        await budgets.deleteCrossings(row.id, span.from, armed);
        for (const key of armed) crossed.delete(key);
      }
      let raised = 0;
      for (const threshold of row.thresholds) {
        const key = getBudgetThresholdKey(threshold);
        if (crossed.has(key) || !isCrossed(threshold)) continue;
        const at = this.now();
        if (
          !(await budgets.insertCrossing({
            budgetId: row.id,
            thresholdKey: key,
            periodStart: span.from,
            crossedAt: at,
          }))
        )
          continue;
        const limit = (row.amount * threshold.Percent) / 100;
        const cost = readBasisCost(forecast, threshold.Basis);
        await this.alerts.raise(
          {
            teamId: row.teamId,
            kind: 'budget',
            // An edit arms the thresholds afresh: its time is part of the key.
            key: `budget:${row.id}:${key}:${span.from}:${row.updatedAt.getTime()}`,
            title:
              threshold.Basis === 'actual'
                ? `Budget "${row.name}" has reached ${threshold.Percent}% of ${formatMoney(row.amount, forecast.currency)}`
                : `Budget "${row.name}" is forecast to reach ${threshold.Percent}% of ${formatMoney(row.amount, forecast.currency)}`,
            scope,
            filter: toAlertFilter(row),
            day: formatDay(readToday(at)),
            amount: roundCents(cost),
            expected: roundCents(limit),
            currency: forecast.currency,
            drivers: [],
            mailKind: 'budget',
            recipients: threshold.Recipients.AllTeam ? undefined : threshold.Recipients.Emails,
            tenantId: row.tenantId,
            summary:
              threshold.Basis === 'actual'
                ? `The ${row.costType} cost from ${span.from} to ${span.to} has reached ${formatMoney(cost, forecast.currency)}, over ${threshold.Percent}% of the budget (${formatMoney(limit, forecast.currency)}).`
                : `The ${row.costType} cost from ${span.from} to ${span.to} is forecast to end at ${formatMoney(cost, forecast.currency)}, over ${threshold.Percent}% of the budget (${formatMoney(limit, forecast.currency)}).`,
          },
          { db: transaction },
        );
        raised += 1;
      }
      return raised;
    });
  }

  private async describeBudget(row: BudgetRow, crossings: BudgetCrossingRow[]): Promise<Budget> {
    const span = this.findSpan(row);
    const forecast = await this.costs.forecastSpan(row.teamId, toFilter(row), {
      ...span,
      costType: row.costType,
    });
    return {
      Id: row.id,
      Name: row.name,
      Scope: {
        TenantId: row.tenantId ?? undefined,
        SubscriptionId: row.subscriptionId ?? undefined,
        ResourceGroup: row.resourceGroup ?? undefined,
        Tag: row.tag ?? undefined,
      },
      Amount: row.amount,
      Period: row.period,
      StartDate: row.startDate,
      CostType: row.costType,
      Thresholds: row.thresholds,
      Currency: forecast.currency,
      PeriodStart: span.from,
      PeriodEnd: span.to,
      Spent: roundCents(forecast.spent),
      Forecast: roundCents(forecast.expected),
      ForecastLow: roundCents(forecast.low),
      ForecastHigh: roundCents(forecast.high),
      Days: toBurnDown(forecast),
      Crossed: crossings
        .filter((crossing) => crossing.budgetId === row.id && crossing.periodStart === span.from)
        .map((crossing) => {
          const [percent, basis] = crossing.thresholdKey.split(':');
          return {
            Percent: Number(percent),
            Basis: basis as BudgetBasis,
            CrossedAt: crossing.crossedAt.toISOString(),
          };
        }),
      Complete: await this.costs.isSpanComplete(row.teamId, toFilter(row), span),
    };
  }

  // A tenant that is not the team's is not found; a subscription or resource group the team (or the
  // tenant) does not have, or a recipient who is not a member, is a bad request.
  private async checkBudget(teamId: string, budget: BudgetInput): Promise<void> {
    const { TenantId, SubscriptionId, ResourceGroup } = budget.Scope;
    const teamTenants = await this.budgets.listTeamTenants(teamId);
    const inScope = TenantId ? teamTenants.filter((tenant) => tenant.id === TenantId) : teamTenants;
    if (TenantId && inScope.length === 0) throw notFound('Tenant not found.');
    if (
      SubscriptionId &&
      !inScope.some((tenant) => tenant.subscriptionIds.some((id) => id.toLowerCase() === SubscriptionId))
    ) {
      throw badRequest(
        TenantId ? 'The tenant has no such subscription.' : 'The team has no such subscription.',
        'Scope.SubscriptionId',
      );
    }
    if (
      ResourceGroup &&
      !(await this.budgets.hasResourceGroup(teamId, ResourceGroup, TenantId, SubscriptionId))
    ) {
      throw badRequest('No resource group of that name in the scope.', 'Scope.ResourceGroup');
    }
    for (const [index, threshold] of budget.Thresholds.entries()) {
      const strangers = await this.alerts.findStrangers(teamId, threshold.Recipients.Emails);
      if (strangers.length > 0) {
        throw badRequest(
          `Not a member of the team: ${strangers.join(', ')}.`,
          `Thresholds.${index}.Recipients.Emails`,
        );
      }
    }
  }

  // Read through the tenant's principal with Reader rights; a tenant whose principal is refused, or
  // whose Azure fails, has none listed (the failure is logged).
  private async listAzureBudgets(teamTenants: TeamTenant[]): Promise<AzureBudget[]> {
    const lists = await Promise.all(
      teamTenants.map((tenant) => {
        const cached = this.azureBudgets.get(tenant.id);
        if (cached && Date.now() - cached.readAt < azureBudgetsMaxAgeMs) return cached.budgets;
        const read: AzureBudgetsRead = { readAt: Date.now(), budgets: this.readAzureBudgets(tenant) };
        this.azureBudgets.set(tenant.id, read);
        // A read that failed outright (the database) is not kept.
        read.budgets.catch(() => {
          if (this.azureBudgets.get(tenant.id) === read) this.azureBudgets.delete(tenant.id);
        });
        return read.budgets;
      }),
    );
    return lists.flat();
  }

  private async readAzureBudgets(tenant: TeamTenant): Promise<AzureBudget[]> {
    const work = await this.tenants.openForWork(tenant.id, 'budget-list');
    if (!work) return [];
    const budgets: AzureBudget[] = [];
    for (const subscriptionId of tenant.subscriptionIds) {
      try {
        const read = await this.cloud.listBudgets(work.credentials, subscriptionId);
        budgets.push(
          ...read.map((budget) => ({
            Name: budget.name,
            TenantId: tenant.id,
            SubscriptionId: subscriptionId,
            Amount: budget.amount,
            TimeGrain: budget.timeGrain,
            StartDate: budget.startDate,
            EndDate: budget.endDate,
            CurrentSpend: roundCents(budget.currentSpend),
            ForecastSpend: budget.forecastSpend === null ? null : roundCents(budget.forecastSpend),
            Currency: budget.currency,
          })),
        );
      } catch (error) {
        if (isCloudError(error, 'authorization')) return [];
        this.log.warn(
          { tenantId: tenant.id, subscriptionId, err: error },
          "Azure's budgets could not be read",
        );
      }
    }
    return budgets;
  }

  private findSpan(row: BudgetRow): BudgetSpan {
    return findBudgetSpan(row.period, row.startDate, formatDay(readToday(this.now())));
  }

  // 'Tenant Contoso · Subscription Production · resource group web-rg · tag env=prod'.
  private async describeScope(row: BudgetRow): Promise<string> {
    const parts: string[] = [];
    if (row.tenantId) {
      const tenant = (await this.budgets.listTeamTenants(row.teamId)).find(
        (item) => item.id === row.tenantId,
      );
      parts.push(`Tenant ${tenant?.friendlyName ?? row.tenantId}`);
    }
    if (row.subscriptionId) {
      const name = await this.budgets.readSubscriptionName(row.teamId, row.subscriptionId);
      parts.push(`Subscription ${name ?? row.subscriptionId}`);
    }
    if (row.resourceGroup) parts.push(`resource group ${row.resourceGroup}`);
    if (row.tag) parts.push(`tag ${row.tag}`);
    return parts.length > 0 ? parts.join(' · ') : 'All of the team’s costs';
  }
}

function toValues(budget: BudgetInput) {
  return {
    name: budget.Name,
    tenantId: budget.Scope.TenantId ?? null,
    subscriptionId: budget.Scope.SubscriptionId ?? null,
    resourceGroup: budget.Scope.ResourceGroup ?? null,
    tag: budget.Scope.Tag ?? null,
    amount: budget.Amount,
    period: budget.Period,
    startDate: budget.StartDate,
    costType: budget.CostType,
    thresholds: budget.Thresholds,
  };
}

function toFilter(row: BudgetRow) {
  return {
    tenantId: row.tenantId ?? undefined,
    subscriptionId: row.subscriptionId ?? undefined,
    resourceGroup: row.resourceGroup ?? undefined,
    tag: row.tag ?? undefined,
  };
}

function toAlertFilter(row: BudgetRow): AlertFilter {
  const filter: AlertFilter = {};
  if (row.tenantId) filter.TenantId = row.tenantId;
  if (row.subscriptionId) filter.SubscriptionId = row.subscriptionId;
  if (row.resourceGroup) filter.ResourceGroup = row.resourceGroup;
  if (row.tag) filter.Tag = row.tag;
  return filter;
}

function readBasisCost(forecast: CostSpanForecast, basis: BudgetBasis): number {
  return basis === 'actual' ? forecast.spent : forecast.expected;
}

// Cumulative: the actual days (with what the period cost before the days kept by day), then the
// forecast ones from where the actual stopped; the last actual day carries both so the lines meet.
// Today carries its forecast and, as actual, what it has cost so far (the budget's Spent).
function toBurnDown(forecast: CostSpanForecast): BudgetDay[] {
  let total = forecast.earlier;
  const lastActual = forecast.days.findLastIndex((day) => day.kind === 'actual');
  return forecast.days.map((day, index) => {
    const before = total;
    total += day.cost;
    const cumulative = roundCents(total);
    if (day.kind === 'forecast') {
      const actual = day.soFar === undefined ? null : roundCents(before + day.soFar);
      return { Date: day.day, Actual: actual, Forecast: cumulative };
    }
    return { Date: day.day, Actual: cumulative, Forecast: index === lastActual ? cumulative : null };
  });
}

// The routes have validated already; a service called otherwise answers the same 400.
function parse<Schema extends z.ZodType>(schema: Schema, input: unknown): z.infer<Schema> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  throw badRequest(issue.message, issue.path.map(String).join('.') || undefined);
}
