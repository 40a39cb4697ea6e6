// A pipeline's approvals from proposal to end: proposed in its run's transaction (one open approval
// per resource and action, and its alert), listed with why the signed-in user may not decide, decided
// by a colleague (pipelines.approvals.ts says who may), rejected, cancelled by a pause, or carried out
// when approved and its grace period is over, fenced by the team's blast radius as a run is.
import { roundCents } from '@cloudtrim/contracts/money';
import {
  approvalDecisionRequestSchema,
  approvalRoleText,
  pipelineOptOutTag,
  type Approval,
  type ApprovalListResponse,
} from '@cloudtrim/contracts/pipelines';
import type { Transaction } from '../../db/transaction';
import { conflict, forbidden, notFound } from '../../lib/http-errors';
import { ActivityRepository } from '../activity/activity.repository';
import type { AuthContext } from '../auth/auth.service';
import type { PipelineActing } from './pipelines.acting';
import { findApprovalRefusal, findRejectionRefusal, findRunsAfter, toActionKey } from './pipelines.approvals';
import { ApprovalsRepository, type PipelineApprovalRow } from './pipelines.approvals.repository';
import type { PendingApply, PipelineDeps } from './pipelines.context';
import {
  blastRadiusWindowMs,
  describeOverTeamBlastRadius,
  findOverTeamBlastRadius,
} from './pipelines.limits';
import { PipelineLimitsRepository } from './pipelines.limits.repository';
import { isChangePlan, parse, toActivity, toItem, toPlan } from './pipelines.mapping';
import { isOptedOut, type EvaluatedItem } from './pipelines.match';
import { describePipelineService, raiseApprovalAlert, settleApprovalAlert } from './pipelines.notice';
import { PipelineReads } from './pipelines.reads';
import { PipelinesRepository, type PipelineWithDefinition } from './pipelines.repository';
import { RunsRepository, type PipelineRunItemRow } from './pipelines.runs.repository';
import type { RunSettlement } from './pipelines.settle';

export class PipelineApprovalFlow {
  constructor(
    private readonly deps: PipelineDeps,
    private readonly settlement: RunSettlement,
    private readonly acting: PipelineActing,
  ) {}

  // Each with why the signed-in user may not approve it, and whether they may reject it.
  async listApprovals(auth: AuthContext): Promise<ApprovalListResponse> {
    const { rows, decider, proposers } = await this.deps.runTransaction(async (transaction) => {
      const approvals = new ApprovalsRepository(transaction.db);
      const open = await approvals.listOpen(auth.teamId, auth.userId);
      return {
        rows: open,
        decider: await new PipelineReads(transaction.db).findDecider(auth.teamId, auth.userId),
        proposers: await approvals.listProposers(open),
      };
    });
    const described = await this.describeApprovals(rows);
    return {
      approvals: described.map((approval, index) => {
        const row = rows[index]!;
        const proposal = {
          proposers: proposers.get(row.id) ?? new Set<string>(),
          proposedAt: row.proposedAt,
        };
        return {
          ...approval,
          refusal: !decider
            ? approvalRoleText
            : row.state === 'waiting'
              ? (findApprovalRefusal(decider, proposal) ?? null)
              : `This approval is ${row.state} already.`,
          mayReject: decider !== undefined && !findRejectionRefusal(decider),
        };
      }),
    };
  }

