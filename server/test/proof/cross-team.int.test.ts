// Every object one team owns (tenant, resource, metric, recommendation, scheduled change, logs,
// member, budget, alert, the bill of a tenant or resource, pipeline, pipeline run, approval), with
// every verb the API offers on it, asked for by a signed-in member of another team: 404 every time,
// and the owner's data unchanged. Each call is first made by the owner, so a 404 means "not yours",
// never "not there". Another team's pipelines and approvals stay out of the stranger's lists, and its
// tenant out of the stranger's pipeline scopes.
import type {
  ApprovalListResponse,
  Pipeline,
  PipelineListResponse,
  PipelinePreviewResponse,
  PipelineRunDetail,
} from '@cloudtrim/contracts/pipelines';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectTenant, createCloudTestContext, type CloudTestContext } from '../azure-emulator';
import { bearer, createUser, logIn, type TestUser } from '../helper';

interface Call {
  name: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  payload?: unknown;
  // The owner's own call changes things (a delete): skip the owner's positive control for it.
  isDestructive?: boolean;
  // What the owner's own call answers when not 2xx: deciding their own proposal is 403, not 404.
  ownerStatus?: number;
}

let context: CloudTestContext;
let owner: TestUser;
let ownerToken: string;
let strangerToken: string;
let tenantId: string;
let pipelineId: string;
let calls: Call[];

// A yearly cron: the pipeline runs only when asked.
const pipelineRequest = (scopeTenantId: string) => ({
  name: 'Stop the fleet',
  scope: { tenantIds: [scopeTenantId] },
  action: { type: 'stop' },
  schedule: { cron: '0 0 1 1 *', timeZone: 'UTC' },
  gates: { dryRun: false, approval: 'always', graceMinutes: 0 },
});

