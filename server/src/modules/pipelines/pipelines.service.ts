// Automation pipelines (issue 19): a team's policies, kept as versions, run on their schedule (one run
// per pipeline and tick, whatever the workers) or now, through their gates, acting only through
// AutomationService (the one writer of changes), with approvals for destructive actions.
import { roundCents } from '@cloudtrim/contracts/money';
import { pageSize } from '@cloudtrim/contracts/paging';
import {
  approvalDecisionRequestSchema,
  approvalRoleText,
  createPipelineJsonSchema,
  pipelineDefinitionSchema,
  pipelineImportRequestSchema,
  pipelineListQuerySchema,
  pipelineOptOutTag,
  pipelineRunListQuerySchema,
  pipelineRunRequestSchema,
  pipelineTeamLimitsSchema,
  type Approval,
  type ApprovalListResponse,
  type Pipeline,
  type PipelineDefinition,
  type PipelineItem,
  type PipelineListResponse,
  type PipelinePreviewResponse,
  type PipelineRun,
  type PipelineRunDetail,
  type PipelineRunListResponse,
  type PipelineSkipReason,
  type PipelineSummary,
  type PipelineTeamLimits,
  type PipelineTemplatesResponse,
} from '@cloudtrim/contracts/pipelines';
import type { z } from 'zod';
import type { Transaction, TransactionRunner } from '../../db/transaction';
import { badRequest, conflict, forbidden, HttpError, notFound } from '../../lib/http-errors';
import { ActivityRepository, type NewActivityEntry } from '../activity/activity.repository';
import type { AlertsService } from '../alerts/alerts.service';
import type { AuthContext } from '../auth/auth.service';
import type { PipelineChangeSettlement } from '../automation/automation.pipeline-hook';
import type { AutomationService, ChangeRequest } from '../automation/automation.service';
import type { MailService } from '../mail/mail.service';
import { readBillDays } from '../recommendations/own-rates';
import type { RecommendationsRepository } from '../recommendations/recommendations.repository';
import {
  describeScope,
  evaluatePipeline,
  isOptedOut,
  listStopTargets,
  type EvaluatedItem,
  type PipelineCandidate,
  type PipelinePlan,
  type StopSaving,
} from './pipelines.match';
import {
  describePipelineService,
  raiseApprovalAlert,
  raiseFailedRunAlert,
  renderNotifyMail,
  settleApprovalAlert,
} from './pipelines.notice';
import {
  PipelinesRepository,
  type NewPipelineRunItem,
  type PipelineApprovalRow,
  type PipelineRunItemRow,
  type PipelineRunRow,
  type PipelineWithDefinition,
} from './pipelines.repository';
import { findApprovalRefusal, findRejectionRefusal, findRunsAfter, toActionKey } from './pipelines.approvals';
import { ApprovalsRepository } from './pipelines.approvals.repository';
import {
  blastRadiusWindowMs,
  capToTeamBlastRadius,
  checkCronInterval,
  describeOverTeamBlastRadius,
  findOverTeamBlastRadius,
  rankByTeam,
  maxPipelinesPerTeam,
  readMinimumIntervalMinutes,
  runItemRetentionDays,
} from './pipelines.limits';
import { PipelineLimitsRepository } from './pipelines.limits.repository';
import { estimateStopSavings } from './pipelines.savings';
import { checkCron, findDueTick, findNextTick, pipelineCatchUpMs } from './pipelines.schedule';
import { pipelineTemplates } from './pipelines.templates';
import { readPipelineYaml, writePipelineYaml } from './pipelines.yaml';
import { dayMs } from '../../lib/time';

// A bad pipeline file: 400 with the line and field at fault.
export class PipelineFileError extends HttpError {
  constructor(
    message: string,
    field: string | undefined,
    readonly line: number,
  ) {
    super(400, message, field);
  }
}

type RunTrigger = { kind: 'schedule'; tick: Date } | { kind: 'manual'; userId: string; dryRun: boolean };

// An item acted on through applyRecommendation after its run's transaction (it runs its own).
interface PendingApply {
  itemId: number;
  recommendationId: number;
  resourceArmId: string;
  resourceName: string;
  tenantId: string | null;
}

// A run still applying its recommendations is left to its worker this long before a tick resumes it
// (a resumed item is acted on once either way; this only spares Azure a second look).
const resumeAfterMs = 5 * 60_000;

