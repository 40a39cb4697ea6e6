// Approvals that mean something (issue 23 §2), against PostgreSQL and the Azure emulator: only an Owner
// or Approver approves, never a proposer (an author of a version the run used, or whoever pressed run)
// nor one who joined after the proposal, each refusal a 403 saying why, and the list saying it too; an
// approved action can be vetoed until it runs, a pause cancels it, a late approval waits a full grace
// period again; a resource waits in one open approval per action, however often it is matched; and
// approved items count against the team's blast radius an hour when carried out, refused past it.
import {
  approvalJoinedLaterText,
  approvalOwnProposalText,
  approvalRoleText,
  type Approval,
  type ApprovalListResponse,
  type PipelineRunDetail,
} from '@cloudtrim/contracts/pipelines';
import { viewerReadOnlyText } from '@cloudtrim/contracts/team';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCloudTestContext, type CloudTestContext } from '../../../test/azure-emulator';
import { createUser, logIn, type TestUser } from '../../../test/helper';
import { createPipelineClient, createPipelineTeam, neverInTests } from '../../../test/pipelines';
import type { Db } from '../../db/database';
import { pipelineApprovals, pipelineOpenApprovals, resources, scheduledChanges } from '../../db/schema';

let clockMs = Date.now();
const readClock = () => new Date(clockMs);
const minuteMs = 60_000;

let context: CloudTestContext;
let db: Db;
let owner: TestUser;
const tokens: Record<'owner' | 'approver' | 'editor' | 'member' | 'viewer', string> = {
  owner: '',
  approver: '',
  editor: '',
  member: '',
  viewer: '',
};
let vms: (typeof resources.$inferSelect)[];

// Pipelines created as the owner; each call as the token given.
const client = createPipelineClient(
  () => context,
  () => tokens.owner,
);
const { createPipeline } = client;
const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token: string, body?: unknown) =>
  client.call(method, url, body, token);
const runPipeline = (id: string, token: string) => client.runPipeline(id, false, token);

// A production VM (tagged as inventory stored it) under a deallocation that waits for approval.
async function proposeDeallocation(
  vm: typeof resources.$inferSelect | undefined,
  team: string,
  graceMinutes = 0,
) {
  await db
    .update(resources)
    .set({ tags: { env: 'prod', team } })
    .where(eq(resources.id, vm!.id));
  return createPipeline({
    name: `Deallocate ${team}`,
    scope: { tags: [{ key: 'team', op: 'equals', value: team }] },
    action: { type: 'deallocate' },
    schedule: neverInTests,
    gates: { dryRun: false, graceMinutes },
  });
}

async function findApproval(pipelineId: string, token: string) {
  const response = await call('GET', '/api/v1/approval', token);
  expect(response.statusCode, response.body).toBe(200);
  return response
    .json<ApprovalListResponse>()
    .approvals.find((approval) => approval.pipelineId === pipelineId);
}

const decide = (id: string, token: string, decision: 'approve' | 'reject') =>
  call('POST', `/api/v1/approval/${id}`, token, { decision });

const changesOfRun = (runId: string) =>
  db.select().from(scheduledChanges).where(eq(scheduledChanges.pipelineRunId, runId));

beforeAll(async () => {
  context = await createCloudTestContext({
    now: readClock,
    emulator: { fleetSize: 8, operationDurationMs: 100 },
  });
  db = context.container.database.db;
  const team = await createPipelineTeam(context, { minimumVms: 5, isUntagged: true });
  ({ owner, vms } = team);
  const teamId = owner.teamId;
  tokens.owner = team.ownerToken;
  tokens.approver = await logIn(context, await createUser(context, { teamId, role: 'Approver' }));
  tokens.editor = await logIn(context, await createUser(context, { teamId, role: 'Approver' }));
  tokens.member = await logIn(context, await createUser(context, { teamId }));
  tokens.viewer = await logIn(context, await createUser(context, { teamId, role: 'Viewer' }));
}, 120_000);

afterAll(() => context?.close());

