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
import { automationValues } from '@cloudtrim/contracts/automation';
import { isBurstable } from '@cloudtrim/rightsizing/burstable-sizes';
import type {
  CloudCredentials,
  CloudOperation,
  CloudProvider,
  CloudResourceState,
  CloudVirtualMachineState,
} from '../../cloud/cloud-provider';
import { CloudError, isCloudError } from '../../cloud/cloud-provider';
import type { Transaction, TransactionRunner } from '../../db/transaction';
import { describeProtectionAdded } from '../../lib/protection-tags';
import { automationExecuteJob } from '../../queue/automation-work';
import type { ActivityService } from '../activity/activity.service';
import type { TenantsService } from '../tenants/tenants.service';
import {
  AutomationRepository,
  logEntryOf,
  recommendationOrigins,
  type ChangeRow,
  type ChangeState,
  type ChangeWithResource,
} from './automation.repository';
import { automationServiceName, startGraceMs } from './automation.names';
import type { PipelineChangeListener, PipelineChangeSettlement } from './automation.pipeline-hook';
import {
  buildSku,
  describeResourceChange,
  describeResourceMismatch,
  describeResourceStep,
  describeResourceSuccess,
  isDeletion,
  isResourceChange,
  isResourceChangeDone,
  planResourceSteps,
  snapshotIdOf,
  type ResourceStep,
} from './automation.resource-steps';

type Step = 'deallocate' | 'resize' | 'start' | 'tag' | ResourceStep;

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

const stepNames: Readonly<Record<Step, string>> = {
  deallocate: 'Deallocation',
  resize: 'Resize',
  start: 'Start',
  snapshot: 'Snapshot',
  delete: 'Deletion',
  changeSku: 'Change',
  tag: 'Tagging',
};

const inFlight: ChangeState[] = ['claimed', 'submitted'];

// The run no longer holds its change (its lease lapsed and another run took it, or the change was
// ended meanwhile): it stops without another write.
class LostChangeError extends Error {
  constructor() {
    super('The change is no longer held by this run.');
  }
}

// One run of one change: the change as this run knows it, and the token that fences its writes.
interface Run {
  change: ChangeWithResource;
  token: string;
  attempts: number;
  credentials: CloudCredentials;
  signal: AbortSignal | undefined;
  // The VM as this run read it before acting; undefined for a run that resumed another's work.
  observed?: CloudVirtualMachineState;
  // Likewise a disk, IP, plan or database.
  observedResource?: CloudResourceState;
}

export class AutomationExecutor {
  constructor(
    private readonly automation: AutomationRepository,
    private readonly runTransaction: TransactionRunner,
    private readonly tenants: Pick<TenantsService, 'openForWork'>,
    private readonly cloud: CloudProvider,
    private readonly activity: ActivityService,
    private readonly now: () => Date,
    private readonly describeFailure: (error: unknown) => string,
    private readonly onPipelineChangeSettled: PipelineChangeListener,
    private readonly options: ExecutorOptions = defaultExecutorOptions,
  ) {}

  // The handler of automation-execute. Throws only for a failure pg-boss should retry.
  async execute(changeId: number, signal?: AbortSignal): Promise<void> {
    const started = await this.automation.startRun(changeId, this.now(), this.leaseEnd());
    if (!started) return;
    const change = await this.automation.findChange(changeId);
    if (!change) return;
    const work = await this.tenants.openForWork(change.tenantId, automationExecuteJob.name);
    if (!work) {
      await this.waitForTenant(change, started.token);
      return;
    }
    // Aborted when the job's own signal is, or when the heartbeat finds the change taken: a call to
    // Azure still in flight then stops rather than act for a run that no longer holds the change.
    const controller = new AbortController();
    const onJobAbort = () => controller.abort(signal?.reason);
    signal?.addEventListener('abort', onJobAbort, { once: true });
    const run: Run = { change, ...started, credentials: work.credentials, signal: controller.signal };
    const heartbeat = setInterval(() => {
      this.renewLease(run).catch((error: unknown) => {
        if (error instanceof LostChangeError) controller.abort(error);
      });
    }, this.options.leaseMs / 3);
    try {
      if (run.change.wasRunning === null && !(await this.decideToAct(run))) return;
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
      await this.release(run, this.now()).catch(() => {});
      throw error;
    }
    const isTransient = ['throttled', 'timeout', 'unavailable'].includes(error.kind);
    if (isTransient && run.attempts < this.options.maxAttempts) {
      await this.log(run.change, `Attempt ${run.attempts} did not finish (${error.message}); retrying`);
      // pg-boss retries the job; the dispatcher only if that retry never comes.
      await this.release(run, new Date(this.now().getTime() + startGraceMs));
      throw error;
    }
    const latest = (await this.automation.findChange(run.change.id)) ?? run.change;
    if (latest.kind === 'rollback') {
      await this.retryRollbackLater({ ...run, change: latest }, error.message);
      return;
    }
    await this.fail({ ...run, change: latest }, error.message);
  }

