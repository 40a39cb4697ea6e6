// How a run ends its change, each in one transaction with its log entry: succeeded (the resource's
// recorded state, the guard's watch, the recommendation applied), cancelled (nothing done in Azure),
// failed (a VM that ran put back running) or, for a rollback, tried again later. A pipeline run's
// change that fails or is cancelled tells the run (PipelineChangeListener) in that transaction.
import { isBurstable } from '@cloudtrim/rightsizing/burstable-sizes';
import type { CloudProvider } from '../../cloud/cloud-provider';
import type { Transaction, TransactionRunner } from '../../db/transaction';
import type { ActivityService } from '../activity/activity.service';
import {
  AutomationRepository,
  logEntryOf,
  type ChangeRow,
  type ChangeWithResource,
} from './automation.repository';
import { automationServiceName } from './automation.names';
import type { PipelineChangeListener, PipelineChangeSettlement } from './automation.pipeline-hook';
import type { AzureReadBack, RecordedState } from './automation.read-back';
import { inFlight, LostChangeError, type Run } from './automation.run-lease';
import { sameSize } from './automation.vm-steps';
import { describeChange, describeStep } from './automation.wording';

// Why a change is no longer wanted: the text the log says after "cancelled: ", and how a pipeline run
// that asked for it counts it (PipelineChangeSettlement.skip; null: the change failed).
export interface ReasonToStop {
  text: string;
  skip: PipelineChangeSettlement['skip'];
}

export class ChangeOutcomes {
  constructor(
    private readonly automation: AutomationRepository,
    private readonly runTransaction: TransactionRunner,
    private readonly cloud: CloudProvider,
    private readonly activity: ActivityService,
    private readonly now: () => Date,
    private readonly describeFailure: (error: unknown) => string,
    private readonly onPipelineChangeSettled: PipelineChangeListener,
    private readonly readBack: AzureReadBack,
    // ExecutorOptions' guardMs and rollbackRetryMaxMs.
    private readonly options: { guardMs: number; rollbackRetryMaxMs: number },
  ) {}

  // `recorded`: what Azure now says of the resource (null: it is gone, the next sync removes it).
  async succeed(run: Run, action: string, recorded: RecordedState): Promise<void> {
    const { change } = run;
    const at = this.now();
    const isGuarded = await this.isGuardedResize(change);
    await this.runTransaction(async (transaction) => {
      const automation = new AutomationRepository(transaction.db);
      const isRecorded = await automation.updateRun(change.id, run.token, inFlight, {
        state: 'succeeded',
        step: null,
        operationUrl: null,
        completedAt: at,
        claimToken: null,
        leaseUntil: null,
        error: null,
        guardUntil: isGuarded ? new Date(at.getTime() + this.options.guardMs) : null,
      });
      if (!isRecorded) throw new LostChangeError();
      if (recorded)
        await automation.effects.recordResourceState(
          change.resourceId,
          recorded.size,
          recorded.powerState,
          at,
        );
      if (change.kind === 'tag')
        await automation.effects.mergeResourceTags(change.resourceId, change.tags ?? {});
      if (change.recommendationId !== null && change.origin !== 'guard') {
        await automation.effects.setRecommendationStatus(change.recommendationId, 'applied');
      }
      await automation.log.insertLog(logEntryOf(change, action));
    });
    await this.recordActivity(change, action);
  }

  // The guard watches a VM made smaller (fewer vCPUs or less memory) or moved to a burstable size
  // (held to its base once its credits run out); going back from a larger size could only make a hot
  // VM hotter. A size the catalogue does not know is not guarded.
  private async isGuardedResize(change: ChangeRow): Promise<boolean> {
    if (change.kind !== 'resize' || !change.previousSize || !change.newSize) return false;
    if (isBurstable({ name: change.newSize })) return true;
    return (
      (await this.automation.effects.isSmallerSize(
        change.resourceId,
        change.previousSize,
        change.newSize,
      )) === true
    );
  }

  // Nothing was done in Azure: the change ends cancelled, and says why.
  async cancel(run: Run, reason: ReasonToStop): Promise<void> {
    const { change } = run;
    const action = `${describeChange(change)} cancelled: ${reason.text}`;
    await this.runTransaction(async (transaction) => {
      const automation = new AutomationRepository(transaction.db);
      const isRecorded = await automation.updateRun(change.id, run.token, ['claimed'], {
        state: 'cancelled',
        error: reason.text.slice(0, 1000),
        completedAt: this.now(),
        claimToken: null,
        leaseUntil: null,
      });
      if (!isRecorded) throw new LostChangeError();
      await automation.log.insertLog(logEntryOf(change, action));
      await this.tellPipeline(transaction, change, 'cancelled', reason);
    });
    await this.recordActivity(change, action);
  }

