import { createHash } from 'node:crypto';
import type { EmulatorServices } from '../emulator.services';
import { deriveGuid } from '../fleet/noise.hash';
import type { PrincipalRecord } from '../fleet/fleet.model';
import { readQuery, sendArmError, sendJson, type RequestContext } from '../http/http.context';
import type { Router } from '../http/http.router';
import type { CostLedger } from './cost.ledger';
import { dayMs } from '../time';
import { parseQueryDefinition, QueryDefinitionError, runQuery, type QueryResult } from './cost.query';

// Microsoft.CostManagement/query and Microsoft.Consumption/budgets at subscription and resource
// group scope. The dispatcher has checked the token, the subscription and the caller's read right;
// these routes check Cost Management's own right and its query budget.

export const costQueryPageSize = 1000;
// Only answers of several pages are kept, for their nextLinks; a few, since one can be large.
const cachedResults = 4;

export interface CostScope {
  readonly subscriptionId: string;
  readonly resourceGroupName: string | undefined;
  /** As Azure spells scopes in ids: `/subscriptions/{id}[/resourceGroups/{name}]`. */
  readonly path: string;
}

/** The scope of a Cost Management or Consumption path, or undefined when the path is not one. */
export function readCostScope(segments: readonly string[]): CostScope | undefined {
  const lowered = segments.map((segment) => segment.toLowerCase());
  const providerIndex = lowered.indexOf('providers');
  const namespace = lowered[providerIndex + 1];
  if (namespace !== 'microsoft.costmanagement' && namespace !== 'microsoft.consumption') return undefined;
  if (lowered[0] !== 'subscriptions') return undefined;
  const subscriptionId = segments[1] ?? '';
  if (providerIndex === 2) {
    return { subscriptionId, resourceGroupName: undefined, path: `/subscriptions/${subscriptionId}` };
  }
  if (providerIndex === 4 && lowered[2] === 'resourcegroups') {
    const resourceGroupName = segments[3] ?? '';
    return {
      subscriptionId,
      resourceGroupName,
      path: `/subscriptions/${subscriptionId}/resourceGroups/${resourceGroupName}`,
    };
  }
  return undefined;
}

/** Refuses a caller without Microsoft.CostManagement/*\/read, and a resource group that is not there. */
export function admitCostRequest(
  services: EmulatorServices,
  context: RequestContext,
  principal: PrincipalRecord,
  scope: CostScope,
): boolean {
  const isBudget = context.segments.some((segment) => segment.toLowerCase() === 'microsoft.consumption');
  if (!principal.canReadCosts) {
    const action = isBudget ? 'Microsoft.Consumption/budgets/read' : 'Microsoft.CostManagement/query/read';
    sendArmError(
      context,
      403,
      'AuthorizationFailed',
      `The client '${principal.objectId}' with object id '${principal.objectId}' does not have authorization to perform action '${action}' over scope '${scope.path}' or the scope is invalid. If access was recently granted, please refresh your credentials.`,
    );
    return false;
  }
  if (scope.resourceGroupName !== undefined) {
    if (!services.fleet.findResourceGroup(scope.subscriptionId, scope.resourceGroupName)) {
      sendArmError(
        context,
        404,
        'ResourceGroupNotFound',
        `Resource group '${scope.resourceGroupName}' could not be found.`,
      );
      return false;
    }
  }
  return true;
}

function admitQuery(services: EmulatorServices, context: RequestContext, scope: CostScope): boolean {
  const decision = services.throttle.takeCostQuery(scope.path);
  context.extraHeaders['x-ms-ratelimit-microsoft.costmanagement-qpu-remaining'] =
    `QueryResource=${decision.remaining}`;
  if (decision.isAllowed) return true;
  services.stats.throttled += 1;
  const seconds = String(decision.retryAfterSeconds);
  sendArmError(context, 429, '429', 'Too many requests. Please retry.', {
    'retry-after': seconds,
    'x-ms-ratelimit-microsoft.costmanagement-qpu-retry-after': seconds,
    'x-ms-ratelimit-microsoft.costmanagement-entity-retry-after': seconds,
    'x-ms-ratelimit-microsoft.costmanagement-tenant-retry-after': seconds,
  });
  return false;
}

function readSkip(context: RequestContext): number | undefined {
  const token = readQuery(context, '$skiptoken');
  if (token === undefined) return 0;
  const skip = Number(Buffer.from(token, 'base64url').toString('utf8'));
  return Number.isInteger(skip) && skip >= 0 ? skip : undefined;
}

