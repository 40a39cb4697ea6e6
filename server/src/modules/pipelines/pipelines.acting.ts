// How a run acts: its stops, starts and tags asked of AutomationService as scheduled changes (the one
// writer of changes), its notices in Recent Activity, and its recommendations applied through
// AutomationService each in its own transaction after the run's, and again for runs whose worker died.
import type { PipelineDefinition, PipelineSkipReason } from '@cloudtrim/contracts/pipelines';
import type { Transaction } from '../../db/transaction';
import { HttpError } from '../../lib/http-errors';
import { ActivityRepository } from '../activity/activity.repository';
import type { ChangeRequest } from '../automation/automation.service';
import type { PendingApply, PipelineDeps } from './pipelines.context';
import { toActivity } from './pipelines.mapping';
import type { EvaluatedItem, PipelinePlan } from './pipelines.match';
import { RunsRepository, type PipelineRunItemRow } from './pipelines.runs.repository';
import type { RunSettlement } from './pipelines.settle';

// A run still applying its recommendations is left to its worker this long before a tick resumes it
// (a resumed item is acted on once either way; this only spares Azure a second look).
const resumeAfterMs = 5 * 60_000;

export class PipelineActing {
  constructor(
    private readonly deps: PipelineDeps,
    private readonly settlement: RunSettlement,
  ) {}

  async requestChanges(
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
    const at = this.deps.now();
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
    await this.deps.automation.requestChanges(transaction, changes);
  }

  async recordActivity(
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

  // Each through AutomationService (its checks, lock and logs), the item marked acted and its Recent
  // Activity entry written first in the transaction that plans its change: an item another pass (a
  // resumed run) has acted on already is left as it is, so each is acted on once. A refusal fails the
  // item with its sentence, and the run's counts are read again after.
  async applyRecommendations(
    teamId: string,
    pipelineName: string,
    runId: string,
    pending: PendingApply[],
    timing: 'now' | 'window',
  ): Promise<void> {
    if (pending.length === 0) return;
    await this.applyEach(teamId, pipelineName, runId, pending, timing);
    await this.deps.runTransaction((transaction) => this.settlement.finishRun(transaction, runId, false));
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
        const runs = new RunsRepository(transaction.db);
        if (!(await runs.updateMatchedItem(item.itemId, { outcome: 'acted', reason: null }))) return false;
        await new ActivityRepository(transaction.db).insertManyInTransaction([
          toEntry('Recommendation applied'),
        ]);
        return true;
      };
      try {
        let isRecorded = false;
        await this.deps.automation.applyRecommendation(teamId, item.recommendationId, timing, {
          runId,
          record: (transaction) => {
            isRecorded = true;
            return recordActed(transaction);
          },
        });
        // Applied already (active hours set before): nothing was planned, and nothing recorded yet.
        if (!isRecorded) await this.deps.runTransaction(recordActed);
      } catch (error) {
        if (!(error instanceof HttpError)) throw error;
        const reason: PipelineSkipReason | null = error.statusCode === 403 ? 'readOnly' : null;
        await this.deps.runTransaction(async (transaction) => {
          const isFailed = await new RunsRepository(transaction.db).updateMatchedItem(item.itemId, {
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
    const stalled = await this.deps.runs.listStalledRuns(new Date(this.deps.now().getTime() - resumeAfterMs));
    for (const run of stalled) {
      const [name, definition, items] = await Promise.all([
        this.deps.pipelines.findPipelineName(run.pipelineId),
        this.deps.pipelines.findVersion(run.pipelineId, run.version),
        this.deps.runs.listItems(run.id),
      ]);
      const matched = items.filter((item) => item.outcome === 'matched' && item.recommendationId !== null);
      const states = await this.deps.reads.readResourceStates(
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
      await this.deps.runTransaction((transaction) => this.settlement.finishRun(transaction, run.id, false));
    }
    return stalled.length;
  }
}