describe('who may approve', () => {
  it('only an Owner or Approver who proposed nothing of the run and was in the team before it', async () => {
    const pipeline = await proposeDeallocation(vms[0], 'who-approves');
    // The editor's version is the one the run uses; the member presses run: both propose it.
    const edited = await call('PUT', `/api/v1/pipeline/${pipeline.id}`, tokens.editor, {
      ...pipeline.definition,
      name: 'Deallocate who-approves, edited',
    });
    expect(edited.statusCode, edited.body).toBe(200);
    const run = await runPipeline(pipeline.id, tokens.member);
    expect(run.items).toMatchObject([{ outcome: 'skipped', reason: 'awaitingApproval' }]);
    // An Approver invited after the proposal, with their own sessions.
    const late = await createUser(context, {
      teamId: owner.teamId,
      role: 'Approver',
      joinedTeamAt: new Date(clockMs + minuteMs),
    });
    const lateToken = await logIn(context, late);
    clockMs += 2 * minuteMs;

    const approval = (await findApproval(pipeline.id, tokens.approver))!;
    expect(approval).toMatchObject({ state: 'waiting', refusal: null, mayReject: true });
    expect(await findApproval(pipeline.id, lateToken)).toMatchObject({
      refusal: approvalJoinedLaterText,
      mayReject: true,
    });
    expect(await findApproval(pipeline.id, tokens.editor)).toMatchObject({
      refusal: approvalOwnProposalText,
    });
    expect(await findApproval(pipeline.id, tokens.owner)).toMatchObject({ refusal: approvalOwnProposalText });

    const refusals: [string, string][] = [
      [tokens.member, approvalRoleText],
      [tokens.viewer, viewerReadOnlyText],
      [tokens.editor, approvalOwnProposalText],
      [tokens.owner, approvalOwnProposalText],
      [lateToken, approvalJoinedLaterText],
    ];
    for (const [token, text] of refusals) {
      const refused = await decide(approval.id, token, 'approve');
      expect(refused.statusCode, text).toBe(403);
      expect(refused.json<{ message: string }>().message).toBe(text);
    }
    // A Member may not reject either.
    expect((await decide(approval.id, tokens.member, 'reject')).statusCode).toBe(403);
    expect(await changesOfRun(run.id)).toEqual([]);

    const approved = await decide(approval.id, tokens.approver, 'approve');
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json<Approval>()).toMatchObject({ state: 'done', items: [{ outcome: 'acted' }] });
    expect(await changesOfRun(run.id)).toMatchObject([{ resourceId: vms[0]!.id }]);
  });
});

