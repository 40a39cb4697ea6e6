// A pipeline's runs: Run pressed, a run's evaluation through the gates with its claim, streaks,
// items, approval, notices and changes committed together (recommendations applied after, through
// pipelines.acting.ts), the team's blast radius fenced under its lock, and the runs as the contract
// has them.
import { pageSize } from '@cloudtrim/contracts/paging';
import {
  pipelineRunListQuerySchema,
  pipelineRunRequestSchema,
  type PipelineRunDetail,
  type PipelineRunListResponse,
} from '@cloudtrim/contracts/pipelines';
import type { Transaction } from '../../db/transaction';
import { notFound } from '../../lib/http-errors';
import type { AuthContext } from '../auth/auth.service';
import type { PipelineActing } from './pipelines.acting';
import type { PipelineApprovalFlow } from './pipelines.approval-flow';
import type { PipelineDeps } from './pipelines.context';
import { findPipeline } from './pipelines.definitions';
import { blastRadiusWindowMs, capToTeamBlastRadius } from './pipelines.limits';
import { PipelineLimitsRepository } from './pipelines.limits.repository';
import { isChangePlan, parse, toItem, toItemRow, toRun } from './pipelines.mapping';
import { evaluatePipeline, type EvaluatedItem } from './pipelines.match';
import { renderNotifyMail } from './pipelines.notice';
import type { PipelinePreview } from './pipelines.preview';
import { PipelineReads } from './pipelines.reads';
import { PipelinesRepository, type PipelineWithDefinition } from './pipelines.repository';
import { RunsRepository } from './pipelines.runs.repository';
import type { RunSettlement } from './pipelines.settle';

export type RunTrigger =
  | { kind: 'schedule'; tick: Date }
  | { kind: 'manual'; userId: string; dryRun: boolean };

export class PipelineRuns {
  constructor(
    private readonly deps: PipelineDeps,
    private readonly preview: PipelinePreview,
    private readonly settlement: RunSettlement,
    private readonly acting: PipelineActing,
    private readonly approvalFlow: PipelineApprovalFlow,
  ) {}

  async runNow(auth: AuthContext, id: string, input: unknown): Promise<PipelineRunDetail> {
    const { dryRun } = parse(pipelineRunRequestSchema, input);
    const pipeline = await findPipeline(this.deps.pipelines, auth.teamId, id);
    const runId = await this.executeRun(pipeline, { kind: 'manual', userId: auth.userId, dryRun });
    return this.getRun(auth.teamId, runId!);
  }

  async listRuns(teamId: string, id: string, query: unknown): Promise<PipelineRunListResponse> {
    const { offset } = parse(pipelineRunListQuerySchema, query);
    const pipeline = await findPipeline(this.deps.pipelines, teamId, id);
    const [rows, total] = await Promise.all([
      this.deps.runs.listRuns(id, { offset, limit: pageSize }),
      this.deps.runs.countRuns(id),
    ]);
    const emails = await this.deps.reads.readEmails(rows.map((row) => row.startedBy));
    return { runs: rows.map((row) => toRun(row, pipeline.name, emails)), total };
  }

  async getRun(teamId: string, runId: string): Promise<PipelineRunDetail> {
    const row = await this.deps.runs.findRun(teamId, runId);
    if (!row) throw notFound('Run not found.');
    const [name, items, emails] = await Promise.all([
      this.deps.pipelines.findPipelineName(row.pipelineId),
      this.deps.runs.listItems(runId),
      this.deps.reads.readEmails([row.startedBy]),
    ]);
    return { ...toRun(row, name ?? '', emails), items: items.map(toItem) };
  }

  // One run: claimed (a scheduled tick once only), evaluated through the gates, its streaks, items,
  // approval, notices and changes committed together; recommendations are applied after, each through
  // AutomationService's own transaction. Undefined when the tick was claimed already.
  async executeRun(pipeline: PipelineWithDefinition, trigger: RunTrigger): Promise<string | undefined> {
    const definition = pipeline.definition;
    const at = this.deps.now();
    const dryRun = trigger.kind === 'schedule' ? definition.gates.dryRun : trigger.dryRun;
    const proposer = trigger.kind === 'manual' ? trigger.userId : pipeline.versionCreatedBy;
    const outcome = await this.deps.runTransaction(async (transaction) => {
      const pipelines = new PipelinesRepository(transaction.db);
      const runs = new RunsRepository(transaction.db);
      const reads = new PipelineReads(transaction.db);
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
        trigger.kind === 'schedule' ? await runs.insertScheduledRun(run) : await runs.insertRun(run);
      if (!runId) return undefined;
      await pipelines.lockPipeline(pipeline.id);
      const isWindowTick = trigger.kind === 'schedule' && 'maintenanceWindow' in definition.schedule;
      const candidates = await reads.listCandidates(pipeline.teamId, {
        scope: definition.scope,
        windowHour: isWindowTick ? trigger.tick.getUTCHours() : undefined,
        costFrom: this.preview.findCostFrom(definition),
      });
      const items = evaluatePipeline(definition, candidates, {
        now: at,
        dryRun,
        streaks: await pipelines.listStreaks(pipeline.id),
        stopSavings: await this.preview.estimateStopSavings(
          pipelines,
          reads,
          pipeline.teamId,
          definition,
          candidates,
          at,
        ),
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
          ? await this.approvalFlow.proposeApproval(transaction, pipeline, runId, waiting, proposer, at)
          : null;
      const acting = items.filter((item) => item.outcome === 'acted');
      const rows = await runs.insertItems(
        items.map((item) =>
          toItemRow(
            runId,
            item.plan === 'apply' && item.outcome === 'acted' ? { ...item, outcome: 'matched' } : item,
            item.reason === 'awaitingApproval' ? approvalId : null,
          ),
        ),
      );
      const byResource = new Map(rows.map((row) => [row.resourceId, row]));
      await this.acting.requestChanges(
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
      await this.acting.recordActivity(
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
          `${this.deps.publicUrl}/automation`,
        );
        const members = await reads.listMembers(pipeline.teamId);
        await this.deps.mail.enqueueMany(
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
      await this.settlement.finishRun(transaction, runId, pending.length > 0);
      return { runId, pending };
    });
    if (!outcome) return undefined;
    // A window pipeline run by hand plans at each resource's window; a deletion is never scheduled.
    const isAtWindow =
      'maintenanceWindow' in definition.schedule &&
      trigger.kind === 'manual' &&
      definition.action.type !== 'delete';
    const timing = isAtWindow ? 'window' : 'now';
    await this.acting.applyRecommendations(
      pipeline.teamId,
      pipeline.name,
      outcome.runId,
      outcome.pending,
      timing,
    );
    return outcome.runId;
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
}
