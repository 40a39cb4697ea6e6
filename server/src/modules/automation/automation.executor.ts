// Carries out one scheduled change in Azure, exactly once across crashes, stalls and workers.
//
// A run first takes the change (a claim token and a lease, automation.repository's startRun): a
// second run of the same change (a pg-boss retry of a stalled job, a second worker) finds it held
// and ends. Every write of a run matches its token, so a run whose lease lapsed and was replaced
// changes nothing more. Before its first Azure write the run decides, under the VM's lock, that the
// change is still wanted: its recommendation open, an Automated VM still Automated, no hold, the
// tenant active, and the VM in Azure still the size and power state the change was made from.
// A change row then moves claimed → submitted (the step and its operation URL saved before
// anything else happens) → succeeded, failed or cancelled. A worker that dies after Azure accepted
// a step leaves the URL on the row; the dispatcher sends the change again once the lease lapses and
// the next run polls it; it never submits that step again. A run that died between Azure's answer
// and the save reads the VM (waiting while Azure still works on it) and skips a step already done.
// Every failure after a deallocation ends with the VM running, on its old size if the new one
// cannot be allocated. Each step's log entry is written in the transaction that records the step.
// A disk, public IP, plan or database goes through the same states and guarantees with its own steps
// (automation.resource-steps.ts): a disk is snapshotted (the snapshot's id saved on the change before
// it is asked for) and the snapshot waited for before the disk is deleted. A tag change (a pipeline's
// tag action) is one step, the Tags API's merge: writing the same tags again changes nothing, so a
// run that resumes it writes again rather than read first. A pipeline run's change that fails or is
// cancelled tells the run (PipelineChangeListener) in the transaction that records its end.
//
// The parts, each in its file: the run's lease and fencing (automation.run-lease.ts), the
// still-wanted decision (automation.still-wanted.ts), a VM's steps (automation.vm-steps.ts, beside
// automation.resource-steps.ts), reading Azure back (automation.read-back.ts), the outcomes and
// rollback (automation.outcomes.ts), waiting for a tenant (automation.tenant-wait.ts) and the
// wording (automation.wording.ts). This file runs the steps in order.
import type { CloudOperation, CloudProvider } from '../../cloud/cloud-provider';
import { isCloudError } from '../../cloud/cloud-provider';
import type { TransactionRunner } from '../../db/transaction';
import { automationExecuteJob } from '../../queue/automation-work';
import type { ActivityService } from '../activity/activity.service';
import type { TenantsService } from '../tenants/tenants.service';
import { AutomationRepository, logEntryOf } from './automation.repository';
import { startGraceMs } from './automation.names';
import type { PipelineChangeListener } from './automation.pipeline-hook';
import { ChangeOutcomes } from './automation.outcomes';
import { AzureReadBack } from './automation.read-back';
import { buildSku } from './automation.resource-steps';
import { inFlight, LostChangeError, RunLease, type Run } from './automation.run-lease';
import { StillWantedDecision } from './automation.still-wanted';
import { TenantWait } from './automation.tenant-wait';
import { isBusyRefusal, isClusterRefusal, planSteps, type Step } from './automation.vm-steps';
import { describeStep, describeStepDone } from './automation.wording';

export interface ExecutorOptions {
  // Runs of one change (pg-boss retries included) before a transient failure counts as final.
  maxAttempts: number;
  // How long one step may run in Azure (not the whole change: a resize can take minutes).
  stepDeadlineMs: number;
  // How long after a resize down the guard watches the VM.
  guardMs: number;
  // How long a run holds its change without renewing it. A live run renews it three times as often
  // (a heartbeat), so only a run that died or stalled lets it lapse; another run then takes over.
  leaseMs: number;
  // How long a run waits for a tenant's secret to come back before looking again.
  credentialsWaitMs: number;
  // The longest wait between two tries of a rollback that failed (it is tried until it succeeds).
  rollbackRetryMaxMs: number;
  sleep: (ms: number) => Promise<void>;
}