beforeAll(async () => {
  context = await createCloudTestContext({ emulator: { fleetSize: 6 } });
  owner = await createUser(context);
  ownerToken = await logIn(context, owner);
  const stranger = await createUser(context);
  strangerToken = await logIn(context, stranger);
  tenantId = await connectTenant(context, owner.teamId, 0, 0);
  await context.container.inventory.syncTenant(tenantId);
  // The stranger's team has an estate of its own, so "empty" is never the reason for a 404.
  await context.container.inventory.syncTenant(await connectTenant(context, stranger.teamId, 1, 0));
  const { pool } = context.container.database;
  const vm = (
    await pool.query<{ id: string; arm_id: string; sku: string }>(
      `select r.id, r.arm_id, r.sku from resource r join tenant t on t.id = r.tenant_id
        where t.team_id = $1 and r.type = 'Microsoft.Compute/virtualMachines' order by r.arm_id limit 1`,
      [owner.teamId],
    )
  ).rows[0]!;
  const metric = await pool.query<{ id: string }>('select id from metric where resource_id = $1 limit 1', [
    vm.id,
  ]);
  const recommendation = await pool.query<{ id: string }>(
    `insert into recommendation (team_id, tenant_id, resource_id, kind, prediction_method, current_size,
       target_size, recommendation, memo, annual_cost_savings, confidence, evidence, status)
     select t.team_id, r.tenant_id, r.id, 'resize', 'cloudtrim-forecast', $2, 'Standard_D2s_v5',
       'Resize it to Standard_D2s_v5.', 'Seen: little.', 100, 0.9, '[]'::jsonb, 'open'
       from resource r join tenant t on t.id = r.tenant_id where r.id = $1
     returning id`,
    [vm.id, vm.sku],
  );
  const recommendationId = recommendation.rows[0]!.id;
  const budgetRequest = {
    Name: 'Production',
    Scope: { TenantId: tenantId },
    Amount: 1000,
    Period: 'monthly',
    StartDate: '2026-01-01',
    CostType: 'actual',
    Thresholds: [{ Percent: 80, Basis: 'actual', Recipients: { AllTeam: true, Emails: [] } }],
  };
  const budget = await context.container.budgets.createBudget(owner.teamId, budgetRequest);
  await context.container.alerts.raise({
    teamId: owner.teamId,
    kind: 'anomaly',
    key: 'anomaly:cross-team',
    title: 'Cost anomaly',
    scope: 'Subscription Production',
    filter: { TenantId: tenantId },
    day: '2026-11-20',
    amount: 120,
    expected: 80,
    currency: 'USD',
    drivers: [],
    mailKind: 'anomaly',
  });
  const alert = await pool.query<{ id: string }>(
    "select id from alert where team_id = $1 and kind = 'anomaly'",
    [owner.teamId],
  );
  // A pipeline whose real run waits for a colleague's approval: a pipeline, a run, an approval.
  const created = await send(ownerToken, {
    name: 'create pipeline',
    method: 'POST',
    url: '/api/v1/pipeline',
    payload: pipelineRequest(tenantId),
  });
  pipelineId = created.json<Pipeline>().id;
  const run = await send(ownerToken, {
    name: 'run pipeline',
    method: 'POST',
    url: `/api/v1/pipeline/${pipelineId}/run`,
    payload: { dryRun: false },
  });
  const runId = run.json<PipelineRunDetail>().id;
  const approval = await pool.query<{ id: string }>(
    "select id from pipeline_approval where run_id = $1 and state = 'waiting'",
    [runId],
  );
  expect(approval.rows).toHaveLength(1);
  const approvalId = approval.rows[0]!.id;
  const days = 'from=2026-10-01&to=2026-10-31';
  const resourcePath = vm.arm_id.replace(/^\//, '');
  const query = (name: string, value: string) => `${name}=${encodeURIComponent(value)}`;
  calls = [
    { name: 'delete tenant', method: 'DELETE', url: `/api/v1/tenant/${tenantId}`, isDestructive: true },
    {
      name: 'save resource',
      method: 'POST',
      url: '/api/v1/resource',
      payload: [{ ResourceId: vm.arm_id, Automated: 0, ActiveHoursStart: 0, ActiveHoursEnd: 0 }],
    },
    {
      name: 'resource automation',
      method: 'PUT',
      url: `/api/v1/resource/${resourcePath}?automated=0&maintenanceWindow=3`,
    },
    {
      name: 'metrics of resource',
      method: 'GET',
      url: `/api/v1/metric?${query('azureResource', vm.arm_id)}`,
    },
    ...(metric.rows[0]
      ? [
          {
            name: 'metric data',
            method: 'GET' as const,
            url: `/api/v1/metricdata?${query('metricId', metric.rows[0].id)}`,
          },
        ]
      : []),
    { name: 'activity of resource', method: 'GET', url: `/api/v1/log?${query('resourceId', vm.arm_id)}` },
    {
      name: 'activity page of resource',
      method: 'GET',
      url: `/api/v1/log/0?${query('resourceId', vm.arm_id)}`,
    },
    {
      name: 'recommendations of resource',
      method: 'GET',
      url: `/api/v1/log/recommendation?${query('resourceId', vm.arm_id)}`,
    },
    { name: 'evidence', method: 'GET', url: `/api/v1/log/recommendation/evidence?id=${recommendationId}` },
    {
      name: 'apply at window',
      method: 'GET',
      url: `/api/v1/log/recommendation/apply/maintenancewindow?id=${recommendationId}`,
    },
    {
      name: 'schedule of resource',
      method: 'GET',
      url: `/api/v1/resource/schedule?${query('resourceId', vm.arm_id)}`,
    },
    {
      name: 'automation log of resource',
      method: 'GET',
      url: `/api/v1/log/automation?${query('resourceId', vm.arm_id)}`,
    },
    { name: 'budget on tenant', method: 'POST', url: '/api/v1/budget', payload: budgetRequest },
    { name: 'edit budget', method: 'PUT', url: `/api/v1/budget/${budget.Id}`, payload: budgetRequest },
    { name: 'delete budget', method: 'DELETE', url: `/api/v1/budget/${budget.Id}`, isDestructive: true },
    { name: 'acknowledge alert', method: 'POST', url: `/api/v1/alert/${alert.rows[0]!.id}/acknowledge` },
    {
      name: 'pipeline on tenant',
      method: 'POST',
      url: '/api/v1/pipeline',
      payload: pipelineRequest(tenantId),
    },
    { name: 'pipeline', method: 'GET', url: `/api/v1/pipeline/${pipelineId}` },
    {
      name: 'edit pipeline',
      method: 'PUT',
      url: `/api/v1/pipeline/${pipelineId}`,
      payload: pipelineRequest(tenantId),
    },
    { name: 'pause pipeline', method: 'POST', url: `/api/v1/pipeline/${pipelineId}/pause` },
    { name: 'resume pipeline', method: 'POST', url: `/api/v1/pipeline/${pipelineId}/resume` },
    {
      name: 'dry run pipeline',
      method: 'POST',
      url: `/api/v1/pipeline/${pipelineId}/run`,
      payload: { dryRun: true },
    },
    {
      name: 'real run pipeline',
      method: 'POST',
      url: `/api/v1/pipeline/${pipelineId}/run`,
      payload: { dryRun: false },
      isDestructive: true,
    },
    { name: 'runs of pipeline', method: 'GET', url: `/api/v1/pipeline/${pipelineId}/runs` },
    { name: 'export pipeline', method: 'GET', url: `/api/v1/pipeline/${pipelineId}/export` },
    { name: 'pipeline run', method: 'GET', url: `/api/v1/pipeline/run/${runId}` },
    {
      name: 'approve',
      method: 'POST',
      url: `/api/v1/approval/${approvalId}`,
      payload: { decision: 'approve' },
      ownerStatus: 403,
    },
    {
      name: 'reject',
      method: 'POST',
      url: `/api/v1/approval/${approvalId}`,
      payload: { decision: 'reject' },
      // The owner, an Owner, may reject (veto) their own proposal; the pause above cancelled it.
      ownerStatus: 409,
    },
    { name: 'delete pipeline', method: 'DELETE', url: `/api/v1/pipeline/${pipelineId}`, isDestructive: true },
    { name: 'costs of tenant', method: 'GET', url: `/api/v1/cost?${days}&${query('tenantId', tenantId)}` },
    {
      name: 'cost summary of tenant',
      method: 'GET',
      url: `/api/v1/cost/summary?${query('tenantId', tenantId)}`,
    },
    {
      name: 'forecast of tenant',
      method: 'GET',
      url: `/api/v1/cost/forecast?${query('tenantId', tenantId)}`,
    },
    {
      name: 'costs of resource',
      method: 'GET',
      url: `/api/v1/cost/resource?${query('resourceId', vm.arm_id)}`,
    },
    {
      name: 'export of tenant',
      method: 'GET',
      url: `/api/v1/cost/export?${days}&${query('tenantId', tenantId)}`,
    },
    {
      name: 'remove member',
      method: 'DELETE',
      url: '/api/v1/team',
      payload: { emailAddress: owner.email },
      isDestructive: true,
    },
  ];
});
afterAll(() => context.close());

const send = (token: string, call: Call) =>
  context.app.inject({
    method: call.method,
    url: call.url,
    headers: { ...bearer(token), 'content-type': 'application/json' },
    ...(call.payload === undefined ? {} : { payload: JSON.stringify(call.payload) }),
  });

describe("another team's objects", () => {
  it('answer the owner', async () => {
    const failures: string[] = [];
    for (const call of calls.filter((candidate) => !candidate.isDestructive)) {
      const response = await send(ownerToken, call);
      const isExpected = call.ownerStatus
        ? response.statusCode === call.ownerStatus
        : response.statusCode < 300;
      if (!isExpected) failures.push(`${call.name}: ${response.statusCode} ${response.body}`);
    }
    expect(failures).toEqual([]);
  });

  it('answer 404 to a signed-in member of another team, with every verb, and change nothing', async () => {
    const { pool } = context.container.database;
    const snapshot = async () =>
      (
        await pool.query<{ digest: string }>(
          `select md5(string_agg(t::text, '|' order by t::text)) as digest from (
             select 'tenant', id::text, friendly_name from tenant where team_id = $1
             union all select 'resource', r.arm_id,
                 concat_ws(',', r.automated, r.maintenance_window, r.active_hours_start, r.active_hours_end)
               from resource r join tenant t on t.id = r.tenant_id where t.team_id = $1
             union all select 'change', resource_id::text, concat_ws(',', state, new_size, version) from scheduled_change where team_id = $1
             union all select 'member', email, team_id::text from app_user where team_id = $1
             union all select 'budget', id::text, concat_ws(',', name, amount, thresholds::text) from budget where team_id = $1
             union all select 'alert', id::text, concat_ws(',', acknowledged_at, acknowledged_by) from alert where team_id = $1
             union all select 'pipeline', id::text, concat_ws(',', name, state, version, active_since) from pipeline where team_id = $1
             union all select 'run', id::text, concat_ws(',', state, finished_at, matched, acted, skipped, failed) from pipeline_run where team_id = $1
             union all select 'item', i.id::text, concat_ws(',', i.outcome, i.reason, i.detail)
               from pipeline_run_item i join pipeline_run r on r.id = i.run_id where r.team_id = $1
             union all select 'approval', id::text, concat_ws(',', state, decided_by, decided_at) from pipeline_approval where team_id = $1) t`,
          [owner.teamId],
        )
      ).rows[0]!.digest;
    const before = await snapshot();
    const answers = [];
    for (const call of calls) answers.push(`${call.name}: ${(await send(strangerToken, call)).statusCode}`);
    expect(answers).toEqual(calls.map((call) => `${call.name}: 404`));
    expect(await snapshot()).toBe(before);
  });

  it("leave another team's pipelines and approvals out of its lists, and its tenant out of their scopes", async () => {
    const call = (method: Call['method'], url: string, payload?: unknown) =>
      send(strangerToken, { name: url, method, url, payload });
    expect((await call('GET', '/api/v1/pipeline')).json<PipelineListResponse>()).toMatchObject({
      pipelines: [],
      total: 0,
    });
    expect((await call('GET', '/api/v1/approval')).json<ApprovalListResponse>().approvals).toEqual([]);
    // Saved, its tenant is not found (the 404s above); previewed, it matches nothing.
    const preview = await call('POST', '/api/v1/pipeline/preview', pipelineRequest(tenantId));
    expect(preview.json<PipelinePreviewResponse>()).toMatchObject({ items: [], matched: 0 });
    expect((await call('GET', '/api/v1/pipeline')).json<PipelineListResponse>().total).toBe(0);
    // The owner's pipeline is still there, as the owner left it.
    expect(
      (await send(ownerToken, { name: 'pipeline', method: 'GET', url: `/api/v1/pipeline/${pipelineId}` }))
        .statusCode,
    ).toBe(200);
  });
});