  // A change's first run: reads the VM, then decides under the VM's lock whether the change is
  // still wanted, and records what it learnt (the size to go back to, whether it ran).
  private async decideToAct(run: Run): Promise<boolean> {
    const { change } = run;
    if (isResourceChange(change.kind)) return this.decideToActOnResource(run);
    if (change.kind === 'tag') return this.decideToTag(run);
    // A VM Azure is still working on (someone's restart) is judged once it has settled.
    const machine = await this.readSettledMachine(run);
    const decision = await this.runTransaction(async (transaction) => {
      const automation = new AutomationRepository(transaction.db);
      await automation.lockResource(change.resourceId);
      const reasons = await automation.readChangeReasons(change.id);
      const reasonToStop = reasons ? findReasonToStop(change, reasons, this.now()) : goneReason;
      if (reasonToStop) return { reasonToStop };
      const protection = findProtectionAdded(change, reasons!.tags, machine.tags);
      if (protection) return { reasonToStop: protection };
      if (isAlreadyDone(change, machine)) return { isDone: true };
      const mismatch = describeMismatch(change, machine);
      if (mismatch) return { reasonToStop: { text: mismatch, skip: 'notApplicable' as const } };
      const isRecorded = await automation.updateRun(change.id, run.token, ['claimed'], {
        wasRunning: machine.powerState === 'running',
        previousSize: machine.size ?? change.previousSize,
        step: firstStep(change.kind),
      });
      if (!isRecorded) throw new LostChangeError();
      return {};
    });
    if (decision.reasonToStop) {
      await this.cancel(run, decision.reasonToStop);
      return false;
    }
    const prepared = {
      ...change,
      wasRunning: machine.powerState === 'running',
      previousSize: machine.size ?? change.previousSize,
      step: firstStep(change.kind),
    };
    run.change = prepared;
    run.observed = machine;
    if (decision.isDone) {
      await this.succeed(run, 'Nothing to change: the VM is already so', machine);
      return false;
    }
    return true;
  }

  // The same decision for a disk, IP, plan or database: still what the recommendation saw (a disk
  // still Unattached, an IP still unassociated, a plan still without apps, the SKU planned from).
  // It does not run, so `wasRunning` false marks the decision made; a disk's snapshot is named now.
  private async decideToActOnResource(run: Run): Promise<boolean> {
    const { change } = run;
    const state = await this.readSettledResource(run, change.resourceArmId);
    const snapshotId = change.kind === 'deleteDisk' ? snapshotIdOf(change.resourceArmId, change.id) : null;
    const decision = await this.runTransaction(async (transaction) => {
      const automation = new AutomationRepository(transaction.db);
      await automation.lockResource(change.resourceId);
      const reasons = await automation.readChangeReasons(change.id);
      const reasonToStop = reasons ? findReasonToStop(change, reasons, this.now()) : goneReason;
      if (reasonToStop) return { reasonToStop };
      const protection = findProtectionAdded(change, reasons!.tags, state?.tags);
      if (protection) return { reasonToStop: protection };
      if (!isDeletion(change.kind) && isResourceChangeDone(change, state)) return { isDone: true };
      const mismatch = describeResourceMismatch(change, state);
      if (mismatch) return { reasonToStop: { text: mismatch, skip: 'notApplicable' as const } };
      const isRecorded = await automation.updateRun(change.id, run.token, ['claimed'], {
        wasRunning: false,
        previousSize: state?.sku ?? change.previousSize,
        step: firstStep(change.kind),
        snapshotId,
      });
      if (!isRecorded) throw new LostChangeError();
      return {};
    });
    if (decision.reasonToStop) {
      await this.cancel(run, decision.reasonToStop);
      return false;
    }
    run.change = {
      ...change,
      wasRunning: false,
      previousSize: state?.sku ?? change.previousSize,
      step: firstStep(change.kind),
      snapshotId,
    };
    run.observedResource = state ?? undefined;
    if (decision.isDone) {
      await this.succeed(run, 'Nothing to change: it is already so', { size: state!.sku, powerState: null });
      return false;
    }
    return true;
  }