describe('until an approved action has run', () => {
  it('an Owner or Approver vetoes it, and an approval past the grace period waits a full one again', async () => {
    const pipeline = await proposeDeallocation(vms[1], 'veto', 60);
    const run = await runPipeline(pipeline.id, tokens.owner);
    const approval = (await findApproval(pipeline.id, tokens.approver))!;
    clockMs += 90 * minuteMs;
    const approvedAt = clockMs;
    const approved = await decide(approval.id, tokens.approver, 'approve');
    expect(approved.json<Approval>()).toMatchObject({
      state: 'approved',
      runsAfter: new Date(approvedAt + 60 * minuteMs).toISOString(),
    });
    clockMs += 59 * minuteMs;
    await context.container.pipelines.carryOutDueApprovals();
    expect(await changesOfRun(run.id)).toEqual([]);
    expect(await findApproval(pipeline.id, tokens.editor)).toMatchObject({
      state: 'approved',
      mayReject: true,
    });

    // The proposer, an Owner, may still say no.
    const vetoed = await decide(approval.id, tokens.owner, 'reject');
    expect(vetoed.statusCode, vetoed.body).toBe(200);
    expect(vetoed.json<Approval>()).toMatchObject({ state: 'rejected', items: [{ reason: 'rejected' }] });
    clockMs += 2 * minuteMs;
    await context.container.pipelines.carryOutDueApprovals();
    expect(await changesOfRun(run.id)).toEqual([]);
    expect((await decide(approval.id, tokens.approver, 'reject')).statusCode).toBe(409);
  });

  it('approved late with no grace period, it runs at once', async () => {
    const pipeline = await proposeDeallocation(vms[2], 'late-no-grace', 0);
    const run = await runPipeline(pipeline.id, tokens.owner);
    const approval = (await findApproval(pipeline.id, tokens.approver))!;
    clockMs += 30 * minuteMs;
    expect((await decide(approval.id, tokens.approver, 'approve')).json<Approval>().state).toBe('done');
    expect(await changesOfRun(run.id)).toHaveLength(1);
  });

  it('pausing the pipeline cancels it, approved or waiting, and deleting it takes it away', async () => {
    const pipeline = await proposeDeallocation(vms[3], 'pause', 30);
    const first = await runPipeline(pipeline.id, tokens.owner);
    const approval = (await findApproval(pipeline.id, tokens.approver))!;
    expect((await decide(approval.id, tokens.approver, 'approve')).json<Approval>().state).toBe('approved');
    expect((await call('POST', `/api/v1/pipeline/${pipeline.id}/pause`, tokens.member)).statusCode).toBe(200);
    const [cancelled] = await db
      .select()
      .from(pipelineApprovals)
      .where(eq(pipelineApprovals.id, approval.id));
    expect(cancelled!.state).toBe('cancelled');
    clockMs += 31 * minuteMs;
    await context.container.pipelines.carryOutDueApprovals();
    expect(await changesOfRun(first.id)).toEqual([]);
    const detail = (
      await call('GET', `/api/v1/pipeline/run/${first.id}`, tokens.owner)
    ).json<PipelineRunDetail>();
    expect(detail).toMatchObject({ state: 'succeeded', items: [{ outcome: 'skipped', reason: 'rejected' }] });
    expect(await findApproval(pipeline.id, tokens.approver)).toBeUndefined();

    // Resumed, proposed and approved again; then deleted before its grace period is over.
    expect((await call('POST', `/api/v1/pipeline/${pipeline.id}/resume`, tokens.owner)).statusCode).toBe(200);
    const second = await runPipeline(pipeline.id, tokens.owner);
    const again = (await findApproval(pipeline.id, tokens.approver))!;
    expect((await decide(again.id, tokens.approver, 'approve')).json<Approval>().state).toBe('approved');
    expect((await call('DELETE', `/api/v1/pipeline/${pipeline.id}`, tokens.owner)).statusCode).toBe(204);
    clockMs += 31 * minuteMs;
    await context.container.pipelines.carryOutDueApprovals();
    expect(await changesOfRun(second.id)).toEqual([]);
  });
});

describe('one open approval per resource and action', () => {
  it('a resource matched run after run, by one pipeline or two, is proposed and mailed once', async () => {
    const countMails = async () => {
      const { rows } = await context.container.database.pool.query<{ count: number }>(
        "select count(*)::int as count from pgboss.job where name = 'send-email'",
      );
      return rows[0]!.count;
    };
    const countApprovals = async (pipelineId: string) => {
      const [row] = await db
        .select({ count: sql<number>`count(*)::int` })
        .from(pipelineApprovals)
        .where(eq(pipelineApprovals.pipelineId, pipelineId));
      return row!.count;
    };
    const pipeline = await proposeDeallocation(vms[4], 'once', 60);
    const mailsBefore = await countMails();
    await runPipeline(pipeline.id, tokens.owner);
    const mailsAfterFirst = await countMails();
    // Mailed to every other member of the team.
    const { rows } = await context.container.database.pool.query<{ count: number }>(
      'select count(*)::int as count from app_user where team_id = $1',
      [owner.teamId],
    );
    expect(mailsAfterFirst - mailsBefore).toBe(rows[0]!.count - 1);
    for (let tick = 0; tick < 3; tick += 1) {
      clockMs += minuteMs;
      const run = await runPipeline(pipeline.id, tokens.owner);
      expect(run.items).toMatchObject([{ outcome: 'skipped', reason: 'held' }]);
      expect(run.state).toBe('succeeded');
    }
    // Another pipeline deallocating the same VM finds it held too.
    const twin = await createPipeline({
      ...pipeline.definition,
      name: 'Deallocate once, twin',
    });
    expect((await runPipeline(twin.id, tokens.owner)).items).toMatchObject([{ reason: 'held' }]);
    expect(await countApprovals(pipeline.id)).toBe(1);
    expect(await countApprovals(twin.id)).toBe(0);
    expect(await countMails()).toBe(mailsAfterFirst);

    // The database holds the rule too, whatever the code path.
    const [open] = await db
      .select()
      .from(pipelineOpenApprovals)
      .where(
        and(
          eq(pipelineOpenApprovals.resourceId, vms[4]!.id),
          eq(pipelineOpenApprovals.actionKey, 'deallocate'),
        ),
      );
    await expect(db.insert(pipelineOpenApprovals).values({ ...open! })).rejects.toThrow();

    // Once decided, the resource may be proposed again.
    const approval = (await findApproval(pipeline.id, tokens.approver))!;
    expect((await decide(approval.id, tokens.approver, 'reject')).statusCode).toBe(200);
    clockMs += minuteMs;
    expect((await runPipeline(twin.id, tokens.owner)).items).toMatchObject([{ reason: 'awaitingApproval' }]);
  });
});

