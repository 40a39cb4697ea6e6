// Budgets over the bill read from the emulator's Cost Management, on a movable clock: the calls
// (create, list, edit, delete, every refusal with nothing saved, another team's 404), a threshold
// crossing as the next day's bill arrives (one mail per recipient, caught by a real SMTP server, and
// one alert and Recent Activity entry however often it is evaluated), an edit re-arming it, mail
// preferences, and Azure's own budgets listed read-only.
import type { Alert, AlertListResponse } from '@cloudtrim/contracts/alerts';
import type { Budget, BudgetListResponse, BudgetRequest } from '@cloudtrim/contracts/budgets';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AzureEmulator } from '@cloudtrim/azure-emulator/emulator';
import { createAzureEnvironment, createTenantRequest, startTestEmulator } from '../../../test/azure-emulator';
import {
  bearer,
  createTestContext,
  createUser,
  logIn,
  type TestContext,
  type TestUser,
} from '../../../test/helper';
import { Mailbox, waitForMailJobs } from '../../../test/mailbox';
import { activityLogs, alerts, budgets } from '../../db/schema';
import { createCostSyncJob } from '../../jobs/cost-sync.job';
import { createJobDefinitions } from '../../jobs/definitions';
import { JobQueue } from '../../queue/queue';
import { createSendEmailJob } from '../../jobs/send-email.job';
import { dayMs } from '../../lib/time';

let clockMs = Date.UTC(2026, 10, 10, 10, 0);
const readClock = () => new Date(clockMs);

let emulator: AzureEmulator;
let mailbox: Mailbox;
let context: TestContext;
let mailWorker: JobQueue;
let owner: TestUser;
let member: TestUser;
let quietMember: TestUser;
let token: string;
let tenantId: string;
let subscriptionIds: string[];

const quiet = { info: () => {}, warn: () => {}, error: () => {} };

async function call(
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  body?: unknown,
  authorization = token,
) {
  return context.app.inject({
    method,
    url,
    headers: { ...bearer(authorization), 'content-type': 'application/json' },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });
}

async function listBudgets(authorization = token): Promise<BudgetListResponse> {
  const response = await call('GET', '/api/v1/budget', undefined, authorization);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<BudgetListResponse>();
}

async function createBudget(request: BudgetRequest): Promise<Budget> {
  const response = await call('POST', '/api/v1/budget', request);
  expect(response.statusCode, response.body).toBe(201);
  return response.json<Budget>();
}

async function countRows(): Promise<{ budgets: number; alerts: number }> {
  const db = context.container.database.db;
  const [budgetCount] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(budgets)
    .where(eq(budgets.teamId, owner.teamId));
  const [alertCount] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(alerts)
    .where(eq(alerts.teamId, owner.teamId));
  return { budgets: budgetCount!.count, alerts: alertCount!.count };
}

async function listBudgetAlerts(budgetName: string): Promise<Alert[]> {
  const response = await call('GET', '/api/v1/alert');
  expect(response.statusCode, response.body).toBe(200);
  return response.json<AlertListResponse>().Alerts.filter((alert) => alert.Title.includes(`"${budgetName}"`));
}

// The budget mails a member received (the same ingestion may also alert cost anomalies).
function readBudgetMails(user: TestUser) {
  return mailbox.mailsTo(user.email).filter((mail) => mail.subject.startsWith('Budget alert:'));
}

const baseRequest: BudgetRequest = {
  Name: 'Whole team',
  Scope: {},
  Amount: 1_000_000,
  Period: 'monthly',
  StartDate: '2026-01-01',
  CostType: 'actual',
  Thresholds: [],
};

