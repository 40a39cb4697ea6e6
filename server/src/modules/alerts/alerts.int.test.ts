// Alerts as the anomaly detection and the budgets raise them: once per team and key, with one Recent
// Activity entry and one mail per member who wants that kind (a real SMTP server), listed newest
// first a page at a time, acknowledged once; and each user's own mail preferences. A pipeline's action
// waiting for approval (emulator estate): alerted to the team, mailed to every member but the proposer
// whatever their preferences, and acknowledged by the colleague's decision.
import type { ActivityLogResponse } from '@cloudtrim/contracts/activity';
import type { Alert, AlertListResponse } from '@cloudtrim/contracts/alerts';
import { pageSize } from '@cloudtrim/contracts/paging';
import type {
  Approval,
  ApprovalListResponse,
  Pipeline,
  PipelineRunDetail,
} from '@cloudtrim/contracts/pipelines';
import type { AzureEmulator } from '@cloudtrim/azure-emulator/emulator';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAzureEnvironment, createTenantRequest, startTestEmulator } from '../../../test/azure-emulator';
import { bearer, createUser, logIn, type TestUser } from '../../../test/helper';
import { createMailTestContext, waitForMailJobs, type MailTestContext } from '../../../test/mailbox';
import { activityLogs, resources, tenants } from '../../db/schema';
import type { NewAlert } from './alerts.service';

let emulator: AzureEmulator;
let context: MailTestContext;
let owner: TestUser;
let member: TestUser;
let token: string;

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

function createAnomaly(key: string, day = '2026-11-09'): NewAlert {
  return {
    teamId: owner.teamId,
    kind: 'anomaly',
    key,
    title: 'Virtual Machines cost 412.50 USD instead of about 180.00 USD',
    scope: 'Subscription Production · resource group web-rg · Virtual Machines',
    filter: {
      SubscriptionId: '00000000-0000-0000-0000-000000000001',
      ResourceGroup: 'web-rg',
      Service: 'Virtual Machines',
    },
    day,
    amount: 412.5,
    expected: 180,
    currency: 'USD',
    drivers: [
      {
        ResourceId:
          '/subscriptions/00000000-0000-0000-0000-000000000001/resourcegroups/web-rg/providers/microsoft.compute/virtualmachines/web-1',
        Name: 'web-1',
        Expected: 60,
        Actual: 290,
      },
    ],
    mailKind: 'anomaly',
  };
}

beforeAll(async () => {
  emulator = await startTestEmulator({ fleetSize: 4 });
  context = await createMailTestContext({
    ...createAzureEnvironment(emulator),
    MAIL_RETRY_DELAY_SECONDS: '1',
  });
  owner = await createUser(context);
  member = await createUser(context, { teamId: owner.teamId });
  token = await logIn(context, owner);
});
afterAll(async () => {
  await context.close();
  await emulator.stop();
});