export const defaultExecutorOptions: ExecutorOptions = {
  maxAttempts: 5,
  stepDeadlineMs: 30 * 60 * 1000,
  guardMs: 7 * 24 * 60 * 60 * 1000,
  leaseMs: 30 * 1000,
  credentialsWaitMs: 15 * 60 * 1000,
  rollbackRetryMaxMs: 30 * 60 * 1000,
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

export class AutomationExecutor {
  private readonly lease: RunLease;
  private readonly readBack: AzureReadBack;
  private readonly outcomes: ChangeOutcomes;
  private readonly stillWanted: StillWantedDecision;
  private readonly tenantWait: TenantWait;

  constructor(
    private readonly automation: AutomationRepository,
    private readonly runTransaction: TransactionRunner,
    private readonly tenants: Pick<TenantsService, 'openForWork'>,
    private readonly cloud: CloudProvider,
    activity: ActivityService,
    private readonly now: () => Date,
    describeFailure: (error: unknown) => string,
    onPipelineChangeSettled: PipelineChangeListener,
    private readonly options: ExecutorOptions = defaultExecutorOptions,
  ) {
    this.lease = new RunLease(automation, now, options.leaseMs, options.sleep);
    this.readBack = new AzureReadBack(cloud, this.lease, options.stepDeadlineMs);
    this.outcomes = new ChangeOutcomes(
      automation,
      runTransaction,
      cloud,
      activity,
      now,
      describeFailure,
      onPipelineChangeSettled,
      this.readBack,
      options,
    );
    this.stillWanted = new StillWantedDecision(runTransaction, now, this.readBack, this.outcomes);
    this.tenantWait = new TenantWait(
      automation,
      runTransaction,
      now,
      this.outcomes,
      options.credentialsWaitMs,
    );
  }

  // The handler of automation-execute. Throws only for a failure pg-boss should retry.
  async execute(changeId: number, signal?: AbortSignal): Promise<void> {
    const started = await this.automation.startRun(changeId, this.now(), this.lease.end());
    if (!started) return;
    const change = await this.automation.findChange(changeId);
    if (!change) return;
    const work = await this.tenants.openForWork(change.tenantId, automationExecuteJob.name);
    if (!work) {
      await this.tenantWait.waitForTenant(change, started.token);
      return;
    }
    // Aborted when the job's own signal is, or when the heartbeat finds the change taken: a call to
    // Azure still in flight then stops rather than act for a run that no longer holds the change.
    const controller = new AbortController();
    const onJobAbort = () => controller.abort(signal?.reason);
    signal?.addEventListener('abort', onJobAbort, { once: true });
    const run: Run = { change, ...started, credentials: work.credentials, signal: controller.signal };
    const heartbeat = setInterval(() => {
      this.lease.renew(run).catch((error: unknown) => {
        if (error instanceof LostChangeError) controller.abort(error);
      });
    }, this.options.leaseMs / 3);
    try {
      if (run.change.wasRunning === null && !(await this.stillWanted.decide(run))) return;
      await this.runSteps(run);
    } catch (error) {
      await this.onRunError(
        run,
        controller.signal.reason instanceof LostChangeError ? controller.signal.reason : error,
      );
    } finally {
      clearInterval(heartbeat);
      signal?.removeEventListener('abort', onJobAbort);
    }
  }

  private async onRunError(run: Run, error: unknown): Promise<void> {
    if (error instanceof LostChangeError) return;
    // Not Azure's answer (the database, the process): Azure may have acted, so the change is never
    // ended on it; the run lets go and is tried again (by pg-boss, or by the dispatcher once the
    // lease lapses) and resumes from what the row and the VM say.
    if (!isCloudError(error)) {
      await this.lease.release(run, this.now()).catch(() => {});
      throw error;
    }
    const isTransient = ['throttled', 'timeout', 'unavailable'].includes(error.kind);
    if (isTransient && run.attempts < this.options.maxAttempts) {
      await this.outcomes.log(
        run.change,
        `Attempt ${run.attempts} did not finish (${error.message}); retrying`,
      );
      // pg-boss retries the job; the dispatcher only if that retry never comes.
      await this.lease.release(run, new Date(this.now().getTime() + startGraceMs));
      throw error;
    }
    const latest = (await this.automation.findChange(run.change.id)) ?? run.change;
    if (latest.kind === 'rollback') {
      await this.outcomes.retryRollbackLater({ ...run, change: latest }, error.message);
      return;
    }
    await this.outcomes.fail({ ...run, change: latest }, error.message);
  }

  private async runSteps(run: Run): Promise<void> {
    const isResuming = run.attempts > 1;
    // Every step done and recorded, the success not yet (the run ended in between): only the check.
    while (run.change.step !== 'verify') {
      const { change } = run;
      const steps = planSteps(change);
      const step = (change.step as Step | null) ?? steps[0]!;
      if (change.operationUrl) {
        await this.readBack.waitForOperation(run, change.operationUrl);
      } else {
        const submitted = await this.submit(run, step, isResuming);
        if (submitted === 'needsDeallocation') {
          await this.lease.updateRun(run, inFlight, { needsDeallocation: true, step: 'deallocate' });
          run.change = { ...run.change, needsDeallocation: true, step: 'deallocate' };
          await this.outcomes.log(
            run.change,
            `${change.newSize} is not available on the VM's hardware cluster while it runs; deallocating first`,
          );
          continue;
        }
        if (submitted?.operationUrl) {
          // A fresh operation cannot be done before Azure's Retry-After (a second when unsaid):
          // looking earlier only spends the subscription's read budget.
          await this.lease.pause(run, Math.max(submitted.retryAfterSeconds, 1) * 1000);
          await this.readBack.waitForOperation(run, submitted.operationUrl);
        }
      }
      // The disk is deleted only from a snapshot Azure has finished copying.
      if (step === 'snapshot') await this.readBack.waitForSnapshot(run);
      const next = steps[steps.indexOf(step) + 1] ?? null;
      await this.runTransaction(async (transaction) => {
        const automation = new AutomationRepository(transaction.db);
        const isRecorded = await automation.updateRun(change.id, run.token, inFlight, {
          step: next ?? 'verify',
          operationUrl: null,
        });
        if (!isRecorded) throw new LostChangeError();
        await automation.log.insertLog(logEntryOf(change, describeStepDone(step, change)));
      });
      run.change = { ...run.change, step: next ?? 'verify', operationUrl: null };
    }
    const verified = await this.readBack.verify(run);
    await this.outcomes.succeed(run, verified.action, verified.recorded);
  }

  // Sends one step to Azure and saves its operation URL (and the log entry) in one transaction.
  // Azure's 409 "another operation is in progress" is waited out, not taken as final.
  private async submit(
    run: Run,
    step: Step,
    isResuming: boolean,
  ): Promise<CloudOperation | null | 'needsDeallocation'> {
    const { change } = run;
    // A run that died between Azure's answer and the save: do not do the step twice.
    if (isResuming && (await this.readBack.isStepDoneInAzure(run, step))) return null;
    const deadline = Date.now() + this.options.stepDeadlineMs;
    let operation: CloudOperation;
    for (let wait = 5_000; ; wait = Math.min(wait * 2, 60_000)) {
      await this.lease.renew(run);
      try {
        operation = await this.submitStep(run, step);
        break;
      } catch (error) {
        if (step === 'resize' && !change.needsDeallocation && isClusterRefusal(error)) {
          return 'needsDeallocation';
        }
        if (!isBusyRefusal(error) || Date.now() + wait > deadline) throw error;
        await this.lease.pause(run, wait);
      }
    }
    const at = this.now();
    await this.runTransaction(async (transaction) => {
      const automation = new AutomationRepository(transaction.db);
      const isRecorded = await automation.updateRun(change.id, run.token, inFlight, {
        state: 'submitted',
        step,
        operationUrl: operation.operationUrl,
        submittedAt: at,
      });
      if (!isRecorded) throw new LostChangeError();
      await automation.log.insertLog(logEntryOf(change, `${describeStep(step, change)} submitted`));
    });
    return operation;
  }

  private async submitStep(run: Run, step: Step): Promise<CloudOperation> {
    const { change, credentials, signal } = run;
    if (step === 'snapshot') {
      const region = await this.automation.effects.readResourceRegion(change.resourceId);
      return this.cloud.beginSnapshot(
        credentials,
        { snapshotId: change.snapshotId ?? '', diskId: change.resourceArmId, region: region ?? '' },
        { signal },
      );
    }
    if (step === 'delete') return this.cloud.beginDelete(credentials, change.resourceArmId, { signal });
    if (step === 'tag') {
      await this.cloud.mergeTags(credentials, change.resourceArmId, change.tags ?? {}, { signal });
      return { operationUrl: null, retryAfterSeconds: 0 };
    }
    if (step === 'changeSku') {
      // A database's new maximum size depends on its present one: read it if this run has not.
      const state =
        run.observedResource ?? (await this.readBack.readSettledResource(run, change.resourceArmId)) ?? null;
      return this.cloud.beginSkuChange(credentials, change.resourceArmId, buildSku(change, state), {
        signal,
      });
    }
    if (step === 'resize') {
      return this.cloud.beginResize(credentials, change.resourceArmId, change.newSize ?? '', { signal });
    }
    return this.cloud.beginPowerAction(credentials, change.resourceArmId, step, { signal });
  }
}