  // A tag change needs nothing of Azure to decide: only that it is still wanted (the tenant active).
  private async decideToTag(run: Run): Promise<boolean> {
    const { change } = run;
    const reasonToStop = await this.runTransaction(async (transaction) => {
      const automation = new AutomationRepository(transaction.db);
      await automation.lockResource(change.resourceId);
      const reasons = await automation.readChangeReasons(change.id);
      const reason = reasons ? findReasonToStop(change, reasons, this.now()) : goneReason;
      if (reason) return reason;
      const isRecorded = await automation.updateRun(change.id, run.token, ['claimed'], {
        wasRunning: false,
        step: 'tag',
      });
      if (!isRecorded) throw new LostChangeError();
      return undefined;
    });
    if (reasonToStop) {
      await this.cancel(run, reasonToStop);
      return false;
    }
    run.change = { ...change, wasRunning: false, step: 'tag' };
    return true;
  }

  private async runSteps(run: Run): Promise<void> {
    const isResuming = run.attempts > 1;
    // Every step done and recorded, the success not yet (the run ended in between): only the check.
    while (run.change.step !== 'verify') {
      const { change } = run;
      const steps = planSteps(change);
      const step = (change.step as Step | null) ?? steps[0]!;
      if (change.operationUrl) {
        await this.waitForOperation(run, change.operationUrl);
      } else {
        const submitted = await this.submit(run, step, isResuming);
        if (submitted === 'needsDeallocation') {
          await this.updateRun(run, inFlight, { needsDeallocation: true, step: 'deallocate' });
          run.change = { ...run.change, needsDeallocation: true, step: 'deallocate' };
          await this.log(
            run.change,
            `${change.newSize} is not available on the VM's hardware cluster while it runs; deallocating first`,
          );
          continue;
        }
        if (submitted?.operationUrl) {
          // A fresh operation cannot be done before Azure's Retry-After (a second when unsaid):
          // looking earlier only spends the subscription's read budget.
          await this.pause(run, Math.max(submitted.retryAfterSeconds, 1) * 1000);
          await this.waitForOperation(run, submitted.operationUrl);
        }
      }
      // The disk is deleted only from a snapshot Azure has finished copying.
      if (step === 'snapshot') await this.waitForSnapshot(run);
      const next = steps[steps.indexOf(step) + 1] ?? null;
      await this.runTransaction(async (transaction) => {
        const automation = new AutomationRepository(transaction.db);
        const isRecorded = await automation.updateRun(change.id, run.token, inFlight, {
          step: next ?? 'verify',
          operationUrl: null,
        });
        if (!isRecorded) throw new LostChangeError();
        await automation.insertLog(logEntryOf(change, describeStepDone(step, change)));
      });
      run.change = { ...run.change, step: next ?? 'verify', operationUrl: null };
    }
    await this.verify(run);
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
    if (isResuming && (await this.isStepDoneInAzure(run, step))) return null;
    const deadline = Date.now() + this.options.stepDeadlineMs;
    let operation: CloudOperation;
    for (let wait = 5_000; ; wait = Math.min(wait * 2, 60_000)) {
      await this.renewLease(run);
      try {
        operation = await this.submitStep(run, step);
        break;
      } catch (error) {
        if (step === 'resize' && !change.needsDeallocation && isClusterRefusal(error)) {
          return 'needsDeallocation';
        }
        if (!isBusyRefusal(error) || Date.now() + wait > deadline) throw error;
        await this.pause(run, wait);
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
      await automation.insertLog(logEntryOf(change, `${describeStep(step, change)} submitted`));
    });
    return operation;
  }