  // A colleague's decision (pipelines.approvals.ts says who may). Approved before the grace period is
  // over, the tick carries it out at its end; approved later, a full grace period from the approval.
  // Until it has run, an Owner or Approver may still reject it.
  async decideApproval(auth: AuthContext, id: string, input: unknown): Promise<Approval> {
    const { decision } = parse(approvalDecisionRequestSchema, input);
    const pending = await this.deps.runTransaction(async (transaction) => {
      const approvals = new ApprovalsRepository(transaction.db);
      const approval = await approvals.lockApproval(auth.teamId, id);
      if (!approval) throw notFound('Approval not found.');
      const decider = await new PipelineReads(transaction.db).findDecider(auth.teamId, auth.userId);
      if (!decider) throw notFound('Approval not found.');
      // Who may decide first: one who may not hears why, whatever the approval's state.
      const proposers = (await approvals.listProposers([approval])).get(approval.id)!;
      const refusal =
        decision === 'approve'
          ? findApprovalRefusal(decider, { proposers, proposedAt: approval.proposedAt })
          : findRejectionRefusal(decider);
      if (refusal) throw forbidden(refusal);
      const isVeto = decision === 'reject' && approval.state === 'approved';
      if (approval.state !== 'waiting' && !isVeto) {
        throw conflict(`This approval is ${approval.state} already.`);
      }
      const at = this.deps.now();
      const runsAfter = decision === 'approve' ? findRunsAfter(approval, at) : approval.runsAfter;
      await approvals.updateApproval(id, {
        state: decision === 'approve' ? 'approved' : 'rejected',
        decidedBy: auth.userId,
        decidedAt: at,
      });
      if (runsAfter.getTime() !== approval.runsAfter.getTime()) await approvals.setRunsAfter(id, runsAfter);
      if (!isVeto) await settleApprovalAlert(this.deps.alerts, transaction, approval, auth.userId);
      if (decision === 'reject') {
        await this.rejectApproval(transaction, approval, auth.email);
        return [];
      }
      if (runsAfter.getTime() > at.getTime()) return [];
      return this.carryOutApproval(transaction, approval, auth.email);
    });
    await this.applyPending(auth.teamId, id, pending);
    const [row] = await this.describeApprovals([(await this.deps.approvals.findApproval(auth.teamId, id))!]);
    return row!;
  }

  async carryOutDueApprovals(): Promise<number> {
    let carried = 0;
    for (;;) {
      const outcome = await this.deps.runTransaction(async (transaction) => {
        const approval = await new ApprovalsRepository(transaction.db).lockDueApproval(this.deps.now());
        if (!approval) return undefined;
        const emails = await new PipelineReads(transaction.db).readEmails([approval.decidedBy]);
        const pending = await this.carryOutApproval(
          transaction,
          approval,
          emails.get(approval.decidedBy ?? '') ?? 'a colleague',
        );
        return { approval, pending };
      });
      if (!outcome) return carried;
      await this.applyPending(outcome.approval.teamId, outcome.approval.id, outcome.pending);
      carried += 1;
    }
  }

  async cancelOpenApprovals(transaction: Transaction, auth: AuthContext, pipelineId: string): Promise<void> {
    const runs = new RunsRepository(transaction.db);
    const approvals = new ApprovalsRepository(transaction.db);
    for (const approval of await approvals.lockOpenForPipeline(auth.teamId, pipelineId)) {
      await approvals.updateApproval(approval.id, { state: 'cancelled' });
      await approvals.release(approval.id);
      if (approval.state === 'waiting')
        await settleApprovalAlert(this.deps.alerts, transaction, approval, auth.userId);
      await skipWaitingItems(runs, approval.id, `Cancelled: ${auth.email} paused the pipeline`);
      await this.settlement.finishRun(transaction, approval.runId, false);
    }
  }