describe('raising an alert', () => {
  it('stores it once per key, with one activity entry and one mail per member who wants it', async () => {
    const memberToken = await logIn(context, member);
    expect((await call('GET', '/api/v1/alert/preferences', undefined, memberToken)).json()).toEqual({
      BudgetMails: true,
      AnomalyMails: true,
      SecurityMails: false,
    });
    await call('PUT', '/api/v1/alert/preferences', { BudgetMails: true, AnomalyMails: false }, memberToken);

    const { alerts } = context.container;
    expect(await alerts.raise(createAnomaly('anomaly:web-rg:2026-11-09'))).toBe(true);
    expect(await alerts.raise(createAnomaly('anomaly:web-rg:2026-11-09'))).toBe(false);

    const mail = await context.mailbox.nextMailTo(owner.email);
    expect(mail.subject).toBe('Cost anomaly: Virtual Machines cost 412.50 USD instead of about 180.00 USD');
    expect(mail.text).toContain('412.50 USD against 180.00 USD expected, on 2026-11-09.');
    expect(mail.link).toBe(
      'http://cloudtrim.test/analysis?subscriptionId=00000000-0000-0000-0000-000000000001&resourceGroup=web-rg&service=Virtual+Machines',
    );
    await waitForMailJobs(context);
    expect(context.mailbox.mailsTo(owner.email)).toHaveLength(1);
    expect(context.mailbox.mailsTo(member.email)).toHaveLength(0);

    const activity = await context.container.database.db
      .select()
      .from(activityLogs)
      .where(eq(activityLogs.teamId, owner.teamId));
    expect(activity).toMatchObject([
      {
        serviceName: 'Cost anomalies',
        logText:
          'Virtual Machines cost 412.50 USD instead of about 180.00 USD (Subscription Production · resource group web-rg · Virtual Machines)',
      },
    ]);

    const listed = (await call('GET', '/api/v1/alert')).json<AlertListResponse>();
    expect(listed).toMatchObject({ Total: 1, Unacknowledged: 1 });
    expect(listed.Alerts[0]).toMatchObject({
      Kind: 'anomaly',
      Date: '2026-11-09',
      Amount: 412.5,
      Expected: 180,
      Currency: 'USD',
      Filter: { ResourceGroup: 'web-rg', Service: 'Virtual Machines' },
      Drivers: [{ Name: 'web-1', Expected: 60, Actual: 290 }],
      AcknowledgedAt: null,
    });
  });

  it('lists newest first a page at a time, and acknowledges once', async () => {
    for (let index = 0; index < pageSize + 2; index += 1) {
      context.clock.offsetMs += 1000;
      await context.container.alerts.raise(createAnomaly(`anomaly:page:${index}`));
    }
    const first = (await call('GET', '/api/v1/alert')).json<AlertListResponse>();
    expect(first.Total).toBe(pageSize + 3);
    expect(first.Alerts).toHaveLength(pageSize);
    const raisedAt = first.Alerts.map((alert) => alert.RaisedAt);
    expect([...raisedAt].sort().reverse()).toEqual(raisedAt);
    const second = (await call('GET', `/api/v1/alert?offset=${pageSize}`)).json<AlertListResponse>();
    expect(second.Alerts).toHaveLength(3);
    expect(second.Alerts.map((alert) => alert.Id)).not.toContain(first.Alerts[0]!.Id);

    const acknowledged = await call('POST', `/api/v1/alert/${first.Alerts[0]!.Id}/acknowledge`);
    expect(acknowledged.statusCode).toBe(200);
    context.clock.offsetMs += 60_000;
    const again = await call('POST', `/api/v1/alert/${first.Alerts[0]!.Id}/acknowledge`);
    expect(again.json<Alert>().AcknowledgedAt).toBe(acknowledged.json<Alert>().AcknowledgedAt);
    expect((await call('GET', '/api/v1/alert')).json<AlertListResponse>().Unacknowledged).toBe(pageSize + 2);
    const missing = await call('POST', '/api/v1/alert/00000000-0000-0000-0000-000000000000/acknowledge');
    expect(missing.statusCode).toBe(404);
  });

  it('refuses a bad offset or preferences with 400 naming the field', async () => {
    expect((await call('GET', '/api/v1/alert?offset=-1')).json()).toMatchObject({ field: 'offset' });
    const bad = await call('PUT', '/api/v1/alert/preferences', { BudgetMails: 'yes', AnomalyMails: true });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ field: 'BudgetMails' });
    expect((await call('GET', '/api/v1/alert/preferences')).json()).toEqual({
      BudgetMails: true,
      AnomalyMails: true,
      SecurityMails: false,
    });
  });
});