describe("the team's blast radius an hour", () => {
  it('counts what approvals carry out when they act: one past the limit is refused, and Azure is left alone', async () => {
    // Two hours on: what the tests above acted on is out of the hour. (The veto's VM was never
    // stopped, and is proposed again.)
    clockMs += 120 * minuteMs;
    tokens.owner = await logIn(context, owner);
    const approver = await createUser(context, { teamId: owner.teamId, role: 'Approver' });
    const set = await call('PUT', '/api/v1/pipeline/limits', tokens.owner, { blastRadiusPerHour: 1 });
    expect(set.statusCode, set.body).toBe(200);
    const first = await proposeDeallocation(vms[5], 'radius-first', 0);
    const second = await proposeDeallocation(vms[1], 'radius-second', 0);
    const firstRun = await runPipeline(first.id, tokens.owner);
    const secondRun = await runPipeline(second.id, tokens.owner);
    expect([...firstRun.items, ...secondRun.items]).toMatchObject([
      { reason: 'awaitingApproval' },
      { reason: 'awaitingApproval' },
    ]);

    // Approved more than an hour after the runs that proposed them: each counts when it acts.
    clockMs += 90 * minuteMs;
    tokens.owner = await logIn(context, owner);
    tokens.approver = await logIn(context, approver);
    const firstApproval = (await findApproval(first.id, tokens.approver))!;
    const approved = await decide(firstApproval.id, tokens.approver, 'approve');
    expect(approved.json<Approval>()).toMatchObject({ state: 'done', items: [{ outcome: 'acted' }] });
    expect(await changesOfRun(firstRun.id)).toHaveLength(1);

    const vm = context.emulator.fleet.findVirtualMachine(vms[1]!.armId)!;
    const powerHistory = [...vm.powerHistory];
    clockMs += minuteMs;
    const secondApproval = (await findApproval(second.id, tokens.approver))!;
    const refused = await decide(secondApproval.id, tokens.approver, 'approve');
    expect(refused.statusCode, refused.body).toBe(200);
    expect(refused.json<Approval>()).toMatchObject({
      state: 'done',
      items: [
        {
          outcome: 'skipped',
          reason: 'overBlastRadius',
          detail: "Over the team's blast radius of 1 an hour",
        },
      ],
    });
    const detail = (
      await call('GET', `/api/v1/pipeline/run/${secondRun.id}`, tokens.owner)
    ).json<PipelineRunDetail>();
    expect(detail.items).toMatchObject([{ outcome: 'skipped', reason: 'overBlastRadius' }]);
    expect(await changesOfRun(secondRun.id)).toEqual([]);
    expect(vm.powerHistory, 'nothing changed in Azure').toEqual(powerHistory);
    expect(context.emulator.fleet.powerStateAt(vm.id, readClock())).toBe(powerHistory.at(-1)!.state);

    await call('PUT', '/api/v1/pipeline/limits', tokens.owner, { blastRadiusPerHour: 50 });
  });
});
