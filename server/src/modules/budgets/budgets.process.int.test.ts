// Exactly once across real processes: two worker processes evaluate the same crossed budget at the
// same moment and exit before any mail goes out (no mail worker runs anywhere); a worker started
// afterwards sends each recipient's mail once, caught by a real SMTP server.
import type { AzureEmulator } from '@cloudtrim/azure-emulator/emulator';
import type { Budget } from '@cloudtrim/contracts/budgets';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
import { runWorkerScript } from '../../../test/server-process';
import { alerts, budgetCrossings } from '../../db/schema';
import { createJobDefinitions } from '../../jobs/definitions';
import { JobQueue } from '../../queue/queue';
import { createSendEmailJob } from '../../jobs/send-email.job';
import { dayMs } from '../../lib/time';

let clockMs = Date.UTC(2026, 10, 10, 10, 0);
const readClock = () => new Date(clockMs);
const quiet = { info: () => {}, warn: () => {}, error: () => {} };

let emulator: AzureEmulator;
let mailbox: Mailbox;
let context: TestContext;
let owner: TestUser;
let member: TestUser;
let tenantId: string;

// A worker process evaluating the tenant's budgets at `startAt` (wall clock); answers the thresholds
// it raised.
function runEvaluator(startAt: number): Promise<number> {
  return runWorkerScript({
    emulator,
    databaseUrl: context.databaseUrl,
    secrets: context.secrets,
    clockMs,
    startAt,
    work: 'return container.budgets.evaluateTenant(process.env.TENANT_ID);',
    environment: { TENANT_ID: tenantId },
  });
}

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
  // The app's queue only sends: no mail is delivered until the test starts a worker.
  await context.container.queue.start(createJobDefinitions(context.container));
  owner = await createUser(context);
  member = await createUser(context, { teamId: owner.teamId });
  const request = createTenantRequest(emulator, 0, 0);
  await context.container.tenants.addTenant(owner.teamId, request);
  tenantId = (await context.container.tenants.listTenants(owner.teamId)).find(
    (tenant) => tenant.TenantId === request.TenantId,
  )!.Id;
  await context.container.inventory.syncTenant(tenantId);
  await context.container.costs.syncTenant(tenantId, { signal: AbortSignal.timeout(120_000) });
}, 240_000);

afterAll(async () => {
  await context?.close();
  await emulator?.stop();
  await mailbox?.close();
});

describe('a budget evaluated by two worker processes at once', () => {
  it('crosses once, and a worker started after they exit mails each recipient once', async () => {
    const token = await logIn(context, owner);
    const probe = (
      await context.app.inject({
        method: 'POST',
        url: '/api/v1/budget',
        headers: { ...bearer(token), 'content-type': 'application/json' },
        payload: {
          Name: 'Month',
          Scope: {},
          Amount: 1_000_000_000,
          Period: 'monthly',
          StartDate: '2026-11-01',
          CostType: 'actual',
          Thresholds: [],
        },
      })
    ).json<Budget>();
    // Half a day's cost above the month so far: crossed once the 10th's bill is read.
    const amount = Math.round((probe.Spent + probe.Spent / 18) * 100) / 100;
    const edited = await context.app.inject({
      method: 'PUT',
      url: `/api/v1/budget/${probe.Id}`,
      headers: { ...bearer(token), 'content-type': 'application/json' },
      payload: {
        Name: 'Month',
        Scope: {},
        Amount: amount,
        Period: 'monthly',
        StartDate: '2026-11-01',
        CostType: 'actual',
        Thresholds: [{ Percent: 100, Basis: 'actual', Recipients: { AllTeam: true, Emails: [] } }],
      },
    });
    expect(edited.json<Budget>().Crossed).toEqual([]);

    clockMs += dayMs;
    await context.container.costs.syncTenant(tenantId, { signal: AbortSignal.timeout(120_000) });
    // Both start their evaluation at the same instant, once both are up.
    const startAt = Date.now() + 25_000;
    const raised = await Promise.all([runEvaluator(startAt), runEvaluator(startAt)]);
    expect(raised.reduce((total, count) => total + count, 0)).toBe(1);

    const db = context.container.database.db;
    expect(
      await db.select().from(budgetCrossings).where(eq(budgetCrossings.budgetId, probe.Id)),
    ).toHaveLength(1);
    expect(await db.select().from(alerts).where(eq(alerts.teamId, owner.teamId))).toHaveLength(1);
    // Their mails wait in the queue, committed with the crossing; nothing was sent.
    const { rows } = await context.container.database.pool.query<{ count: number }>(
      "select count(*)::int as count from pgboss.job where name = 'send-email' and state = 'created'",
    );
    expect(rows[0]!.count).toBe(2);
    expect(mailbox.mailsTo(owner.email)).toHaveLength(0);

    const mailWorker = new JobQueue(context.databaseUrl, quiet);
    try {
      await mailWorker.start([createSendEmailJob(context.container)]);
      await mailWorker.work();
      for (const user of [owner, member]) {
        expect((await mailbox.nextMailTo(user.email)).subject).toContain('Budget "Month" has reached 100%');
      }
      await waitForMailJobs(context);
    } finally {
      await mailWorker.stop();
    }
    expect(mailbox.mailsTo(owner.email)).toHaveLength(1);
    expect(mailbox.mailsTo(member.email)).toHaveLength(1);
    const [sent] = await db
      .execute<{
        count: number;
      }>(sql`select count(*)::int as count from pgboss.job where name = 'send-email' and state = 'completed'`)
      .then((result) => result.rows);
    expect(sent!.count).toBe(2);
  }, 180_000);
});