  private async isStepDoneInAzure(run: Run, step: Step): Promise<boolean> {
    const { change } = run;
    if (step === 'tag') return false;
    if (step === 'snapshot') {
      return (await this.readSettledResource(run, change.snapshotId ?? '')) !== null;
    }
    if (step === 'delete' || step === 'changeSku') {
      return isResourceChangeDone(change, await this.readSettledResource(run, change.resourceArmId));
    }
    return isStepDone(step, change, await this.readSettledMachine(run));
  }

  private async submitStep(run: Run, step: Step): Promise<CloudOperation> {
    const { change, credentials, signal } = run;
    if (step === 'snapshot') {
      const region = await this.automation.readResourceRegion(change.resourceId);
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
        run.observedResource ?? (await this.readSettledResource(run, change.resourceArmId)) ?? null;
      return this.cloud.beginSkuChange(credentials, change.resourceArmId, buildSku(change, state), {
        signal,
      });
    }
    if (step === 'resize') {
      return this.cloud.beginResize(credentials, change.resourceArmId, change.newSize ?? '', { signal });
    }
    return this.cloud.beginPowerAction(credentials, change.resourceArmId, step, { signal });
  }

  // Polls until Azure says the operation ended, waiting as long as Retry-After asks, within the
  // step's own deadline; the run's hold is renewed at every look.
  private async waitForOperation(run: Run, operationUrl: string): Promise<void> {
    const deadline = Date.now() + this.options.stepDeadlineMs;
    for (;;) {
      await this.renewLease(run);
      const status = await this.cloud.readOperation(run.credentials, operationUrl, { signal: run.signal });
      if (status.status === 'Succeeded') return;
      if (status.status === 'Failed' || status.status === 'Canceled') {
        throw new CloudError(
          'invalidRequest',
          `Azure reported the operation ${status.status.toLowerCase()}: ${status.error ?? 'no reason given'}`,
          undefined,
          status.error?.split(':')[0],
        );
      }
      const waitMs = Math.max(status.retryAfterSeconds, 1) * 1000;
      if (Date.now() + waitMs > deadline) {
        throw new CloudError('timeout', 'The Azure operation did not finish within its step deadline.');
      }
      await this.pause(run, waitMs);
    }
  }

  private readMachine(run: Run): Promise<CloudVirtualMachineState> {
    return this.cloud.getVirtualMachine(run.credentials, run.change.resourceArmId, { signal: run.signal });
  }

  // The VM once Azure has finished with it: while an operation still runs on it (provisioning
  // state Updating) its model may show a size it does not have yet.
  private async readSettledMachine(run: Run): Promise<CloudVirtualMachineState> {
    const deadline = Date.now() + this.options.stepDeadlineMs;
    for (let wait = 2_000; ; wait = Math.min(wait * 2, 30_000)) {
      const machine = await this.readMachine(run);
      if (!isBusy(machine) || Date.now() + wait > deadline) return machine;
      await this.renewLease(run);
      await this.pause(run, wait);
    }
  }

  // A disk, IP, plan, database or snapshot once Azure has finished with it (null once it is gone).
  private async readSettledResource(run: Run, resourceId: string): Promise<CloudResourceState | null> {
    const deadline = Date.now() + this.options.stepDeadlineMs;
    for (let wait = 2_000; ; wait = Math.min(wait * 2, 30_000)) {
      const state = await this.cloud.getResourceState(run.credentials, resourceId, { signal: run.signal });
      if (!state || !isBusy(state) || Date.now() + wait > deadline) return state;
      await this.renewLease(run);
      await this.pause(run, wait);
    }
  }