/** Cost Management's query and the Consumption budgets, on a router of their own. */
export function registerCostRoutes(router: Router, services: EmulatorServices, ledger: CostLedger): void {
  const results = new Map<string, QueryResult>();

  const answerQuery = (context: RequestContext, scope: CostScope) => {
    const skip = readSkip(context);
    if (skip === undefined) return sendArmError(context, 400, 'BadRequest', 'The $skiptoken is not valid.');
    let body: unknown;
    try {
      body = context.rawBody ? JSON.parse(context.rawBody) : undefined;
    } catch {
      return sendArmError(
        context,
        400,
        'BadRequest',
        'Invalid query definition: the request body is not JSON.',
      );
    }
    if (!admitQuery(services, context, scope)) return;
    const now = services.settings.readNow();
    let result: QueryResult;
    try {
      const query = parseQueryDefinition(body, now, ledger.firstDay);
      // Pages of one query read one computation while the data stands still (same refresh).
      const key = createHash('sha256')
        .update(
          `${scope.path.toLowerCase()}|${ledger.readHorizon().refreshIndex}|${now.toISOString().slice(0, 10)}|${context.rawBody}`,
        )
        .digest('hex');
      const cached = results.get(key);
      result =
        cached ?? runQuery(ledger, ledger.listItems(scope.subscriptionId, scope.resourceGroupName), query);
      if (!cached && result.rows.length > costQueryPageSize) {
        if (results.size >= cachedResults) results.delete(results.keys().next().value ?? '');
        results.set(key, result);
      }
    } catch (error) {
      if (!(error instanceof QueryDefinitionError)) throw error;
      return sendArmError(context, 400, 'BadRequest', error.message);
    }
    const rows = result.rows.slice(skip, skip + costQueryPageSize);
    const hasMore = skip + costQueryPageSize < result.rows.length;
    const apiVersion = readQuery(context, 'api-version') ?? '2023-11-01';
    const nextToken = Buffer.from(String(skip + costQueryPageSize)).toString('base64url');
    const name = deriveGuid(services.fleet.seed, `cost-query:${context.requestId}`);
    sendJson(context, 200, {
      id: `${scope.path}/providers/Microsoft.CostManagement/query/${name}`,
      name,
      type: 'Microsoft.CostManagement/query',
      location: null,
      sku: null,
      eTag: null,
      properties: {
        nextLink: hasMore
          ? `${context.origin}${scope.path}/providers/Microsoft.CostManagement/query?api-version=${encodeURIComponent(apiVersion)}&$skiptoken=${nextToken}`
          : null,
        columns: result.columns,
        rows,
      },
    });
  };

  const answerBudgets = (context: RequestContext, scope: CostScope, budgetName?: string) => {
    const budgets = scope.resourceGroupName === undefined ? describeBudgets(services, ledger, scope) : [];
    if (budgetName === undefined) return sendJson(context, 200, { value: budgets });
    const budget = budgets.find((candidate) => candidate.name.toLowerCase() === budgetName.toLowerCase());
    if (!budget) {
      return sendArmError(
        context,
        404,
        'NotFound',
        `The budget '${budgetName}' was not found at '${scope.path}'.`,
      );
    }
    sendJson(context, 200, budget);
  };

  const scopeOf = (subscriptionId: string, resourceGroupName?: string): CostScope => ({
    subscriptionId,
    resourceGroupName,
    path:
      resourceGroupName === undefined
        ? `/subscriptions/${subscriptionId}`
        : `/subscriptions/${subscriptionId}/resourceGroups/${resourceGroupName}`,
  });
  for (const prefix of [
    '/subscriptions/{subscriptionId}',
    '/subscriptions/{subscriptionId}/resourceGroups/{group}',
  ]) {
    router.add('POST', `${prefix}/providers/Microsoft.CostManagement/query`, (context, parameters) =>
      answerQuery(context, scopeOf(parameters.subscriptionId ?? '', parameters.group)),
    );
    router.add('GET', `${prefix}/providers/Microsoft.Consumption/budgets`, (context, parameters) =>
      answerBudgets(context, scopeOf(parameters.subscriptionId ?? '', parameters.group)),
    );
    router.add(
      'GET',
      `${prefix}/providers/Microsoft.Consumption/budgets/{budgetName}`,
      (context, parameters) =>
        answerBudgets(
          context,
          scopeOf(parameters.subscriptionId ?? '', parameters.group),
          parameters.budgetName,
        ),
    );
  }
}