  // The approval row and its alert (Recent Activity notice, a mail to every other member), in the run's
  // transaction. One open approval per resource and action: a resource an open approval holds already
  // is not proposed again (its item is held), and a run proposing none makes no approval and no mail.
  async proposeApproval(
    transaction: Transaction,
    pipeline: PipelineWithDefinition,
    runId: string,
    proposed: EvaluatedItem[],
    proposer: string | null,
    at: Date,
  ): Promise<string | null> {
    const reads = new PipelineReads(transaction.db);
    const approvals = new ApprovalsRepository(transaction.db);
    const runsAfter = new Date(at.getTime() + pipeline.definition.gates.graceMinutes * 60_000);
    const approvalId = await approvals.insertApproval({
      teamId: pipeline.teamId,
      pipelineId: pipeline.id,
      runId,
      action: pipeline.definition.action,
      state: 'waiting',
      proposedBy: proposer,
      proposedAt: at,
      runsAfter,
    });
    const claimed = await approvals.claim(
      approvalId,
      toActionKey(pipeline.definition.action),
      proposed.map((item) => item.candidate.resourceId),
    );
    const waiting = proposed.filter((item) => claimed.has(item.candidate.resourceId));
    for (const item of proposed.filter((each) => !claimed.has(each.candidate.resourceId))) {
      item.reason = 'held';
      item.detail = `${item.detail}: already waiting for an approval`;
    }
    if (waiting.length === 0) {
      await approvals.delete(approvalId);
      return null;
    }
    const members = await reads.listMembers(pipeline.teamId);
    const notice = {
      pipelineName: pipeline.name,
      action: pipeline.definition.action,
      resourceNames: waiting.map((item) => item.candidate.name),
      proposedBy: members.find((member) => member.id === proposer)?.email ?? 'the pipeline',
      runsAfter,
      link: `${this.deps.publicUrl}/automation`,
    };
    await raiseApprovalAlert(this.deps.alerts, transaction, {
      teamId: pipeline.teamId,
      approvalId,
      notice,
      resources: waiting.map((item) => ({
        name: item.candidate.name,
        type: item.candidate.type,
        annualSaving: item.annualSaving,
      })),
      recipients: members.filter((member) => member.id !== proposer).map((member) => member.email),
      proposedAt: at,
    });
    return approvalId;
  }

  private async rejectApproval(
    transaction: Transaction,
    approval: PipelineApprovalRow,
    by: string,
  ): Promise<void> {
    const pipelines = new PipelinesRepository(transaction.db);
    const runs = new RunsRepository(transaction.db);
    await new ApprovalsRepository(transaction.db).release(approval.id);
    const items = await skipWaitingItems(runs, approval.id, `Rejected by ${by}`);
    const name = (await pipelines.findPipelineName(approval.pipelineId)) ?? '';
    await new ActivityRepository(transaction.db).insertManyInTransaction([
      {
        teamId: approval.teamId,
        tenantId: null,
        serviceName: describePipelineService(name),
        resourceArmId: null,
        logText: `${by} rejected the ${approval.action.type} of ${items.length} resource${items.length === 1 ? '' : 's'}`,
      },
    ]);
    await this.settlement.finishRun(transaction, approval.runId, false);
  }