beforeAll(async () => {
  mailbox = await Mailbox.start();
  emulator = await startTestEmulator({
    fleetSize: 24,
    now: readClock,
    throttleLimits: { costQueryCapacity: 10_000, costQueryRefillPerMinute: 10_000 },
  });
  context = await createTestContext({
    now: readClock,
    environment: {
      ...createAzureEnvironment(emulator),
      SMTP_URL: mailbox.url,
      MAIL_RETRY_DELAY_SECONDS: '1',
    },
  });
  // The app's queue sends; a queue of its own delivers mail only (no inventory or metrics work).
  await context.container.queue.start(createJobDefinitions(context.container));
  mailWorker = new JobQueue(context.databaseUrl, quiet);
  await mailWorker.start([createSendEmailJob(context.container)]);
  await mailWorker.work();

  owner = await createUser(context, { firstName: 'Olga' });
  member = await createUser(context, { teamId: owner.teamId, firstName: 'Mia' });
  quietMember = await createUser(context, { teamId: owner.teamId, firstName: 'Quinn' });
  token = await logIn(context, owner);
  const request = createTenantRequest(emulator, 0, 0);
  await context.container.tenants.addTenant(owner.teamId, request);
  tenantId = (await context.container.tenants.listTenants(owner.teamId)).find(
    (tenant) => tenant.TenantId === request.TenantId,
  )!.Id;
  subscriptionIds = emulator.tenants[0]!.subscriptions.map((item) => item.subscriptionId.toLowerCase());
  await context.container.inventory.syncTenant(tenantId);
  await context.container.costs.syncTenant(tenantId, { signal: AbortSignal.timeout(120_000) });
}, 240_000);

afterAll(async () => {
  await mailWorker?.stop();
  await context?.close();
  await emulator?.stop();
  await mailbox?.close();
});