  // Puts the VM back as it was and says so everywhere. Its size never changed unless the resize
  // succeeded; a VM deallocated for the change is started again if it was running, and when its new
  // size cannot be allocated (AllocationFailed) it goes back to its old size and starts on that.
  async fail(run: Run, reason: string): Promise<void> {
    const { change } = run;
    const restored = await this.restoreRunning(run);
    const action = `${describeChange(change)} failed: ${reason}${restored}`;
    await this.runTransaction(async (transaction) => {
      const automation = new AutomationRepository(transaction.db);
      const isRecorded = await automation.updateRun(change.id, run.token, inFlight, {
        state: 'failed',
        error: reason.slice(0, 1000),
        completedAt: this.now(),
        operationUrl: null,
        claimToken: null,
        leaseUntil: null,
      });
      if (!isRecorded) throw new LostChangeError();
      await automation.log.insertLog(logEntryOf(change, action));
      await this.tellPipeline(transaction, change, 'failed', { text: reason, skip: null });
    });
    await this.recordActivity(change, action);
  }

  // A pipeline run's change ended unmade: its run hears it in the same transaction. The change's own
  // write is fenced by the run's token, so a replayed or resumed run never gets here twice.
  async tellPipeline(
    transaction: Transaction,
    change: ChangeRow,
    outcome: 'failed' | 'cancelled',
    reason: ReasonToStop,
  ): Promise<void> {
    if (change.pipelineRunId === null) return;
    await this.onPipelineChangeSettled(transaction, {
      runId: change.pipelineRunId,
      resourceId: change.resourceId,
      outcome,
      reason: reason.text.slice(0, 1000),
      skip: reason.skip,
    });
  }

  // A rollback undoes a resize that hurt: it is never given up. The VM is put back running, and the
  // rollback is tried again later, waiting longer each time.
  async retryRollbackLater(run: Run, reason: string): Promise<void> {
    const { change } = run;
    const restored = await this.restoreRunning(run);
    const waitMs = Math.min(60_000 * 2 ** Math.min(run.attempts, 10), this.options.rollbackRetryMaxMs);
    const retryAt = new Date(this.now().getTime() + waitMs);
    const action = `${describeStep('resize', change)} attempt ${run.attempts} failed: ${reason}${restored}; trying again at ${retryAt.toISOString()}`;
    await this.runTransaction(async (transaction) => {
      const automation = new AutomationRepository(transaction.db);
      const isRecorded = await automation.updateRun(change.id, run.token, inFlight, {
        error: reason.slice(0, 1000),
        operationUrl: null,
        step: null,
        needsDeallocation: null,
        wasRunning: null,
        claimToken: null,
        leaseUntil: retryAt,
      });
      if (!isRecorded) throw new LostChangeError();
      await automation.log.insertLog(logEntryOf(change, action));
    });
    if (change.error === null) await this.recordActivity(change, action);
  }

  // Whatever failed, a VM that ran before the change runs after it. Answers what was done, for the
  // log ('' when nothing was needed).
  private async restoreRunning(run: Run): Promise<string> {
    const { change } = run;
    if (!change.wasRunning) return '';
    try {
      const machine = await this.readBack.readSettledMachine(run);
      if (machine.powerState === 'running') return '';
      try {
        await this.startMachine(run);
        return '; started again as it was running';
      } catch (error) {
        const isResized = change.previousSize && machine.size && !sameSize(machine.size, change.previousSize);
        if (!isResized || change.kind !== 'resize') throw error;
        // The new size has no capacity: the old one had it a moment ago.
        const operation = await this.cloud.beginResize(
          run.credentials,
          change.resourceArmId,
          change.previousSize!,
          { signal: run.signal },
        );
        if (operation.operationUrl) await this.readBack.waitForOperation(run, operation.operationUrl);
        await this.startMachine(run);
        return `; ${machine.size} could not be started (${this.describeFailure(error)}), so the VM went back to ${change.previousSize} and was started`;
      }
    } catch (error) {
      if (error instanceof LostChangeError) throw error;
      return `; starting it again failed too (${this.describeFailure(error)})`;
    }
  }

  private async startMachine(run: Run): Promise<void> {
    const operation = await this.cloud.beginPowerAction(run.credentials, run.change.resourceArmId, 'start', {
      signal: run.signal,
    });
    if (operation.operationUrl) await this.readBack.waitForOperation(run, operation.operationUrl);
  }

  async log(change: ChangeWithResource, action: string): Promise<void> {
    await this.automation.log.insertLog(logEntryOf(change, action));
  }

  async recordActivity(change: ChangeWithResource, action: string): Promise<void> {
    await this.activity.record([
      {
        teamId: change.teamId,
        tenantId: change.tenantId,
        serviceName: automationServiceName,
        resourceArmId: change.resourceArmId,
        logText: `${change.resourceName}: ${action}`,
      },
    ]);
  }
}