  // An incremental snapshot is usable once Azure says it Succeeded and has copied the disk into it
  // (completionPercent 100, where Azure reports it): until then the disk must stay. Past the step's
  // deadline the change fails (not retried into a deletion): the disk stays and the log says why.
  private async waitForSnapshot(run: Run): Promise<void> {
    const deadline = Date.now() + this.options.stepDeadlineMs;
    for (let wait = 2_000; ; wait = Math.min(wait * 2, 30_000)) {
      const snapshot = await this.readSettledResource(run, run.change.snapshotId ?? '');
      const state = snapshot?.provisioningState ?? null;
      if (!snapshot || state?.toLowerCase() === 'failed' || state?.toLowerCase() === 'canceled') {
        throw new CloudError('invalidRequest', `the snapshot ${run.change.snapshotId} was not created`);
      }
      if (isSnapshotComplete(snapshot)) return;
      if (Date.now() + wait > deadline) {
        throw new CloudError(
          'invalidRequest',
          `the snapshot ${run.change.snapshotId} is ${state ?? 'in no state'}, not Succeeded, so the disk is kept`,
        );
      }
      await this.renewLease(run);
      await this.pause(run, wait);
    }
  }

  // The VM after the change. A run that did it all in one step from a VM it read itself knows it
  // from Azure's answers (the operation succeeded on the size it asked for), which saves a read of
  // the subscription's budget per change; one that resumed, or went through a deallocation, reads it
  // back: the size must be the new one and the power state what it was.
  private async verify(run: Run): Promise<void> {
    const { change, observed } = run;
    if (isResourceChange(change.kind)) return this.verifyResource(run);
    // Azure answered the merge with the resource's tags: nothing to read back.
    if (change.kind === 'tag') return this.succeed(run, `Tagged ${describeTags(change)}`, null);
    const isKnown = observed !== undefined && !change.needsDeallocation;
    const machine = isKnown ? describeOutcome(change, observed) : await this.readSettledMachine(run);
    if (change.kind === 'resize' || change.kind === 'rollback') {
      if (!sameSize(machine.size, change.newSize)) {
        throw new CloudError(
          'invalidRequest',
          `the VM reads back as ${machine.size ?? 'no size'}, not ${change.newSize}`,
        );
      }
    }
    await this.succeed(run, describeSuccess(change), machine);
  }

  // A deleted resource is gone from Azure; a changed one reads back with its new SKU.
  private async verifyResource(run: Run): Promise<void> {
    const { change, observedResource } = run;
    const state = await this.readSettledResource(run, change.resourceArmId);
    if (!isResourceChangeDone(change, state)) {
      throw new CloudError(
        'invalidRequest',
        isDeletion(change.kind)
          ? 'it still exists in Azure after its deletion'
          : `it reads back as ${state?.sku ?? 'gone'}, not ${change.newSize}`,
      );
    }
    const recorded = state ? { size: state.sku, powerState: null } : null;
    await this.succeed(run, describeResourceSuccess(change, observedResource), recorded);
  }