describe('the budget calls', () => {
  it('create, list, edit and delete a budget with its period, spend, forecast and burn-down', async () => {
    const created = await createBudget({
      ...baseRequest,
      Thresholds: [{ Percent: 80, Basis: 'actual', Recipients: { AllTeam: true, Emails: [] } }],
    });
    expect(created).toMatchObject({
      Name: 'Whole team',
      Amount: 1_000_000,
      Period: 'monthly',
      PeriodStart: '2026-11-01',
      PeriodEnd: '2026-11-30',
      Currency: 'USD',
      Crossed: [],
    });
    // One rule for "spent so far" (Azure's budgets include the latest data): the month's bill up to
    // and with today's cost so far, to the cent what GET /api/v1/cost and the month-to-date card say.
    const bill = (await call('GET', '/api/v1/cost?from=2026-11-01&to=2026-11-10&granularity=none')).json<{
      Total: number;
    }>().Total;
    expect(created.Spent).toBe(bill);
    const summary = (await call('GET', '/api/v1/cost/summary')).json<{ MonthToDate: number }>();
    expect(summary.MonthToDate).toBe(created.Spent);
    expect((await listBudgets()).Budgets[0]!.Spent).toBe(bill);
    expect(created.Forecast).toBeGreaterThan(created.Spent);
    expect(created.ForecastLow).toBeLessThanOrEqual(created.Forecast);
    expect(created.ForecastHigh).toBeGreaterThanOrEqual(created.Forecast);
    // The burn-down: cumulative actual until the 9th, forecast from there to the 30th, meeting; today
    // carries its cost so far as actual (the Spent) beside its forecast.
    expect(created.Days).toHaveLength(30);
    expect(created.Days[8]).toMatchObject({ Date: '2026-11-09' });
    expect(created.Days[8]!.Forecast).toBe(created.Days[8]!.Actual);
    expect(created.Days[9]).toMatchObject({ Date: '2026-11-10', Actual: created.Spent });
    expect(created.Days[9]!.Forecast).toBeGreaterThanOrEqual(created.Spent);
    expect(created.Days[10]!.Actual).toBeNull();
    expect(created.Days.at(-1)!.Forecast).toBeCloseTo(created.Forecast, 1);

    const listed = await listBudgets();
    expect(listed.Budgets.map((budget) => budget.Id)).toEqual([created.Id]);

    const quarterly = await call('PUT', `/api/v1/budget/${created.Id}`, {
      ...baseRequest,
      Name: 'Production, quarterly',
      Scope: { TenantId: tenantId, SubscriptionId: subscriptionIds[0] },
      Period: 'quarterly',
      StartDate: '2026-02-01',
      CostType: 'amortized',
    });
    expect(quarterly.statusCode, quarterly.body).toBe(200);
    expect(quarterly.json<Budget>()).toMatchObject({
      Id: created.Id,
      Name: 'Production, quarterly',
      Scope: { TenantId: tenantId, SubscriptionId: subscriptionIds[0] },
      PeriodStart: '2026-11-01',
      PeriodEnd: '2027-01-31',
      CostType: 'amortized',
    });
    expect(quarterly.json<Budget>().Spent).toBeGreaterThan(0);

    // A resource group of the subscription, as the bill names it: its share of the month.
    const machine = emulator.fleet.virtualMachines.find((candidate) =>
      candidate.id.toLowerCase().startsWith(`/subscriptions/${subscriptionIds[0]}/`),
    )!;
    const group = /\/resourceGroups\/([^/]+)/i.exec(machine.id)![1]!;
    const byGroup = await call('PUT', `/api/v1/budget/${created.Id}`, {
      ...baseRequest,
      Scope: { SubscriptionId: subscriptionIds[0], ResourceGroup: group },
    });
    expect(byGroup.statusCode, byGroup.body).toBe(200);
    expect(byGroup.json<Budget>().Spent).toBeGreaterThan(0);
    expect(byGroup.json<Budget>().Spent).toBeLessThan(created.Spent);

    const yearly = await call('PUT', `/api/v1/budget/${created.Id}`, { ...baseRequest, Period: 'yearly' });
    expect(yearly.json<Budget>()).toMatchObject({ PeriodStart: '2026-01-01', PeriodEnd: '2026-12-31' });
    // The year's months before the days kept by day count from the monthly bill.
    const yearBill = (await call('GET', '/api/v1/cost?from=2026-01-01&to=2026-11-10&granularity=none')).json<{
      Total: number;
    }>().Total;
    expect(yearly.json<Budget>().Spent).toBeGreaterThan(created.Spent * 5);
    expect(yearly.json<Budget>().Spent).toBeLessThanOrEqual(yearBill + 1);
    expect(yearly.json<Budget>().Days).toHaveLength(365);

    const deleted = await call('DELETE', `/api/v1/budget/${created.Id}`);
    expect(deleted.statusCode).toBe(204);
    expect((await listBudgets()).Budgets).toEqual([]);
  });

  it('refuses bad input with 400 naming the field, and saves nothing', async () => {
    const existing = await createBudget({ ...baseRequest, Name: 'Kept as it was' });
    const before = await countRows();
    const threshold = { Percent: 50, Basis: 'actual', Recipients: { AllTeam: true, Emails: [] } } as const;
    const cases: [string, unknown][] = [
      ['Amount', { ...baseRequest, Amount: 0 }],
      ['Amount', { ...baseRequest, Amount: -5 }],
      ['Name', { ...baseRequest, Name: '' }],
      ['Period', { ...baseRequest, Period: 'weekly' }],
      ['StartDate', { ...baseRequest, StartDate: '2026-11-15' }],
      ['Thresholds.0.Percent', { ...baseRequest, Thresholds: [{ ...threshold, Percent: 0 }] }],
      ['Thresholds.0.Percent', { ...baseRequest, Thresholds: [{ ...threshold, Percent: 1001 }] }],
      [
        'Thresholds',
        {
          ...baseRequest,
          Thresholds: [10, 20, 30, 40, 50, 60].map((Percent) => ({ ...threshold, Percent })),
        },
      ],
      [
        'Thresholds.0.Recipients.Emails',
        {
          ...baseRequest,
          Thresholds: [{ ...threshold, Recipients: { AllTeam: false, Emails: ['stranger@example.com'] } }],
        },
      ],
      [
        'Scope.SubscriptionId',
        { ...baseRequest, Scope: { SubscriptionId: '11111111-2222-3333-4444-555555555555' } },
      ],
      [
        'Scope.ResourceGroup',
        { ...baseRequest, Scope: { TenantId: tenantId, ResourceGroup: 'no-such-group' } },
      ],
      ['Scope.Tag', { ...baseRequest, Scope: { Tag: 'no-equals-sign' } }],
    ];
    for (const [field, body] of cases) {
      for (const [method, url] of [
        ['POST', '/api/v1/budget'],
        ['PUT', `/api/v1/budget/${existing.Id}`],
      ] as const) {
        const response = await call(method, url, body);
        expect(response.statusCode, `${method} ${field}: ${response.body}`).toBe(400);
        expect(response.json<{ field?: string }>().field, `${method} ${field}`).toBe(field);
      }
    }
    expect(await countRows()).toEqual(before);
    expect((await listBudgets()).Budgets.find((budget) => budget.Id === existing.Id)).toMatchObject({
      Name: 'Kept as it was',
      Amount: baseRequest.Amount,
    });
    expect((await call('DELETE', `/api/v1/budget/${existing.Id}`)).statusCode).toBe(204);
  });

  it('answers 404 for another team’s budget, tenant or alert, and lists none of them', async () => {
    const budget = await createBudget({ ...baseRequest, Name: 'Not yours' });
    const stranger = await createUser(context);
    const strangerToken = await logIn(context, stranger);
    expect((await call('PUT', `/api/v1/budget/${budget.Id}`, baseRequest, strangerToken)).statusCode).toBe(
      404,
    );
    expect((await call('DELETE', `/api/v1/budget/${budget.Id}`, undefined, strangerToken)).statusCode).toBe(
      404,
    );
    const scoped = await call(
      'POST',
      '/api/v1/budget',
      { ...baseRequest, Scope: { TenantId: tenantId } },
      strangerToken,
    );
    expect(scoped.statusCode).toBe(404);
    expect((await listBudgets(strangerToken)).Budgets).toEqual([]);
    expect((await call('GET', '/api/v1/budget')).json<BudgetListResponse>().Budgets).toHaveLength(1);
    const [alert] = await context.container.database.db
      .insert(alerts)
      .values({
        teamId: owner.teamId,
        kind: 'budget',
        dedupeKey: 'not-yours',
        title: 'Not yours',
        scope: 'All of the team’s costs',
        day: '2026-11-10',
        amount: 1,
        currency: 'USD',
      })
      .returning({ id: alerts.id });
    const acknowledged = await call(
      'POST',
      `/api/v1/alert/${alert!.id}/acknowledge`,
      undefined,
      strangerToken,
    );
    expect(acknowledged.statusCode).toBe(404);
    expect((await call('GET', '/api/v1/alert', undefined, strangerToken)).json<AlertListResponse>()).toEqual({
      Alerts: [],
      Total: 0,
      Unacknowledged: 0,
    });
    await context.container.database.db.delete(alerts).where(eq(alerts.id, alert!.id));
    expect((await call('DELETE', `/api/v1/budget/${budget.Id}`)).statusCode).toBe(204);
  });

  it('lists Azure’s own budgets read-only, and none of a tenant whose principal may not read them', async () => {
    const listed = await listBudgets();
    // The emulator defines two per subscription: the subscription monthly, its VMs quarterly.
    expect(listed.AzureBudgets).toHaveLength(subscriptionIds.length * 2);
    for (const subscriptionId of subscriptionIds) {
      const ofSubscription = listed.AzureBudgets.filter((budget) => budget.SubscriptionId === subscriptionId);
      expect(ofSubscription.map((budget) => budget.TimeGrain).sort()).toEqual(['Monthly', 'Quarterly']);
      for (const budget of ofSubscription) {
        expect(budget).toMatchObject({ TenantId: tenantId, Currency: 'USD', StartDate: '2025-01-01' });
        expect(budget.Amount).toBeGreaterThanOrEqual(1000);
        expect(budget.CurrentSpend).toBeGreaterThan(0);
      }
    }

    const other = await createUser(context);
    await context.container.tenants.addTenant(other.teamId, createTenantRequest(emulator, 0, 2));
    expect((await listBudgets(await logIn(context, other))).AzureBudgets).toEqual([]);
  });
});