  // The approved items are acted on as their run would have: power changes in this transaction,
  // recommendations (returned) after it. They count against the team's blast radius an hour from now,
  // fenced under the team's lock as a run's are: those past it are skipped, and saying so.
  private async carryOutApproval(
    transaction: Transaction,
    approval: PipelineApprovalRow,
    approvedBy: string,
  ): Promise<PendingApply[]> {
    const at = this.deps.now();
    const pipelines = new PipelinesRepository(transaction.db);
    const runs = new RunsRepository(transaction.db);
    const approvals = new ApprovalsRepository(transaction.db);
    const reads = new PipelineReads(transaction.db);
    const limits = new PipelineLimitsRepository(transaction.db);
    // The team's lock first, before the approval's open rows are released: a run holding it may be
    // claiming those rows.
    await limits.lockTeam(approval.teamId);
    await approvals.updateApproval(approval.id, { state: 'done', carriedOutAt: at });
    await approvals.release(approval.id);
    const items = (await runs.listApprovalItems([approval.id])).filter(
      (item) => item.reason === 'awaitingApproval' && item.resourceId !== null,
    );
    const name = (await pipelines.findPipelineName(approval.pipelineId)) ?? '';
    const plan = toPlan(approval.action.type);
    // The opt-out tag still wins: a resource tagged since the run is left alone.
    const states = await reads.readResourceStates(items.map((item) => item.resourceId!));
    const tenants = new Map([...states].map(([id, state]) => [id, state.tenantId]));
    const limit = await limits.readBlastRadius(approval.teamId);
    const used = await limits.countActedSince(approval.teamId, new Date(at.getTime() - blastRadiusWindowMs));
    const overLimit = new Set(
      findOverTeamBlastRadius(
        items.filter((item) => {
          const state = states.get(item.resourceId!);
          return state !== undefined && !isOptedOut(state.tags);
        }),
        limit - used,
      ).map((item) => item.id),
    );
    const findSkip = (item: PipelineRunItemRow) => {
      const state = states.get(item.resourceId!);
      if (!state) return { reason: 'notApplicable' as const, detail: 'The resource is gone' };
      if (isOptedOut(state.tags))
        return { reason: 'optedOut' as const, detail: `Tagged ${pipelineOptOutTag}` };
      if (overLimit.has(item.id))
        return { reason: 'overBlastRadius' as const, detail: describeOverTeamBlastRadius(limit) };
      return undefined;
    };
    const approved = items.filter((item) => !findSkip(item));
    for (const item of items) {
      const skip = findSkip(item);
      await runs.updateItem(
        item.id,
        skip
          ? { outcome: 'skipped', ...skip }
          : {
              outcome: plan === 'apply' ? 'matched' : 'acted',
              reason: null,
              detail: `${item.detail} (approved by ${approvedBy})`,
            },
      );
    }
    if (isChangePlan(plan)) {
      const requests = approved.map((item) => ({
        resourceId: item.resourceId!,
        tenantId: tenants.get(item.resourceId!)!,
        armId: item.resourceArmId,
        name: item.resourceName,
        detail: `${item.detail} (approved by ${approvedBy})`,
        plan,
      }));
      await this.acting.requestChanges(
        transaction,
        approval.teamId,
        name,
        approval.runId,
        requests,
        approval.action,
      );
      await new ActivityRepository(transaction.db).insertManyInTransaction(
        requests.map((request) =>
          toActivity(approval.teamId, request.tenantId, name, request.armId, request.name, request.detail),
        ),
      );
    }
    await this.settlement.finishRun(transaction, approval.runId, plan === 'apply' && approved.length > 0);
    if (plan !== 'apply') return [];
    return approved
      .filter((item) => item.recommendationId !== null)
      .map((item) => ({
        itemId: item.id,
        recommendationId: item.recommendationId!,
        resourceArmId: item.resourceArmId,
        resourceName: item.resourceName,
        tenantId: tenants.get(item.resourceId!) ?? null,
      }));
  }

  private async applyPending(teamId: string, approvalId: string, pending: PendingApply[]): Promise<void> {
    if (pending.length === 0) return;
    const [approval] = await this.describeApprovals([
      (await this.deps.approvals.findApproval(teamId, approvalId))!,
    ]);
    await this.acting.applyRecommendations(teamId, approval!.pipelineName, approval!.runId, pending, 'now');
  }

  private async describeApprovals(rows: PipelineApprovalRow[]): Promise<Approval[]> {
    const [items, emails] = await Promise.all([
      this.deps.runs.listApprovalItems(rows.map((row) => row.id)),
      this.deps.reads.readEmails(rows.flatMap((row) => [row.proposedBy, row.decidedBy])),
    ]);
    const answers: Approval[] = [];
    for (const row of rows) {
      const own = items.filter((item) => item.approvalId === row.id).map(toItem);
      answers.push({
        id: row.id,
        pipelineId: row.pipelineId,
        pipelineName: (await this.deps.pipelines.findPipelineName(row.pipelineId)) ?? '',
        runId: row.runId,
        action: row.action,
        state: row.state,
        proposedBy: emails.get(row.proposedBy ?? '') ?? '',
        proposedAt: row.proposedAt.toISOString(),
        runsAfter: row.runsAfter.toISOString(),
        decidedBy: row.decidedBy ? (emails.get(row.decidedBy) ?? '') : null,
        decidedAt: row.decidedAt?.toISOString() ?? null,
        items: own,
        annualSaving: roundCents(own.reduce((total, item) => total + item.annualSaving, 0)),
      });
    }
    return answers;
  }
}

// The approval's items still waiting, skipped as rejected with `detail`; answers them.
async function skipWaitingItems(
  runs: RunsRepository,
  approvalId: string,
  detail: string,
): Promise<PipelineRunItemRow[]> {
  const items = (await runs.listApprovalItems([approvalId])).filter(
    (item) => item.reason === 'awaitingApproval',
  );
  for (const item of items) {
    await runs.updateItem(item.id, { outcome: 'skipped', reason: 'rejected', detail });
  }
  return items;
}