  // `recorded`: what Azure now says of the resource (null: it is gone, the next sync removes it).
  private async succeed(
    run: Run,
    action: string,
    recorded: { size: string | null; powerState: string | null } | null,
  ): Promise<void> {
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
        await automation.recordResourceState(change.resourceId, recorded.size, recorded.powerState, at);
      if (change.kind === 'tag') await automation.mergeResourceTags(change.resourceId, change.tags ?? {});
      if (change.recommendationId !== null && change.origin !== 'guard') {
        await automation.setRecommendationStatus(change.recommendationId, 'applied');
      }
      await automation.insertLog(logEntryOf(change, action));
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
      (await this.automation.isSmallerSize(change.resourceId, change.previousSize, change.newSize)) === true
    );
  }

  // Nothing was done in Azure: the change ends cancelled, and says why.
  private async cancel(run: Run, reason: ReasonToStop): Promise<void> {
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
      await automation.insertLog(logEntryOf(change, action));
      await this.tellPipeline(transaction, change, 'cancelled', reason);
    });
    await this.recordActivity(change, action);
  }

  // Puts the VM back as it was and says so everywhere. Its size never changed unless the resize
  // succeeded; a VM deallocated for the change is started again if it was running, and when its new
  // size cannot be allocated (AllocationFailed) it goes back to its old size and starts on that.
  private async fail(run: Run, reason: string): Promise<void> {
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
      await automation.insertLog(logEntryOf(change, action));
      await this.tellPipeline(transaction, change, 'failed', { text: reason, skip: null });
    });
    await this.recordActivity(change, action);
  }

  // A pipeline run's change ended unmade: its run hears it in the same transaction. The change's own
  // write is fenced by the run's token, so a replayed or resumed run never gets here twice.
  private async tellPipeline(
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
  private async retryRollbackLater(run: Run, reason: string): Promise<void> {
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
      await automation.insertLog(logEntryOf(change, action));
    });
    if (change.error === null) await this.recordActivity(change, action);
  }

  // Whatever failed, a VM that ran before the change runs after it. Answers what was done, for the
  // log ('' when nothing was needed).
  private async restoreRunning(run: Run): Promise<string> {
    const { change } = run;
    if (!change.wasRunning) return '';
    try {
      const machine = await this.readSettledMachine(run);
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
        if (operation.operationUrl) await this.waitForOperation(run, operation.operationUrl);
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
    if (operation.operationUrl) await this.waitForOperation(run, operation.operationUrl);
  }

  // The tenant cannot be worked on. Inactive (or gone): a change not begun in Azure ends cancelled;
  // one half-way waits. A secret missing or unreadable: the change waits for it (the tenant's status
  // already says to add it again), and the VM's log and Recent Activity say so once.
  private async waitForTenant(change: ChangeWithResource, token: string): Promise<void> {
    const reasons = await this.automation.readChangeReasons(change.id);
    if (!reasons) return;
    const hasBegun = change.wasRunning !== null;
    if (!reasons.isTenantActive && !hasBegun) {
      const action = `${describeChange(change)} cancelled: the tenant is inactive`;
      const isRecorded = await this.runTransaction(async (transaction) => {
        const automation = new AutomationRepository(transaction.db);
        const updated = await automation.updateRun(change.id, token, ['claimed'], {
          state: 'cancelled',
          error: 'the tenant is inactive',
          completedAt: this.now(),
          claimToken: null,
          leaseUntil: null,
        });
        if (updated) {
          await automation.insertLog(logEntryOf(change, action));
          await this.tellPipeline(transaction, change, 'cancelled', inactiveTenantReason);
        }
        return updated;
      });
      if (isRecorded) await this.recordActivity(change, action);
      return;
    }
    const why = reasons.isTenantActive
      ? "the tenant's secret is missing or cannot be read; add the tenant again with its secret"
      : 'the tenant is inactive';
    const waitingText = `waiting: ${why}`;
    const isNew = change.error !== waitingText;
    const retryAt = new Date(this.now().getTime() + this.options.credentialsWaitMs);
    const updated = await this.automation.updateRun(change.id, token, inFlight, {
      error: waitingText,
      claimToken: null,
      leaseUntil: retryAt,
    });
    if (updated && isNew) {
      const action = `Needs attention: ${describeChange(change)} is waiting because ${why}`;
      await this.log(change, action);
      await this.recordActivity(change, action);
    }
  }

  // Lets the change go for the next run (a pg-boss retry, or the dispatcher after `retryAt`).
  private async release(run: Run, retryAt: Date): Promise<void> {
    await this.automation.updateRun(run.change.id, run.token, inFlight, {
      claimToken: null,
      leaseUntil: retryAt,
    });
  }

  // Also the fence before each write to Azure: the run must still hold the change.
  private async renewLease(run: Run): Promise<void> {
    run.signal?.throwIfAborted();
    const isHeld = await this.automation.updateRun(run.change.id, run.token, inFlight, {
      leaseUntil: this.leaseEnd(),
    });
    if (!isHeld) throw new LostChangeError();
  }

  private async pause(run: Run, ms: number): Promise<void> {
    run.signal?.throwIfAborted();
    await this.options.sleep(ms);
  }

  private async updateRun(
    run: Run,
    fromStates: ChangeState[],
    fields: Parameters<AutomationRepository['updateRun']>[3],
  ): Promise<void> {
    if (!(await this.automation.updateRun(run.change.id, run.token, fromStates, fields))) {
      throw new LostChangeError();
    }
  }

  private leaseEnd(): Date {
    return new Date(this.now().getTime() + this.options.leaseMs);
  }

  private async log(change: ChangeWithResource, action: string): Promise<void> {
    await this.automation.insertLog(logEntryOf(change, action));
  }

  private async recordActivity(change: ChangeWithResource, action: string): Promise<void> {
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

// Why a change is no longer wanted: the text the log says after "cancelled: ", and how a pipeline run
// that asked for it counts it (PipelineChangeSettlement.skip; null: the change failed).
export interface ReasonToStop {
  text: string;
  skip: PipelineChangeSettlement['skip'];
}

const goneReason: ReasonToStop = { text: 'it no longer exists', skip: 'notApplicable' };
const inactiveTenantReason: ReasonToStop = { text: 'the tenant is inactive', skip: null };

// Why a change no longer holds, read under the VM's lock just before its first Azure write.
export function findReasonToStop(
  change: ChangeRow,
  reasons: {
    automated: number;
    heldUntil: Date | null;
    isTenantActive: boolean;
    recommendationStatus: string | null;
  },
  at: Date,
): ReasonToStop | undefined {
  if (!reasons.isTenantActive) return inactiveTenantReason;
  if (!recommendationOrigins.includes(change.origin)) return undefined;
  if (change.recommendationId !== null && reasons.recommendationStatus !== 'open') {
    return {
      text:
        reasons.recommendationStatus === 'superseded'
          ? 'a newer recommendation has replaced this one'
          : `the recommendation is ${reasons.recommendationStatus ?? 'gone'}`,
      skip: reasons.recommendationStatus === 'held' ? 'held' : 'noRecommendation',
    };
  }
  if (change.origin === 'automated' && reasons.automated !== automationValues.automated)
    return { text: 'the resource is no longer set to Automate', skip: 'optedOut' };
  if (reasons.heldUntil && reasons.heldUntil.getTime() > at.getTime()) {
    return {
      text: `the resource's recommendations are held after a rollback until ${reasons.heldUntil.toISOString()}`,
      skip: 'held',
    };
  }
  return undefined;
}

// A pipeline's stop or deletion of a resource Azure now tags as production or opted out, when the
// inventory it was planned from did not: someone protected it since, so it is left alone, and the
// run's item says so (skipped, opted out).
export function findProtectionAdded(
  change: Pick<ChangeRow, 'kind' | 'pipelineRunId'>,
  planned: Record<string, string>,
  current: Record<string, string> | undefined,
): ReasonToStop | undefined {
  if (change.pipelineRunId === null || !current) return undefined;
  if (change.kind !== 'deallocate' && !isDeletion(change.kind)) return undefined;
  const text = describeProtectionAdded(planned, current);
  return text ? { text, skip: 'optedOut' } : undefined;
}

// A VM someone changed since the change was planned is left as it is: says how it differs. Its size
// must be the one planned from. Of its power state, what matters is a VM that was off and now runs:
// a resize would restart what was approved as an offline change. One that stopped since (by hand,
// or its active hours at night) is resized as it is and left off.
export function describeMismatch(change: ChangeRow, machine: CloudVirtualMachineState): string | undefined {
  if (change.expectedSize && !sameSize(machine.size, change.expectedSize)) {
    return `the VM is now ${machine.size ?? 'of no size'}, not ${change.expectedSize} as when this was planned`;
  }
  const wasOff = change.expectedPowerState !== null && change.expectedPowerState !== 'running';
  if (wasOff && machine.powerState === 'running') {
    return `the VM is now running, not ${change.expectedPowerState} as when this was planned`;
  }
  return undefined;
}

// Azure's answer when a running VM's hardware cluster lacks the size: deallocate, then resize. Other
// OperationNotAllowed answers (a quota, a policy) would fail the same way after a deallocation.
function isClusterRefusal(error: unknown): boolean {
  return (
    isCloudError(error) && error.code === 'OperationNotAllowed' && /hardware cluster/i.test(error.message)
  );
}

// Azure's 409 while another operation runs on the VM (someone's, or ours whose answer was lost).
function isBusyRefusal(error: unknown): boolean {
  return (
    isCloudError(error) &&
    error.statusCode === 409 &&
    (error.code === 'Conflict' || /another operation|in use by another/i.test(error.message))
  );
}

function isSnapshotComplete(snapshot: CloudResourceState): boolean {
  const percent = snapshot.details.completionPercent;
  return (
    snapshot.provisioningState?.toLowerCase() === 'succeeded' &&
    (typeof percent !== 'number' || percent >= 100)
  );
}

function isBusy(subject: { provisioningState: string | null }): boolean {
  return (
    subject.provisioningState !== null &&
    !['succeeded', 'failed'].includes(subject.provisioningState.toLowerCase())
  );
}

// What a VM is after a single step Azure reported done.
function describeOutcome(change: ChangeRow, before: CloudVirtualMachineState): CloudVirtualMachineState {
  if (change.kind === 'deallocate') return { ...before, powerState: 'deallocated' };
  if (change.kind === 'start') return { ...before, powerState: 'running' };
  return { ...before, size: change.newSize };
}

function firstStep(kind: ChangeRow['kind']): Step {
  if (isResourceChange(kind)) return planResourceSteps(kind)[0]!;
  if (kind === 'tag') return 'tag';
  return kind === 'resize' || kind === 'rollback' ? 'resize' : kind === 'start' ? 'start' : 'deallocate';
}

// Resize in place; or, when the cluster lacks the size, deallocate, resize and start again only if
// the VM was running.
function planSteps(change: ChangeRow): Step[] {
  if (isResourceChange(change.kind)) return planResourceSteps(change.kind);
  if (change.kind === 'deallocate' || change.kind === 'start' || change.kind === 'tag') return [change.kind];
  if (!change.needsDeallocation) return ['resize'];
  return change.wasRunning ? ['deallocate', 'resize', 'start'] : ['deallocate', 'resize'];
}

function isAlreadyDone(change: ChangeRow, machine: CloudVirtualMachineState): boolean {
  if (change.kind === 'deallocate') return machine.powerState === 'deallocated';
  if (change.kind === 'start') return machine.powerState === 'running';
  return sameSize(machine.size, change.newSize);
}

function isStepDone(step: Step, change: ChangeRow, machine: CloudVirtualMachineState): boolean {
  if (step === 'resize') return sameSize(machine.size, change.newSize);
  if (step === 'deallocate') return machine.powerState === 'deallocated';
  return machine.powerState === 'running';
}

function sameSize(left: string | null, right: string | null): boolean {
  return left !== null && right !== null && left.toLowerCase() === right.toLowerCase();
}

// The change as a whole, in its cancellation, failure or waiting line.
function describeChange(change: ChangeRow): string {
  return isResourceChange(change.kind)
    ? describeResourceChange(change)
    : describeStep(firstStep(change.kind), change);
}

function describeStepDone(step: Step, change: ChangeRow): string {
  return step === 'snapshot' ? `Snapshot ${change.snapshotId} taken` : `${stepNames[step]} done`;
}

function describeStep(step: Step, change: ChangeRow): string {
  if (step === 'snapshot' || step === 'delete' || step === 'changeSku')
    return describeResourceStep(step, change);
  if (step === 'resize') return `${change.kind === 'rollback' ? 'Rollback' : 'Resize'} to ${change.newSize}`;
  if (step === 'tag') return `Tag ${describeTags(change)}`;
  return stepNames[step];
}

// 'environment = dev', as a pipeline's tag action is written.
export function describeTags(change: Pick<ChangeRow, 'tags'>): string {
  return Object.entries(change.tags ?? {})
    .map(([key, value]) => `${key} = ${value}`)
    .join(', ');
}

function describeSuccess(change: ChangeRow): string {
  if (change.kind === 'resize') return `Resized from ${change.previousSize} to ${change.newSize}`;
  if (change.kind === 'rollback') return `Rolled back from ${change.previousSize} to ${change.newSize}`;
  return change.kind === 'deallocate' ? 'Deallocated' : 'Started';
}