describe('an action waiting for approval', () => {
  // A real run of a pipeline that stops one VM of the emulator's estate after a colleague approves.
  async function proposeNightStop(options: { colleagueMails: boolean }) {
    const proposer = await createUser(context);
    const colleague = await createUser(context, { teamId: proposer.teamId, role: 'Approver' });
    const proposerToken = await logIn(context, proposer);
    const colleagueToken = await logIn(context, colleague);
    if (!options.colleagueMails) {
      await call(
        'PUT',
        '/api/v1/alert/preferences',
        { BudgetMails: false, AnomalyMails: false },
        colleagueToken,
      );
    }
    await context.container.tenants.addTenant(proposer.teamId, createTenantRequest(emulator, 0, 0));
    const [tenant] = await context.container.database.db
      .select()
      .from(tenants)
      .where(eq(tenants.teamId, proposer.teamId));
    await context.container.inventory.syncTenant(tenant!.id);
    const [vm] = await context.container.database.db
      .select()
      .from(resources)
      .where(
        and(
          eq(resources.tenantId, tenant!.id),
          eq(resources.type, 'Microsoft.Compute/virtualMachines'),
          // A running one, so the stop has something to do whatever the date (the emulator's
          // development machines are off over the year's end).
          eq(resources.powerState, 'running'),
        ),
      )
      .orderBy(resources.name)
      .limit(1);
    await context.container.database.db
      .update(resources)
      .set({ tags: { team: 'approval' } })
      .where(eq(resources.id, vm!.id));

    const created = await call(
      'POST',
      '/api/v1/pipeline',
      {
        name: 'Night stop',
        scope: { tags: [{ key: 'team', op: 'equals', value: 'approval' }] },
        action: { type: 'stop' },
        schedule: { cron: '0 0 1 1 *', timeZone: 'UTC' },
        gates: { dryRun: false, approval: 'always', graceMinutes: 0 },
      },
      proposerToken,
    );
    expect(created.statusCode, created.body).toBe(201);
    const run = await call(
      'POST',
      `/api/v1/pipeline/${created.json<Pipeline>().id}/run`,
      { dryRun: false },
      proposerToken,
    );
    expect(run.json<PipelineRunDetail>()).toMatchObject({ state: 'awaitingApproval' });
    return {
      proposer,
      colleague,
      proposerToken,
      colleagueToken,
      vm: vm!,
      pipelineId: created.json<Pipeline>().id,
    };
  }

  it('alerts the team, mails every member but the proposer, and is acknowledged by the decision', async () => {
    // Approval mails follow neither cost preference: turned off, the colleague is still asked.
    const { proposer, colleague, proposerToken, colleagueToken, vm } = await proposeNightStop({
      colleagueMails: false,
    });

    const title = `Pipeline Night stop waits for approval to stop VM ${vm!.name}`;
    for (const token of [proposerToken, colleagueToken]) {
      const listed = (await call('GET', '/api/v1/alert', undefined, token)).json<AlertListResponse>();
      expect(listed).toMatchObject({ Total: 1, Unacknowledged: 1 });
      expect(listed.Alerts[0]).toMatchObject({
        Kind: 'approval',
        Title: title,
        Filter: {},
        Expected: null,
        Currency: 'USD',
        AcknowledgedAt: null,
      });
      expect(listed.Alerts[0]!.Scope).toMatch(
        new RegExp(`^Proposed by ${proposer.email}; runs no earlier than `),
      );
    }

    const mail = await context.mailbox.nextMailTo(colleague.email);
    expect(mail.subject).toBe('Approval needed: pipeline Night stop');
    expect(mail.link).toBe('http://cloudtrim.test/automation');
    await waitForMailJobs(context);
    expect(context.mailbox.mailsTo(colleague.email)).toHaveLength(1);
    expect(context.mailbox.mailsTo(proposer.email)).toHaveLength(0);
    const activity = (
      await call('GET', '/api/v1/log/0', undefined, proposerToken)
    ).json<ActivityLogResponse>();
    expect(activity.filter((entry) => entry.ServiceName === 'Pipeline: Night stop')).toHaveLength(1);

    const [approval] = (
      await call('GET', '/api/v1/approval', undefined, colleagueToken)
    ).json<ApprovalListResponse>().approvals;
    const decided = await call(
      'POST',
      `/api/v1/approval/${approval!.id}`,
      { decision: 'reject' },
      colleagueToken,
    );
    expect(decided.json<Approval>()).toMatchObject({ state: 'rejected' });
    const after = (await call('GET', '/api/v1/alert', undefined, proposerToken)).json<AlertListResponse>();
    expect(after).toMatchObject({ Total: 1, Unacknowledged: 0 });
    expect(after.Alerts[0]!.AcknowledgedAt).not.toBeNull();
  });

  it('leaves the top bar when its pipeline is deleted before anyone decides', async () => {
    const { proposerToken, colleagueToken, pipelineId } = await proposeNightStop({ colleagueMails: true });
    expect(
      (await call('DELETE', `/api/v1/pipeline/${pipelineId}`, undefined, proposerToken)).statusCode,
    ).toBe(204);

    for (const token of [proposerToken, colleagueToken]) {
      const listed = (await call('GET', '/api/v1/alert', undefined, token)).json<AlertListResponse>();
      expect(listed).toMatchObject({ Total: 1, Unacknowledged: 0 });
    }
    const waiting = (
      await call('GET', '/api/v1/approval', undefined, colleagueToken)
    ).json<ApprovalListResponse>();
    expect(waiting.approvals).toEqual([]);
  });
});