export class PipelinesService {
  constructor(
    private readonly pipelines: PipelinesRepository,
    private readonly runTransaction: TransactionRunner,
    private readonly automation: Pick<AutomationService, 'requestChanges' | 'applyRecommendation'>,
    private readonly mail: Pick<MailService, 'enqueueMany'>,
    private readonly alerts: Pick<AlertsService, 'raise' | 'acknowledgeByKey' | 'reviseByKey'>,
    // A VM's bill, for what stopping it saves an hour.
    private readonly bills: Pick<RecommendationsRepository, 'listVmBills'>,
    private readonly publicUrl: string,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async listPipelines(teamId: string, query: unknown): Promise<PipelineListResponse> {
    const { offset } = parse(pipelineListQuerySchema, query);
    const [rows, total] = await Promise.all([
      this.pipelines.listForTeam(teamId, { offset, limit: pageSize }),
      this.pipelines.countForTeam(teamId),
    ]);
    return { pipelines: await this.describePipelines(teamId, rows), total };
  }

  async getPipeline(teamId: string, id: string): Promise<Pipeline> {
    return this.describePipeline(teamId, await this.findPipeline(teamId, id));
  }

  async createPipeline(auth: AuthContext, input: unknown): Promise<Pipeline> {
    const definition = await this.checkDefinition(auth.teamId, parse(pipelineDefinitionSchema, input));
    const id = await this.runTransaction(async (transaction) => {
      // Counted under the team's lock: two saves at 99 cannot make 101.
      const limits = new PipelineLimitsRepository(transaction.db);
      await limits.lockTeam(auth.teamId);
      if ((await limits.countPipelines(auth.teamId)) >= maxPipelinesPerTeam) {
        throw conflict(`A team may have at most ${maxPipelinesPerTeam} pipelines.`);
      }
      return new PipelinesRepository(transaction.db).insert(auth.teamId, auth.userId, definition, this.now());
    });
    return this.getPipeline(auth.teamId, id);
  }

  // An edit is a new version; runs keep the version they used, and the state stays as it was.
  async updatePipeline(auth: AuthContext, id: string, input: unknown): Promise<Pipeline> {
    await this.findPipeline(auth.teamId, id);
    const definition = await this.checkDefinition(auth.teamId, parse(pipelineDefinitionSchema, input));
    const isSaved = await this.runTransaction(async (transaction) => {
      const pipelines = new PipelinesRepository(transaction.db);
      await pipelines.lockPipeline(id);
      return pipelines.addVersion(auth.teamId, id, auth.userId, definition, this.now());
    });
    if (!isSaved) throw notFound('Pipeline not found.');
    return this.getPipeline(auth.teamId, id);
  }

  // A deleted pipeline takes its waiting approvals with it, and their alerts leave the top bar.
  async deletePipeline(auth: AuthContext, id: string): Promise<void> {
    const isDeleted = await this.runTransaction(async (transaction) => {
      const waiting = await new PipelinesRepository(transaction.db).delete(auth.teamId, id);
      if (!waiting) return false;
      for (const approvalId of waiting) {
        await settleApprovalAlert(
          this.alerts,
          transaction,
          { teamId: auth.teamId, id: approvalId },
          auth.userId,
        );
      }
      return true;
    });
    if (!isDeleted) throw notFound('Pipeline not found.');
  }

  // Pausing cancels the pipeline's approvals that have not run, approved or still waiting: a paused
  // pipeline acts on nothing.
  async setPipelineState(auth: AuthContext, id: string, state: 'active' | 'paused'): Promise<Pipeline> {
    const isSet = await this.runTransaction(async (transaction) => {
      const at = this.now();
      if (
        !(await new PipelinesRepository(transaction.db).setState(auth.teamId, id, state, auth.userId, at))
      ) {
        return false;
      }
      if (state === 'paused') await this.cancelOpenApprovals(transaction, auth, id);
      return true;
    });
    if (!isSet) throw notFound('Pipeline not found.');
    return this.getPipeline(auth.teamId, id);
  }

  private async cancelOpenApprovals(
    transaction: Transaction,
    auth: AuthContext,
    pipelineId: string,
  ): Promise<void> {
    const pipelines = new PipelinesRepository(transaction.db);
    const approvals = new ApprovalsRepository(transaction.db);
    for (const approval of await approvals.lockOpenForPipeline(auth.teamId, pipelineId)) {
      await pipelines.updateApproval(approval.id, { state: 'cancelled' });
      await approvals.release(approval.id);
      if (approval.state === 'waiting')
        await settleApprovalAlert(this.alerts, transaction, approval, auth.userId);
      const items = (await pipelines.listApprovalItems([approval.id])).filter(
        (item) => item.reason === 'awaitingApproval',
      );
      for (const item of items) {
        await pipelines.updateItem(item.id, {
          outcome: 'skipped',
          reason: 'rejected',
          detail: `Cancelled: ${auth.email} paused the pipeline`,
        });
      }
      await this.finishRun(transaction, approval.runId, false);
    }
  }

  listTemplates(): PipelineTemplatesResponse {
    return { templates: [...pipelineTemplates] };
  }

  getJsonSchema(): Record<string, unknown> {
    return createPipelineJsonSchema();
  }

  // The builder's live dry run: the definition against the team's resources now. Nothing is written,
  // in Azure or here, and in-a-row is not counted.
  async previewPipeline(teamId: string, input: unknown): Promise<PipelinePreviewResponse> {
    const definition = parse(pipelineDefinitionSchema, input);
    const candidates = await this.pipelines.listCandidates(teamId, {
      scope: definition.scope,
      costFrom: this.findCostFrom(definition),
    });
    const now = this.now();
    const items = evaluatePipeline(definition, candidates, {
      now,
      dryRun: true,
      stopSavings: await this.estimateStopSavings(this.pipelines, teamId, definition, candidates, now),
    });
    const wouldAct = items.filter((item) => item.outcome === 'matched');
    return {
      items: items.map((item) => toItem(toItemRow('', item, null))),
      matched: items.length,
      wouldAct: wouldAct.length,
      annualSaving: roundCents(wouldAct.reduce((total, item) => total + item.annualSaving, 0)),
    };
  }

  async runNow(auth: AuthContext, id: string, input: unknown): Promise<PipelineRunDetail> {
    const { dryRun } = parse(pipelineRunRequestSchema, input);
    const pipeline = await this.findPipeline(auth.teamId, id);
    const runId = await this.executeRun(pipeline, { kind: 'manual', userId: auth.userId, dryRun });
    return this.getRun(auth.teamId, runId!);
  }

  async listRuns(teamId: string, id: string, query: unknown): Promise<PipelineRunListResponse> {
    const { offset } = parse(pipelineRunListQuerySchema, query);
    const pipeline = await this.findPipeline(teamId, id);
    const [rows, total] = await Promise.all([
      this.pipelines.listRuns(id, { offset, limit: pageSize }),
      this.pipelines.countRuns(id),
    ]);
    const emails = await this.pipelines.readEmails(rows.map((row) => row.startedBy));
    return { runs: rows.map((row) => toRun(row, pipeline.name, emails)), total };
  }

  async getRun(teamId: string, runId: string): Promise<PipelineRunDetail> {
    const row = await this.pipelines.findRun(teamId, runId);
    if (!row) throw notFound('Run not found.');
    const [name, items, emails] = await Promise.all([
      this.pipelines.findPipelineName(row.pipelineId),
      this.pipelines.listItems(runId),
      this.pipelines.readEmails([row.startedBy]),
    ]);
    return { ...toRun(row, name ?? '', emails), items: items.map(toItem) };
  }

  async exportPipeline(teamId: string, id: string): Promise<string> {
    const pipeline = await this.findPipeline(teamId, id);
    return writePipelineYaml(pipeline.definition, `${this.publicUrl}/api/v1/pipeline/schema.json`);
  }

  // A file becomes a new pipeline; a bad one answers 400 with its line and field, and saves nothing.
  async importPipeline(auth: AuthContext, input: unknown): Promise<Pipeline> {
    const { yaml } = parse(pipelineImportRequestSchema, input);
    const read = readPipelineYaml(yaml);
    if ('fault' in read) throw new PipelineFileError(read.fault.message, read.fault.field, read.fault.line);
    return this.createPipeline(auth, read.definition);
  }

  // Each with why the signed-in user may not approve it, and whether they may reject it.
  async listApprovals(auth: AuthContext): Promise<ApprovalListResponse> {
    const { rows, decider, proposers } = await this.runTransaction(async (transaction) => {
      const approvals = new ApprovalsRepository(transaction.db);
      const open = await approvals.listOpen(auth.teamId, auth.userId);
      return {
        rows: open,
        decider: await approvals.findDecider(auth.teamId, auth.userId),
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
    const pending = await this.runTransaction(async (transaction) => {
      const pipelines = new PipelinesRepository(transaction.db);
      const approvals = new ApprovalsRepository(transaction.db);
      const approval = await pipelines.lockApproval(auth.teamId, id);
      if (!approval) throw notFound('Approval not found.');
      const decider = await approvals.findDecider(auth.teamId, auth.userId);
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
      const at = this.now();
      const runsAfter = decision === 'approve' ? findRunsAfter(approval, at) : approval.runsAfter;
      await pipelines.updateApproval(id, {
        state: decision === 'approve' ? 'approved' : 'rejected',
        decidedBy: auth.userId,
        decidedAt: at,
      });
      if (runsAfter.getTime() !== approval.runsAfter.getTime()) await approvals.setRunsAfter(id, runsAfter);
      if (!isVeto) await settleApprovalAlert(this.alerts, transaction, approval, auth.userId);
      if (decision === 'reject') {
        await this.rejectApproval(transaction, approval, auth.email);
        return [];
      }
      if (runsAfter.getTime() > at.getTime()) return [];
      return this.carryOutApproval(transaction, approval, auth.email);
    });
    await this.applyPending(auth.teamId, id, pending);
    const [row] = await this.describeApprovals([(await this.pipelines.findApproval(auth.teamId, id))!]);
    return row!;
  }

  // Every minute: each active pipeline whose tick is due runs once (the tick's claim decides), then
  // the approved actions whose grace period is over are carried out, and runs whose worker died are
  // finished. Each pipeline is evaluated on its own: one that fails is its own failed run, and holds
  // up neither the others nor the approvals and resumptions after them. Answers the runs made.
  async runDuePipelines(): Promise<number> {
    const now = this.now();
    let runs = 0;
    const windowHours = new Map<string, Promise<number[]>>();
    for (const pipeline of await this.pipelines.listActive()) {
      if (await this.runIfDue(pipeline, now, windowHours)) runs += 1;
    }
    const errors: unknown[] = [];
    await this.carryOutDueApprovals().catch((error: unknown) => errors.push(error));
    await this.resumeRuns().catch((error: unknown) => errors.push(error));
    if (errors.length > 0) throw errors[0];
    return runs;
  }

  // One pipeline's scheduled run for its tick due at `now`, if any; its failure is recorded as its
  // run's, failed, and never thrown to the tick. True when a run was made.
  async runIfDue(
    pipeline: PipelineWithDefinition,
    now: Date,
    windowHours = new Map<string, Promise<number[]>>(),
  ): Promise<boolean> {
    const tick = await this.findDue(pipeline, now, windowHours);
    return tick ? this.runForTick(pipeline, tick) : false;
  }

  // The tick job's side of fairness: each due pipeline whose tick no run has claimed yet is handed to
  // `send` (one pipeline-run job each, ranked within its team: pipelines.limits.ts rankByTeam), then
  // approvals past their grace and stalled runs are seen to. Answers how many were sent.
  async dispatchDuePipelines(
    send: (due: { pipelineId: string; teamId: string; tick: string; priority: number }[]) => Promise<void>,
  ): Promise<number> {
    const now = this.now();
    const windowHours = new Map<string, Promise<number[]>>();
    const due: { pipelineId: string; teamId: string; tick: string }[] = [];
    const active = await this.pipelines.listActive();
    const claimed = await this.runTransaction((transaction) =>
      new PipelineLimitsRepository(transaction.db).listClaimedTicks(
        active.map((pipeline) => pipeline.id),
        new Date(now.getTime() - pipelineCatchUpMs),
      ),
    );
    for (const pipeline of active) {
      const tick = await this.findDue(pipeline, now, windowHours);
      if (!tick || claimed.has(`${pipeline.id}:${tick.toISOString()}`)) continue;
      due.push({ pipelineId: pipeline.id, teamId: pipeline.teamId, tick: tick.toISOString() });
    }
    await send(rankByTeam(due));
    const errors: unknown[] = [];
    await this.carryOutDueApprovals().catch((error: unknown) => errors.push(error));
    await this.resumeRuns().catch((error: unknown) => errors.push(error));
    if (errors.length > 0) throw errors[0];
    return due.length;
  }

  // A pipeline-run job: the pipeline as it is now (paused or deleted since: nothing), run for its tick.
  async runScheduledPipeline(teamId: string, pipelineId: string, tick: Date): Promise<boolean> {
    const pipeline = await this.pipelines.findForTeam(teamId, pipelineId);
    if (!pipeline || pipeline.state !== 'active') return false;
    return this.runForTick(pipeline, tick);
  }

  // The tick due at `now`, if any; a schedule that cannot be read is that pipeline's failed run.
  private async findDue(
    pipeline: PipelineWithDefinition,
    now: Date,
    windowHours: Map<string, Promise<number[]>>,
  ): Promise<Date | undefined> {
    try {
      const tick = findDueTick(pipeline.definition.schedule, now, pipeline.activeSince);
      if (!tick) return undefined;
      // A window pipeline's hour in which none of the team's resources has its window is no run.
      if ('maintenanceWindow' in pipeline.definition.schedule) {
        if (!windowHours.has(pipeline.teamId)) {
          windowHours.set(pipeline.teamId, this.pipelines.listWindowHours(pipeline.teamId));
        }
        if (!(await windowHours.get(pipeline.teamId)!).includes(tick.getUTCHours())) return undefined;
      }
      return tick;
    } catch (error) {
      // A schedule that cannot be read has no tick: its one failed run is for its activation.
      await this.recordFailedRun(pipeline, pipeline.activeSince, error);
      return undefined;
    }
  }

  private async runForTick(pipeline: PipelineWithDefinition, tick: Date): Promise<boolean> {
    try {
      return (await this.executeRun(pipeline, { kind: 'schedule', tick })) !== undefined;
    } catch (error) {
      await this.recordFailedRun(pipeline, tick, error);
      return true;
    }
  }

  // A scheduled evaluation that threw: its tick's run, failed, so the tick is not tried again each
  // minute and the team sees it (a run committed before the failure keeps its own state).
  private async recordFailedRun(pipeline: PipelineWithDefinition, tick: Date, error: unknown): Promise<void> {
    const at = this.now();
    await this.runTransaction(async (transaction) => {
      const runId = await new PipelinesRepository(transaction.db).insertScheduledRun({
        pipelineId: pipeline.id,
        teamId: pipeline.teamId,
        version: pipeline.version,
        trigger: 'schedule',
        dryRun: pipeline.definition.gates.dryRun,
        state: 'failed',
        scheduledFor: tick,
        startedBy: null,
        startedAt: at,
        finishedAt: at,
      });
      if (!runId) return;
      await new ActivityRepository(transaction.db).insertManyInTransaction([
        {
          teamId: pipeline.teamId,
          tenantId: null,
          serviceName: describePipelineService(pipeline.name),
          resourceArmId: null,
          logText: `The run failed: ${error instanceof Error ? error.message : String(error)}`,
        },
      ]);
    });
  }

  async carryOutDueApprovals(): Promise<number> {
    let carried = 0;
    for (;;) {
      const outcome = await this.runTransaction(async (transaction) => {
        const approval = await new PipelinesRepository(transaction.db).lockDueApproval(this.now());
        if (!approval) return undefined;
        const emails = await new PipelinesRepository(transaction.db).readEmails([approval.decidedBy]);
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

  // One run: claimed (a scheduled tick once only), evaluated through the gates, its streaks, items,
  // approval, notices and changes committed together; recommendations are applied after, each through
  // AutomationService's own transaction. Undefined when the tick was claimed already.
  private async executeRun(
    pipeline: PipelineWithDefinition,
    trigger: RunTrigger,
  ): Promise<string | undefined> {
    const definition = pipeline.definition;
    const at = this.now();
    const dryRun = trigger.kind === 'schedule' ? definition.gates.dryRun : trigger.dryRun;
    const proposer = trigger.kind === 'manual' ? trigger.userId : pipeline.versionCreatedBy;
    const outcome = await this.runTransaction(async (transaction) => {
      const pipelines = new PipelinesRepository(transaction.db);
      const run = {
        pipelineId: pipeline.id,
        teamId: pipeline.teamId,
        version: pipeline.version,
        trigger: trigger.kind,
        dryRun,
        scheduledFor: trigger.kind === 'schedule' ? trigger.tick : at,
        startedBy: trigger.kind === 'manual' ? trigger.userId : null,
        startedAt: at,
      };
      const runId =
        trigger.kind === 'schedule'
          ? await pipelines.insertScheduledRun(run)
          : await pipelines.insertRun(run);
      if (!runId) return undefined;
      await pipelines.lockPipeline(pipeline.id);
      const isWindowTick = trigger.kind === 'schedule' && 'maintenanceWindow' in definition.schedule;
      const candidates = await pipelines.listCandidates(pipeline.teamId, {
        scope: definition.scope,
        windowHour: isWindowTick ? trigger.tick.getUTCHours() : undefined,
        costFrom: this.findCostFrom(definition),
      });
      const items = evaluatePipeline(definition, candidates, {
        now: at,
        dryRun,
        streaks: await pipelines.listStreaks(pipeline.id),
        stopSavings: await this.estimateStopSavings(pipelines, pipeline.teamId, definition, candidates, at),
      });
      if (!dryRun && definition.action.type !== 'notify') {
        await this.fenceTeamBlastRadius(transaction, pipeline.teamId, items, at);
      }
      // The in-a-row gate counts scheduled evaluations only: pressing Run does not satisfy it.
      if (trigger.kind === 'schedule')
        await pipelines.recordEvaluation(
          pipeline.id,
          candidates.map((candidate) => candidate.resourceId),
          items.filter((item) => item.reason !== 'optedOut').map((item) => item.candidate.resourceId),
          at,
        );
      const waiting = items.filter((item) => item.reason === 'awaitingApproval');
      const approvalId =
        waiting.length > 0
          ? await this.proposeApproval(transaction, pipeline, runId, waiting, proposer, at)
          : null;
      const acting = items.filter((item) => item.outcome === 'acted');
      const rows = await pipelines.insertItems(
        items.map((item) =>
          toItemRow(
            runId,
            item.plan === 'apply' && item.outcome === 'acted' ? { ...item, outcome: 'matched' } : item,
            item.reason === 'awaitingApproval' ? approvalId : null,
          ),
        ),
      );
      const byResource = new Map(rows.map((row) => [row.resourceId, row]));
      await this.requestChanges(
        transaction,
        pipeline.teamId,
        pipeline.name,
        runId,
        acting
          .filter((item) => isChangePlan(item.plan))
          .map((item) => ({
            resourceId: item.candidate.resourceId,
            tenantId: item.candidate.tenantId,
            armId: item.candidate.armId,
            name: item.candidate.name,
            detail: item.detail,
            plan: item.plan!,
          })),
        definition.action,
      );
      await this.recordActivity(
        transaction,
        pipeline.teamId,
        pipeline.name,
        acting.filter((item) => item.plan !== 'apply'),
      );
      const notified = acting.filter((item) => item.plan === 'notify');
      if (notified.length > 0) {
        const content = renderNotifyMail(
          pipeline.name,
          notified.map((item) => item.candidate.name),
          `${this.publicUrl}/automation`,
        );
        const members = await pipelines.listMembers(pipeline.teamId);
        await this.mail.enqueueMany(
          members.map((member) => ({ to: member.email, content })),
          { db: transaction },
        );
      }
      const pending = acting
        .filter((item) => item.plan === 'apply' && item.recommendationId !== null)
        .map((item) => ({
          itemId: byResource.get(item.candidate.resourceId)!.id,
          recommendationId: item.recommendationId!,
          resourceArmId: item.candidate.armId,
          resourceName: item.candidate.name,
          tenantId: item.candidate.tenantId,
        }));
      await this.finishRun(transaction, runId, pending.length > 0);
      return { runId, pending };
    });
    if (!outcome) return undefined;
    // A window pipeline run by hand plans at each resource's window; a deletion is never scheduled.
    const isAtWindow =
      'maintenanceWindow' in definition.schedule &&
      trigger.kind === 'manual' &&
      definition.action.type !== 'delete';
    const timing = isAtWindow ? 'window' : 'now';
    await this.applyRecommendations(pipeline.teamId, pipeline.name, outcome.runId, outcome.pending, timing);
    return outcome.runId;
  }

  // Run items older than their 90 days, for every team (the daily purge job); answers how many went.
  async purgeRunItems(): Promise<number> {
    const before = new Date(this.now().getTime() - runItemRetentionDays * dayMs);
    return this.runTransaction((transaction) =>
      new PipelineLimitsRepository(transaction.db).purgeRunItems(before),
    );
  }

  // The team's blast radius an hour, across all its pipelines: counted and taken under the team's lock,
  // held to the run's commit, so two runs at once cannot both pass it.
  private async fenceTeamBlastRadius(
    transaction: Transaction,
    teamId: string,
    items: EvaluatedItem[],
    at: Date,
  ): Promise<void> {
    if (!items.some((item) => item.outcome === 'acted')) return;
    const limits = new PipelineLimitsRepository(transaction.db);
    await limits.lockTeam(teamId);
    const limit = await limits.readBlastRadius(teamId);
    const used = await limits.countActedSince(teamId, new Date(at.getTime() - blastRadiusWindowMs));
    capToTeamBlastRadius(items, limit - used, limit);
  }

  async getTeamLimits(teamId: string): Promise<PipelineTeamLimits> {
    const blastRadiusPerHour = await this.runTransaction((transaction) =>
      new PipelineLimitsRepository(transaction.db).readBlastRadius(teamId),
    );
    return { blastRadiusPerHour };
  }

  async setTeamLimits(teamId: string, input: unknown): Promise<PipelineTeamLimits> {
    const { blastRadiusPerHour } = parse(pipelineTeamLimitsSchema, input);
    await this.runTransaction((transaction) =>
      new PipelineLimitsRepository(transaction.db).setBlastRadius(teamId, blastRadiusPerHour, this.now()),
    );
    return { blastRadiusPerHour };
  }

  // The approval row and its alert (Recent Activity notice, a mail to every other member), in the run's
  // transaction. One open approval per resource and action: a resource an open approval holds already
  // is not proposed again (its item is held), and a run proposing none makes no approval and no mail.
  private async proposeApproval(
    transaction: Transaction,
    pipeline: PipelineWithDefinition,
    runId: string,
    proposed: EvaluatedItem[],
    proposer: string | null,
    at: Date,
  ): Promise<string | null> {
    const pipelines = new PipelinesRepository(transaction.db);
    const approvals = new ApprovalsRepository(transaction.db);
    const runsAfter = new Date(at.getTime() + pipeline.definition.gates.graceMinutes * 60_000);
    const approvalId = await pipelines.insertApproval({
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
    const members = await pipelines.listMembers(pipeline.teamId);
    const notice = {
      pipelineName: pipeline.name,
      action: pipeline.definition.action,
      resourceNames: waiting.map((item) => item.candidate.name),
      proposedBy: members.find((member) => member.id === proposer)?.email ?? 'the pipeline',
      runsAfter,
      link: `${this.publicUrl}/automation`,
    };
    await raiseApprovalAlert(this.alerts, transaction, {
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
    await new ApprovalsRepository(transaction.db).release(approval.id);
    const items = (await pipelines.listApprovalItems([approval.id])).filter(
      (item) => item.reason === 'awaitingApproval',
    );
    for (const item of items) {
      await pipelines.updateItem(item.id, {
        outcome: 'skipped',
        reason: 'rejected',
        detail: `Rejected by ${by}`,
      });
    }
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
    await this.finishRun(transaction, approval.runId, false);
  }

  // The approved items are acted on as their run would have: power changes in this transaction,
  // recommendations (returned) after it. They count against the team's blast radius an hour from now,
  // fenced under the team's lock as a run's are: those past it are skipped, and saying so.
  private async carryOutApproval(
    transaction: Transaction,
    approval: PipelineApprovalRow,
    approvedBy: string,
  ): Promise<PendingApply[]> {
    const at = this.now();
    const pipelines = new PipelinesRepository(transaction.db);
    const limits = new PipelineLimitsRepository(transaction.db);
    // The team's lock first, before the approval's open rows are released: a run holding it may be
    // claiming those rows.
    await limits.lockTeam(approval.teamId);
    await pipelines.updateApproval(approval.id, { state: 'done', carriedOutAt: at });
    await new ApprovalsRepository(transaction.db).release(approval.id);
    const items = (await pipelines.listApprovalItems([approval.id])).filter(
      (item) => item.reason === 'awaitingApproval' && item.resourceId !== null,
    );
    const name = (await pipelines.findPipelineName(approval.pipelineId)) ?? '';
    const plan = toPlan(approval.action.type);
    // The opt-out tag still wins: a resource tagged since the run is left alone.
    const states = await pipelines.readResourceStates(items.map((item) => item.resourceId!));
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
      await pipelines.updateItem(
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
      await this.requestChanges(
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
    await this.finishRun(transaction, approval.runId, plan === 'apply' && approved.length > 0);
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
      (await this.pipelines.findApproval(teamId, approvalId))!,
    ]);
    await this.applyRecommendations(teamId, approval!.pipelineName, approval!.runId, pending, 'now');
  }

  private async requestChanges(
    transaction: Transaction,
    teamId: string,
    pipelineName: string,
    runId: string,
    requests: {
      resourceId: string;
      tenantId: string;
      armId: string;
      name: string;
      detail: string;
      plan: PipelinePlan;
    }[],
    action: PipelineDefinition['action'],
  ): Promise<void> {
    if (requests.length === 0) return;
    const at = this.now();
    const changes: ChangeRequest[] = requests.map((request) => ({
      change: {
        teamId,
        tenantId: request.tenantId,
        resourceId: request.resourceId,
        recommendationId: null,
        kind: request.plan === 'tag' ? 'tag' : request.plan === 'start' ? 'start' : 'deallocate',
        tags: request.plan === 'tag' && action.tag ? { [action.tag.key]: action.tag.value } : null,
        origin: 'pipeline',
        predictionMethod: '',
        previousSize: null,
        newSize: null,
        changeAt: at,
        pipelineRunId: runId,
      },
      resourceArmId: request.armId,
      resourceName: request.name,
      action: `Pipeline ${pipelineName}: ${request.detail}`,
    }));
    await this.automation.requestChanges(transaction, changes);
  }

  // Each through AutomationService (its checks, lock and logs), the item marked acted and its Recent
  // Activity entry written first in the transaction that plans its change: an item another pass (a
  // resumed run) has acted on already is left as it is, so each is acted on once. A refusal fails the
  // item with its sentence, and the run's counts are read again after.
  private async applyRecommendations(
    teamId: string,
    pipelineName: string,
    runId: string,
    pending: PendingApply[],
    timing: 'now' | 'window',
  ): Promise<void> {
    if (pending.length === 0) return;
    await this.applyEach(teamId, pipelineName, runId, pending, timing);
    await this.runTransaction((transaction) => this.finishRun(transaction, runId, false));
  }

  // Each change planned carries the run's id, so its failure in Azure reaches the item
  // (recordSettledChange) as a stop's does.
  private async applyEach(
    teamId: string,
    pipelineName: string,
    runId: string,
    pending: PendingApply[],
    timing: 'now' | 'window',
  ): Promise<void> {
    for (const item of pending) {
      const toEntry = (detail: string) =>
        toActivity(teamId, item.tenantId, pipelineName, item.resourceArmId, item.resourceName, detail);
      const recordActed = async (transaction: Transaction) => {
        const pipelines = new PipelinesRepository(transaction.db);
        if (!(await pipelines.updateMatchedItem(item.itemId, { outcome: 'acted', reason: null })))
          return false;
        await new ActivityRepository(transaction.db).insertManyInTransaction([
          toEntry('Recommendation applied'),
        ]);
        return true;
      };
      try {
        let isRecorded = false;
        await this.automation.applyRecommendation(teamId, item.recommendationId, timing, {
          runId,
          record: (transaction) => {
            isRecorded = true;
            return recordActed(transaction);
          },
        });
        // Applied already (active hours set before): nothing was planned, and nothing recorded yet.
        if (!isRecorded) await this.runTransaction(recordActed);
      } catch (error) {
        if (!(error instanceof HttpError)) throw error;
        const reason: PipelineSkipReason | null = error.statusCode === 403 ? 'readOnly' : null;
        await this.runTransaction(async (transaction) => {
          const isFailed = await new PipelinesRepository(transaction.db).updateMatchedItem(item.itemId, {
            outcome: reason ? 'skipped' : 'failed',
            reason,
            detail: error.message,
          });
          if (isFailed) {
            await new ActivityRepository(transaction.db).insertManyInTransaction([toEntry(error.message)]);
          }
        });
      }
    }
  }

  // Runs whose worker died after their commit, their recommendations not all applied (still
  // 'running' some minutes on): each item still matched is applied now, as its run would have, and
  // the run ends with its counts.
  async resumeRuns(): Promise<number> {
    const stalled = await this.pipelines.listStalledRuns(new Date(this.now().getTime() - resumeAfterMs));
    for (const run of stalled) {
      const [name, definition, items] = await Promise.all([
        this.pipelines.findPipelineName(run.pipelineId),
        this.pipelines.findVersion(run.pipelineId, run.version),
        this.pipelines.listItems(run.id),
      ]);
      const matched = items.filter((item) => item.outcome === 'matched' && item.recommendationId !== null);
      const states = await this.pipelines.readResourceStates(
        matched.flatMap((item) => (item.resourceId ? [item.resourceId] : [])),
      );
      const toPending = (item: PipelineRunItemRow): PendingApply => ({
        itemId: item.id,
        recommendationId: item.recommendationId!,
        resourceArmId: item.resourceArmId,
        resourceName: item.resourceName,
        tenantId: states.get(item.resourceId ?? '')?.tenantId ?? null,
      });
      // Approved items are applied now, as their approval does; the others as the run would.
      const isAtWindow =
        definition !== undefined &&
        'maintenanceWindow' in definition.schedule &&
        run.trigger === 'manual' &&
        definition.action.type !== 'delete';
      const approved = matched.filter((item) => item.approvalId !== null).map(toPending);
      const others = matched.filter((item) => item.approvalId === null).map(toPending);
      await this.applyEach(run.teamId, name ?? '', run.id, approved, 'now');
      await this.applyEach(run.teamId, name ?? '', run.id, others, isAtWindow ? 'window' : 'now');
      await this.runTransaction((transaction) => this.finishRun(transaction, run.id, false));
    }
    return stalled.length;
  }

  private async recordActivity(
    transaction: Transaction,
    teamId: string,
    pipelineName: string,
    items: EvaluatedItem[],
  ): Promise<void> {
    await new ActivityRepository(transaction.db).insertManyInTransaction(
      items.map((item) =>
        toActivity(
          teamId,
          item.candidate.tenantId,
          pipelineName,
          item.candidate.armId,
          item.candidate.name,
          item.detail,
        ),
      ),
    );
  }

  // A change the run asked for ended unmade (automation, in the transaction that records the change's
  // end: the executor's failure or cancellation, or a change not begun cancelled): its item, acted
  // until now, says so and the run's counts and state are read again. The rule: a cancellation the run
  // would have skipped had it come first is that skip, with automation's reason (the guard's hold
  // after a rollback: 'held'; the recommendation replaced or withdrawn: 'noRecommendation', the next
  // run takes the new one; the resource set to No Change: 'optedOut'; changed by hand since it was
  // planned, or gone: 'notApplicable'); a failure, or a cancellation for the tenant deactivated, is a
  // failure and raises the run's alert: the change the run promised was not made. Only an item still
  // acted changes, so a replayed or resumed executor run doubles nothing.
  async recordSettledChange(transaction: Transaction, settlement: PipelineChangeSettlement): Promise<void> {
    const pipelines = new PipelinesRepository(transaction.db);
    const run = await pipelines.lockRun(settlement.runId);
    if (!run) return;
    const skip = settlement.outcome === 'cancelled' ? settlement.skip : null;
    const isUpdated = await pipelines.updateActedItem(
      settlement.runId,
      settlement.resourceId,
      skip
        ? { outcome: 'skipped', reason: skip, detail: settlement.reason }
        : { outcome: 'failed', reason: null, detail: settlement.reason },
    );
    if (!isUpdated) return;
    // A run still applying its recommendations stays running; its own end reads the counts again.
    await this.finishRun(transaction, run.id, run.state === 'running', run.finishedAt ?? this.now());
  }

  // The run's counts from its items; running while recommendations are still being applied, then
  // awaiting approval while any item waits, else failed or succeeded. A run that ends failed raises
  // its alert in the same transaction (once per run: pipelines.notice.ts). The run's row is locked
  // first, so a change settling meanwhile and this end read each other's items.
  private async finishRun(
    transaction: Transaction,
    runId: string,
    isApplying: boolean,
    finishedAt: Date = this.now(),
  ): Promise<void> {
    const pipelines = new PipelinesRepository(transaction.db);
    const run = await pipelines.lockRun(runId);
    if (!run) return;
    const { waiting, ...counts } = await pipelines.readRunCounts(runId);
    const state = isApplying
      ? 'running'
      : waiting > 0
        ? 'awaitingApproval'
        : counts.failed > 0
          ? 'failed'
          : 'succeeded';
    await pipelines.finishRun(
      runId,
      { ...counts, annualSaving: roundCents(counts.annualSaving) },
      state,
      isApplying ? null : finishedAt,
    );
    if (state === 'failed') await this.raiseFailedRunAlert(transaction, run);
  }

  private async raiseFailedRunAlert(transaction: Transaction, run: PipelineRunRow): Promise<void> {
    const pipelines = new PipelinesRepository(transaction.db);
    const [name, definition, items] = await Promise.all([
      pipelines.findPipelineName(run.pipelineId),
      pipelines.findVersion(run.pipelineId, run.version),
      pipelines.listItems(run.id),
    ]);
    if (!definition) return;
    await raiseFailedRunAlert(this.alerts, transaction, {
      teamId: run.teamId,
      runId: run.id,
      pipelineName: name ?? '',
      action: definition.action,
      failures: items
        .filter((item) => item.outcome === 'failed')
        .map((item) => ({
          name: item.resourceName,
          armId: item.resourceArmId,
          annualSaving: item.annualSaving,
          detail: item.detail,
        })),
      startedAt: run.startedAt,
      link: `${this.publicUrl}/automation`,
    });
  }

  private async findPipeline(teamId: string, id: string): Promise<PipelineWithDefinition> {
    const pipeline = await this.pipelines.findForTeam(teamId, id);
    if (!pipeline) throw notFound('Pipeline not found.');
    return pipeline;
  }

  // What the contract cannot check: a cron the parser reads, tenants of the team (another team's is
  // not found, as every other team's object is: the cross-team proof).
  private async checkDefinition(teamId: string, definition: PipelineDefinition): Promise<PipelineDefinition> {
    if ('cron' in definition.schedule) {
      const { cron, timeZone } = definition.schedule;
      const error =
        checkCron(cron, timeZone, this.now()) ??
        checkCronInterval(cron, timeZone, this.now(), readMinimumIntervalMinutes(definition));
      if (error) throw badRequest(`Cron: ${error}.`, 'schedule.cron');
    }
    const tenantIds = new Set(await this.pipelines.listTenantIds(teamId));
    if (definition.scope.tenantIds?.some((tenantId) => !tenantIds.has(tenantId))) {
      throw notFound('Tenant not found.');
    }
    return definition;
  }

  // What a stop saves on each running VM it matches, while off until the team's start pipelines bring
  // it back (pipelines.savings.ts): list prices in one read, bills in one a tenant.
  private async estimateStopSavings(
    pipelines: PipelinesRepository,
    teamId: string,
    definition: PipelineDefinition,
    candidates: PipelineCandidate[],
    at: Date,
  ): Promise<Map<string, StopSaving> | undefined> {
    const targets = listStopTargets(definition, candidates);
    if (targets.length === 0) return undefined;
    const { from, to } = readBillDays(at);
    const [starts, listPrices, bills] = await Promise.all([
      pipelines.listStartPipelines(teamId),
      pipelines.listVmListPrices(targets.map((target) => target.resourceId)),
      Promise.all(
        [...new Set(targets.map((target) => target.tenantId))].map((tenantId) =>
          this.bills.listVmBills(tenantId, from, to),
        ),
      ),
    ]);
    const billByArmId = new Map(bills.flat().map((bill) => [bill.armId, bill]));
    return estimateStopSavings(
      definition.schedule,
      starts,
      targets,
      (target) => ({
        bill: billByArmId.get(target.armId.toLowerCase()),
        listHourly: listPrices.get(target.resourceId),
      }),
      at,
    );
  }

  private findCostFrom(definition: PipelineDefinition): string | undefined {
    if (definition.condition.finding?.kind !== 'costOver') return undefined;
    return new Date(this.now().getTime() - 30 * dayMs).toISOString().slice(0, 10);
  }

  private async describePipeline(teamId: string, pipeline: PipelineWithDefinition): Promise<Pipeline> {
    const [summary] = await this.describePipelines(teamId, [pipeline]);
    const emails = await this.pipelines.readEmails([pipeline.createdBy, pipeline.updatedBy]);
    return {
      ...summary!,
      definition: pipeline.definition,
      createdBy: emails.get(pipeline.createdBy ?? '') ?? '',
      updatedBy: emails.get(pipeline.updatedBy ?? '') ?? '',
    };
  }

  private async describePipelines(
    teamId: string,
    rows: PipelineWithDefinition[],
  ): Promise<PipelineSummary[]> {
    const lastRuns = new Map(
      (await this.pipelines.listLastRuns(rows.map((row) => row.id))).map((run) => [run.pipelineId, run]),
    );
    const windowHours = rows.some((row) => 'maintenanceWindow' in row.definition.schedule)
      ? await this.pipelines.listWindowHours(teamId)
      : [];
    const now = this.now();
    return rows.map((row) => {
      const lastRun = lastRuns.get(row.id);
      const nextRunAt =
        row.state === 'active' ? findNextTick(row.definition.schedule, now, windowHours) : null;
      return {
        id: row.id,
        name: row.name,
        state: row.state,
        version: row.version,
        scopeSummary: describeScope(row.definition.scope),
        scope: row.definition.scope,
        action: row.definition.action,
        schedule: row.definition.schedule,
        lastRun: lastRun
          ? {
              id: lastRun.id,
              at: lastRun.startedAt.toISOString(),
              state: lastRun.state,
              dryRun: lastRun.dryRun,
              matched: lastRun.matched,
              acted: lastRun.acted,
            }
          : null,
        nextRunAt: nextRunAt?.toISOString() ?? null,
        updatedAt: row.updatedAt.toISOString(),
      };
    });
  }

  private async describeApprovals(rows: PipelineApprovalRow[]): Promise<Approval[]> {
    const [items, emails] = await Promise.all([
      this.pipelines.listApprovalItems(rows.map((row) => row.id)),
      this.pipelines.readEmails(rows.flatMap((row) => [row.proposedBy, row.decidedBy])),
    ]);
    const answers: Approval[] = [];
    for (const row of rows) {
      const own = items.filter((item) => item.approvalId === row.id).map(toItem);
      answers.push({
        id: row.id,
        pipelineId: row.pipelineId,
        pipelineName: (await this.pipelines.findPipelineName(row.pipelineId)) ?? '',
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

function toPlan(type: PipelineDefinition['action']['type']): PipelinePlan {
  if (type === 'stop' || type === 'deallocate') return 'deallocate';
  if (type === 'start') return 'start';
  if (type === 'notify' || type === 'tag') return type;
  return 'apply';
}

// The plans carried out as scheduled changes by automation's executor (its claim, lease and logs); a
// tag is a merge, so a change written again changes nothing.
function isChangePlan(plan: PipelinePlan | null): boolean {
  return plan === 'deallocate' || plan === 'start' || plan === 'tag';
}

function toItemRow(runId: string, item: EvaluatedItem, approvalId: string | null): NewPipelineRunItem {
  return {
    runId,
    resourceId: item.candidate.resourceId,
    resourceArmId: item.candidate.armId,
    resourceName: item.candidate.name,
    resourceType: item.candidate.subcategory,
    subscriptionId: item.candidate.subscriptionId,
    resourceGroup: item.candidate.resourceGroup,
    outcome: item.outcome,
    reason: item.reason,
    detail: item.detail,
    annualSaving: roundCents(item.annualSaving),
    recommendationId: item.recommendationId,
    approvalId,
  };
}

function toItem(row: NewPipelineRunItem | PipelineRunItemRow): PipelineItem {
  return {
    resourceId: row.resourceArmId,
    resourceName: row.resourceName,
    resourceType: row.resourceType,
    subscriptionId: row.subscriptionId,
    resourceGroup: row.resourceGroup,
    outcome: row.outcome,
    reason: (row.reason ?? null) as PipelineSkipReason | null,
    detail: row.detail,
    annualSaving: row.annualSaving ?? 0,
  };
}

function toRun(row: PipelineRunRow, pipelineName: string, emails: Map<string, string>): PipelineRun {
  return {
    id: row.id,
    pipelineId: row.pipelineId,
    pipelineName,
    version: row.version,
    trigger: row.trigger,
    dryRun: row.dryRun,
    state: row.state,
    scheduledFor: row.scheduledFor.toISOString(),
    startedAt: row.startedAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
    startedBy: row.startedBy ? (emails.get(row.startedBy) ?? null) : null,
    matched: row.matched,
    acted: row.acted,
    skipped: row.skipped,
    failed: row.failed,
    annualSaving: row.annualSaving,
  };
}

function toActivity(
  teamId: string,
  tenantId: string | null,
  pipelineName: string,
  resourceArmId: string,
  resourceName: string,
  detail: string,
): NewActivityEntry {
  return {
    teamId,
    tenantId,
    serviceName: describePipelineService(pipelineName),
    resourceArmId,
    logText: `${resourceName}: ${detail}`,
  };
}

// The routes have validated already; a service called otherwise answers the same 400.
function parse<Schema extends z.ZodType>(schema: Schema, input: unknown): z.infer<Schema> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  throw badRequest(issue.message, issue.path.map(String).join('.') || undefined);
}