describe('a threshold crossing', () => {
  it('mails each recipient once as the next day’s bill crosses it, raises one alert, and an edit re-arms it', async () => {
    const preferences = await call(
      'PUT',
      '/api/v1/alert/preferences',
      { BudgetMails: false, AnomalyMails: true },
      await logIn(context, quietMember),
    );
    expect(preferences.json()).toEqual({ BudgetMails: false, AnomalyMails: true });

    const probe = await createBudget({ ...baseRequest, Name: 'Probe' });
    await call('DELETE', `/api/v1/budget/${probe.Id}`);
    const spent = probe.Spent;
    const dailyAverage = spent / 9;
    // Not crossed on the 10th: half a day's cost above what the month has cost so far.
    const amount = Math.round((spent + dailyAverage / 2) * 100) / 100;
    const request: BudgetRequest = {
      ...baseRequest,
      Name: 'Month',
      Amount: amount,
      Thresholds: [
        { Percent: 100, Basis: 'actual', Recipients: { AllTeam: true, Emails: [] } },
        { Percent: 90, Basis: 'actual', Recipients: { AllTeam: false, Emails: [member.email] } },
        { Percent: 500, Basis: 'forecasted', Recipients: { AllTeam: true, Emails: [] } },
      ],
    };
    const budget = await createBudget(request);
    // 90% is crossed at once (the month so far is over it), for its one recipient.
    expect(budget.Crossed.map((crossing) => `${crossing.Percent}:${crossing.Basis}`)).toEqual(['90:actual']);
    expect((await mailbox.nextMailTo(member.email)).subject).toBe(
      `Budget alert: Budget "Month" has reached 90% of ${amount.toLocaleString('en-US', { minimumFractionDigits: 2 })} USD`,
    );

    // The next day: the cost-sync job reads the 10th's cost and evaluates the budget after it.
    clockMs += dayMs;
    token = await logIn(context, owner);
    await createCostSyncJob(context.container).handle({ tenantId });
    expect((await listBudgets()).Budgets[0]!.Crossed).toHaveLength(2);
    // Evaluated again (the next ingestion, another worker): nothing more.
    expect(await context.container.budgets.evaluateTenant(tenantId)).toBe(0);

    await waitForMailJobs(context);
    for (const user of [owner, member]) {
      const mail = readBudgetMails(user).find((candidate) => candidate.subject.includes('has reached 100%'))!;
      expect(mail.subject).toContain('Budget "Month" has reached 100%');
      expect(mail.text).toContain('All of the team’s costs');
      expect(mail.link).toBe('http://cloudtrim.test/analysis');
    }
    await waitForMailJobs(context);
    expect(readBudgetMails(owner)).toHaveLength(1);
    expect(readBudgetMails(member)).toHaveLength(2);
    expect(readBudgetMails(quietMember)).toHaveLength(0);

    const raised = await listBudgetAlerts('Month');
    expect(raised.map((alert) => alert.Title)).toEqual([
      expect.stringContaining('has reached 100%'),
      expect.stringContaining('has reached 90%'),
    ]);
    expect(raised[0]).toMatchObject({
      Kind: 'budget',
      Date: '2026-11-11',
      Currency: 'USD',
      AcknowledgedAt: null,
    });
    expect(raised[0]!.Amount).toBeGreaterThanOrEqual(amount);
    expect(raised[0]!.Expected).toBeCloseTo(amount, 2);
    const activity = await context.container.database.db
      .select({ logText: activityLogs.logText })
      .from(activityLogs)
      .where(eq(activityLogs.teamId, owner.teamId));
    expect(activity.filter((entry) => entry.logText.includes('Budget "Month"'))).toHaveLength(2);

    // Acknowledged, twice: the first time stands.
    const first = await call('POST', `/api/v1/alert/${raised[0]!.Id}/acknowledge`);
    expect(first.statusCode).toBe(200);
    const again = await call('POST', `/api/v1/alert/${raised[0]!.Id}/acknowledge`);
    expect(again.json<Alert>().AcknowledgedAt).toBe(first.json<Alert>().AcknowledgedAt);
    expect((await call('GET', '/api/v1/alert')).json<AlertListResponse>().Unacknowledged).toBe(
      (await call('GET', '/api/v1/alert')).json<AlertListResponse>().Total - 1,
    );

    // Raised well above: both thresholds are armed again; back down, both cross again.
    const raisedAmount = await call('PUT', `/api/v1/budget/${budget.Id}`, {
      ...request,
      Amount: amount * 10,
    });
    expect(raisedAmount.json<Budget>().Crossed).toEqual([]);
    const lowered = await call('PUT', `/api/v1/budget/${budget.Id}`, request);
    expect(
      lowered
        .json<Budget>()
        .Crossed.map((crossing) => crossing.Percent)
        .sort((left, right) => left - right),
    ).toEqual([90, 100]);
    await waitForMailJobs(context);
    expect(readBudgetMails(owner)).toHaveLength(2);
    expect(readBudgetMails(member)).toHaveLength(4);
    expect(readBudgetMails(quietMember)).toHaveLength(0);
    expect(await listBudgetAlerts('Month')).toHaveLength(4);
  }, 120_000);
});