interface Budget {
  readonly id: string;
  readonly name: string;
  readonly type: 'Microsoft.Consumption/budgets';
  readonly eTag: string;
  readonly properties: Record<string, unknown>;
}

function sumCost(
  ledger: CostLedger,
  scope: CostScope,
  fromDay: number,
  toDay: number,
  meterCategory?: string,
): number {
  const result = runQuery(ledger, ledger.listItems(scope.subscriptionId), {
    costType: 'ActualCost',
    fromDay: Math.max(fromDay, ledger.firstDay),
    toDay,
    granularity: 'None',
    aggregations: [{ column: 'Cost', isQuantity: false }],
    groupings: [],
    matches: (item) => meterCategory === undefined || item.meterCategory === meterCategory,
  });
  return Number(result.rows[0]?.[0] ?? 0);
}

function formatDate(day: number): string {
  return `${new Date(day * dayMs).toISOString().slice(0, 10)}T00:00:00Z`;
}

// Two read-only budgets per subscription: the whole subscription monthly, and its virtual machines
// quarterly, their amounts set about 10% over what the subscription spent last month.
function describeBudgets(services: EmulatorServices, ledger: CostLedger, scope: CostScope): Budget[] {
  const subscription = services.fleet.findSubscription(scope.subscriptionId);
  if (!subscription) return [];
  const now = services.settings.readNow();
  const today = Math.floor(now.getTime() / dayMs);
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth();
  const monthStart = Date.UTC(year, month, 1) / dayMs;
  const lastMonthStart = Date.UTC(year, month - 1, 1) / dayMs;
  const quarterStart = Date.UTC(year, month - (month % 3), 1) / dayMs;
  const lastMonthCost = sumCost(ledger, scope, lastMonthStart, monthStart - 1);
  const lastMonthCompute = sumCost(ledger, scope, lastMonthStart, monthStart - 1, 'Virtual Machines');
  const roundUp = (amount: number) => Math.max(1000, Math.ceil((amount * 1.1) / 1000) * 1000);
  const label = subscription.displayName.toLowerCase().replace(/\s+/g, '-');
  const contact = `finops@${services.fleet.tenants.find((tenant) => tenant.tenantId === subscription.tenantId)?.defaultDomain ?? 'example.com'}`;
  const describe = (
    name: string,
    timeGrain: 'Monthly' | 'Quarterly',
    amount: number,
    currentSpend: number,
    filter: Record<string, unknown>,
  ): Budget => ({
    id: `${scope.path}/providers/Microsoft.Consumption/budgets/${name}`,
    name,
    type: 'Microsoft.Consumption/budgets',
    eTag: `"${deriveGuid(services.fleet.seed, `budget-etag:${scope.path}:${name}`).slice(0, 15)}"`,
    properties: {
      category: 'Cost',
      amount,
      timeGrain,
      timePeriod: {
        startDate: formatDate(Date.UTC(year - 1, 0, 1) / dayMs),
        endDate: formatDate(Date.UTC(year + 2, 11, 31) / dayMs),
      },
      filter,
      currentSpend: { amount: currentSpend, unit: 'USD' },
      notifications: {
        Actual_GreaterThan_80_Percent: {
          enabled: true,
          operator: 'GreaterThan',
          threshold: 80,
          contactEmails: [contact],
          contactRoles: ['Owner'],
          contactGroups: [],
          thresholdType: 'Actual',
          locale: 'en-us',
        },
        Forecasted_GreaterThan_100_Percent: {
          enabled: true,
          operator: 'GreaterThan',
          threshold: 100,
          contactEmails: [contact],
          contactRoles: [],
          contactGroups: [],
          thresholdType: 'Forecasted',
          locale: 'en-us',
        },
      },
    },
  });
  return [
    describe(
      `${label}-monthly`,
      'Monthly',
      roundUp(lastMonthCost),
      sumCost(ledger, scope, monthStart, today),
      {},
    ),
    describe(
      `${label}-compute-quarterly`,
      'Quarterly',
      roundUp(lastMonthCompute * 3),
      sumCost(ledger, scope, quarterStart, today, 'Virtual Machines'),
      { dimensions: { name: 'MeterCategory', operator: 'In', values: ['Virtual Machines'] } },
    ),
  ];
}
