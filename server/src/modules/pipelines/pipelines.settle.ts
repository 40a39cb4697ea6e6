// How a run ends: its counts and state read from its items, once its recommendations are applied or
// when a change it asked for settles unmade (automation tells it, in the transaction that ends the
// change), and its failed-run alert.
import { roundCents } from '@cloudtrim/contracts/money';
import type { Transaction } from '../../db/transaction';
import type { PipelineChangeSettlement } from '../automation/automation.pipeline-hook';
import type { PipelineDeps } from './pipelines.context';
import { raiseFailedRunAlert } from './pipelines.notice';
import { PipelinesRepository } from './pipelines.repository';
import { RunsRepository, type PipelineRunRow } from './pipelines.runs.repository';

export class RunSettlement {
  constructor(private readonly deps: PipelineDeps) {}

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
    const runs = new RunsRepository(transaction.db);
    const run = await runs.lockRun(settlement.runId);
    if (!run) return;
    const skip = settlement.outcome === 'cancelled' ? settlement.skip : null;
    const isUpdated = await runs.updateActedItem(
      settlement.runId,
      settlement.resourceId,
      skip
        ? { outcome: 'skipped', reason: skip, detail: settlement.reason }
        : { outcome: 'failed', reason: null, detail: settlement.reason },
    );
    if (!isUpdated) return;
    // A run still applying its recommendations stays running; its own end reads the counts again.
    await this.finishRun(transaction, run.id, run.state === 'running', run.finishedAt ?? this.deps.now());
  }

  // The run's counts from its items; running while recommendations are still being applied, then
  // awaiting approval while any item waits, else failed or succeeded. A run that ends failed raises
  // its alert in the same transaction (once per run: pipelines.notice.ts). The run's row is locked
  // first, so a change settling meanwhile and this end read each other's items.
  async finishRun(
    transaction: Transaction,
    runId: string,
    isApplying: boolean,
    finishedAt: Date = this.deps.now(),
  ): Promise<void> {
    const runs = new RunsRepository(transaction.db);
    const run = await runs.lockRun(runId);
    if (!run) return;
    const { waiting, ...counts } = await runs.readRunCounts(runId);
    const state = isApplying
      ? 'running'
      : waiting > 0
        ? 'awaitingApproval'
        : counts.failed > 0
          ? 'failed'
          : 'succeeded';
    await runs.finishRun(
      runId,
      { ...counts, annualSaving: roundCents(counts.annualSaving) },
      state,
      isApplying ? null : finishedAt,
    );
    if (state === 'failed') await this.raiseFailedRunAlert(transaction, run);
  }

  private async raiseFailedRunAlert(transaction: Transaction, run: PipelineRunRow): Promise<void> {
    const pipelines = new PipelinesRepository(transaction.db);
    const runs = new RunsRepository(transaction.db);
    const [name, definition, items] = await Promise.all([
      pipelines.findPipelineName(run.pipelineId),
      pipelines.findVersion(run.pipelineId, run.version),
      runs.listItems(run.id),
    ]);
    if (!definition) return;
    await raiseFailedRunAlert(this.deps.alerts, transaction, {
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
      link: `${this.deps.publicUrl}/automation`,
    });
  }
}
