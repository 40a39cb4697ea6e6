// Carries out one scheduled change in Azure, exactly once across crashes and workers.
//
// A change row moves claimed → submitted (the step and its operation URL saved before anything
// else happens) → succeeded or failed. A worker that dies after Azure accepted a step finds the URL
// on the row and polls it; it never submits that step again. A worker that dies between Azure's
// answer and the save reads the VM before submitting again, and skips a step Azure already did.
// Each step's log entry is written in the transaction that records the step, so it is written once.
import type { CloudCredentials, CloudOperation, CloudProvider } from '../../cloud/cloud-provider';
import { CloudError, isCloudError } from '../../cloud/cloud-provider';
import type { TransactionRunner } from '../../db/transaction';
import { automationExecuteJob } from '../../jobs/automation-work';
import type { ActivityService } from '../activity/activity.service';
import type { TenantsService } from '../tenants/tenants.service';
import {
  AutomationRepository,
  logEntryOf,
  type ChangeRow,
  type ChangeWithResource,
} from './automation.repository';
import { automationServiceName } from './automation.service';

type Step = 'deallocate' | 'resize' | 'start';

export interface ExecutorOptions {
  // Runs of one change (pg-boss retries included) before a transient failure counts as final.
  maxAttempts: number;
  // How long one step may run in Azure (not the whole change: a resize can take minutes).
  stepDeadlineMs: number;
  // How long after a resize down the guard watches the VM.
  guardMs: number;
  sleep: (ms: number) => Promise<void>;
}

export const defaultExecutorOptions: ExecutorOptions = {
  maxAttempts: 5,
  stepDeadlineMs: 30 * 60 * 1000,
  guardMs: 7 * 24 * 60 * 60 * 1000,
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

const stepNames: Readonly<Record<Step, string>> = {
  deallocate: 'Deallocation',
  resize: 'Resize',
  start: 'Start',
};

export class AutomationExecutor {
  constructor(
    private readonly automation: AutomationRepository,
    private readonly runTransaction: TransactionRunner,
    private readonly tenants: Pick<TenantsService, 'openForWork'>,
    private readonly cloud: CloudProvider,
    private readonly activity: ActivityService,
    private readonly now: () => Date,
    private readonly options: ExecutorOptions = defaultExecutorOptions,
  ) {}

  // The handler of automation-execute. Throws only for a transient failure pg-boss should retry.
  async execute(changeId: number): Promise<void> {
    let change = await this.automation.findChange(changeId);
    if (!change || (change.state !== 'claimed' && change.state !== 'submitted')) return;
    const attempts = await this.automation.countAttempt(changeId);
    const work = await this.tenants.openForWork(change.tenantId, automationExecuteJob.name);
    if (!work) {
      await this.fail(change, undefined, 'its tenant is gone, inactive or has no readable secret');
      return;
    }
    const { credentials } = work;
    try {
      change = await this.prepare(change, credentials);
      if (change.state === 'succeeded') return;
      await this.runSteps(change, credentials, attempts > 1);
    } catch (error) {
      const isTransient = isCloudError(error) && ['throttled', 'timeout', 'unavailable'].includes(error.kind);
      if (isTransient && attempts < this.options.maxAttempts) {
        await this.log(change, `Attempt ${attempts} did not finish (${describe(error)}); retrying`);
        throw error;
      }
      const latest = (await this.automation.findChange(changeId)) ?? change;
      await this.fail(latest, credentials, describe(error));
    }
  }

  // The first run reads the VM: its size to go back to and whether it was running.
  private async prepare(
    change: ChangeWithResource,
    credentials: CloudCredentials,
  ): Promise<ChangeWithResource> {
    if (change.wasRunning !== null) return change;
    const machine = await this.cloud.getVirtualMachine(credentials, change.resourceArmId);
    const fields = {
      wasRunning: machine.powerState === 'running',
      previousSize: machine.size ?? change.previousSize,
      step: firstStep(change.kind),
    };
    await this.automation.updateChange(change.id, ['claimed'], fields);
    const prepared = { ...change, ...fields };
    if (isAlreadyDone(prepared, machine)) {
      await this.succeed(
        prepared,
        machine.size,
        machine.powerState,
        'Nothing to change: the VM is already so',
      );
      return { ...prepared, state: 'succeeded' };
    }
    return prepared;
  }

  private async runSteps(
    initial: ChangeWithResource,
    credentials: CloudCredentials,
    isResuming: boolean,
  ): Promise<void> {
    let change = initial;
    for (;;) {
      const steps = planSteps(change);
      const step = (change.step as Step | null) ?? steps[0]!;
      if (change.operationUrl) {
        await this.waitForOperation(change.operationUrl, credentials);
      } else {
        const submitted = await this.submit(change, step, credentials, isResuming);
        if (submitted === 'needsDeallocation') {
          change = { ...change, needsDeallocation: true, step: 'deallocate' };
          await this.automation.updateChange(change.id, ['claimed', 'submitted'], {
            needsDeallocation: true,
            step: 'deallocate',
          });
          await this.log(
            change,
            `${change.newSize} is not available on the VM's hardware cluster while it runs; deallocating first`,
          );
          continue;
        }
        if (submitted?.operationUrl) {
          // A fresh operation cannot be done before Azure's Retry-After (a second when unsaid):
          // looking earlier only spends the subscription's read budget.
          await this.options.sleep(Math.max(submitted.retryAfterSeconds, 1) * 1000);
          await this.waitForOperation(submitted.operationUrl, credentials);
        }
      }
      const next = steps[steps.indexOf(step) + 1] ?? null;
      await this.runTransaction(async (transaction) => {
        const automation = new AutomationRepository(transaction.db);
        await automation.updateChange(change.id, ['claimed', 'submitted'], {
          step: next ?? 'verify',
          operationUrl: null,
        });
        await automation.insertLog(logEntryOf(change, `${stepNames[step]} done`));
      });
      if (!next) break;
      change = { ...change, step: next, operationUrl: null };
    }
    await this.verify(change, credentials);
  }

  // Sends one step to Azure and saves its operation URL (and the log entry) in one transaction.
  private async submit(
    change: ChangeWithResource,
    step: Step,
    credentials: CloudCredentials,
    isResuming: boolean,
  ): Promise<CloudOperation | null | 'needsDeallocation'> {
    if (isResuming) {
      // A run that died between Azure's answer and the save: do not do the step twice.
      const machine = await this.cloud.getVirtualMachine(credentials, change.resourceArmId);
      if (isStepDone(step, change, machine)) return null;
    }
    let operation: CloudOperation;
    try {
      operation = await this.submitStep(change, step, credentials);
    } catch (error) {
      if (step === 'resize' && !change.needsDeallocation && isClusterRefusal(error)) {
        return 'needsDeallocation';
      }
      throw error;
    }
    const at = this.now();
    await this.runTransaction(async (transaction) => {
      const automation = new AutomationRepository(transaction.db);
      await automation.updateChange(change.id, ['claimed', 'submitted'], {
        state: 'submitted',
        step,
        operationUrl: operation.operationUrl,
        submittedAt: at,
      });
      await automation.insertLog(logEntryOf(change, `${describeStep(step, change)} submitted`));
    });
    return operation;
  }

  private submitStep(
    change: ChangeWithResource,
    step: Step,
    credentials: CloudCredentials,
  ): Promise<CloudOperation> {
    if (step === 'resize') {
      return this.cloud.beginResize(credentials, change.resourceArmId, change.newSize ?? '');
    }
    return this.cloud.beginPowerAction(credentials, change.resourceArmId, step);
  }

  // Polls until Azure says the operation ended, waiting as long as Retry-After asks, within the
  // step's own deadline.
  private async waitForOperation(operationUrl: string, credentials: CloudCredentials): Promise<void> {
    const deadline = Date.now() + this.options.stepDeadlineMs;
    for (;;) {
      const status = await this.cloud.readOperation(credentials, operationUrl);
      if (status.status === 'Succeeded') return;
      if (status.status === 'Failed' || status.status === 'Canceled') {
        throw new CloudError(
          'invalidRequest',
          `Azure reported the operation ${status.status.toLowerCase()}: ${status.error ?? 'no reason given'}`,
        );
      }
      const waitMs = Math.max(status.retryAfterSeconds, 1) * 1000;
      if (Date.now() + waitMs > deadline) {
        throw new CloudError('timeout', 'The Azure operation did not finish within its step deadline.');
      }
      await this.options.sleep(waitMs);
    }
  }

  // Reads the VM back: the size must be the new one and the power state what it was.
  private async verify(change: ChangeWithResource, credentials: CloudCredentials): Promise<void> {
    const machine = await this.cloud.getVirtualMachine(credentials, change.resourceArmId);
    if (change.kind === 'resize' || change.kind === 'rollback') {
      if (!sameSize(machine.size, change.newSize)) {
        throw new CloudError(
          'invalidRequest',
          `the VM reads back as ${machine.size ?? 'no size'}, not ${change.newSize}`,
        );
      }
    }
    await this.succeed(change, machine.size, machine.powerState, describeSuccess(change));
  }

  private async succeed(
    change: ChangeWithResource,
    size: string | null,
    powerState: string | null,
    action: string,
  ): Promise<void> {
    const at = this.now();
    const isGuarded = await this.isGuardedResize(change);
    const isDone = await this.runTransaction(async (transaction) => {
      const automation = new AutomationRepository(transaction.db);
      const updated = await automation.updateChange(change.id, ['claimed', 'submitted'], {
        state: 'succeeded',
        step: null,
        operationUrl: null,
        completedAt: at,
        guardUntil: isGuarded ? new Date(at.getTime() + this.options.guardMs) : null,
      });
      if (!updated) return false;
      await automation.recordResourceState(change.resourceId, size, powerState);
      if (change.recommendationId !== null && change.origin !== 'guard') {
        await automation.setRecommendationStatus(change.recommendationId, 'applied');
      }
      await automation.insertLog(logEntryOf(change, action));
      return true;
    });
    if (isDone) await this.recordActivity(change, action);
  }

  // The guard watches a VM made smaller (fewer vCPUs or less memory); going back from a larger size
  // could only make a hot VM hotter. A size the catalogue does not know is not guarded.
  private async isGuardedResize(change: ChangeRow): Promise<boolean> {
    if (change.kind !== 'resize' || !change.previousSize || !change.newSize) return false;
    return (
      (await this.automation.isSmallerSize(change.resourceId, change.previousSize, change.newSize)) === true
    );
  }

  // Puts the VM back as it was (its size never changed unless the resize succeeded; a VM
  // deallocated for the resize is started again if it was running) and says so everywhere.
  private async fail(
    change: ChangeWithResource,
    credentials: CloudCredentials | undefined,
    reason: string,
  ): Promise<void> {
    let restored = '';
    if (credentials && change.wasRunning) {
      try {
        const machine = await this.cloud.getVirtualMachine(credentials, change.resourceArmId);
        if (machine.powerState !== 'running') {
          const operation = await this.cloud.beginPowerAction(credentials, change.resourceArmId, 'start');
          if (operation.operationUrl) await this.waitForOperation(operation.operationUrl, credentials);
          restored = '; started again as it was running';
        }
      } catch (error) {
        restored = `; starting it again failed too (${describe(error)})`;
      }
    }
    const action = `${describeStep(firstResizeStep(change), change)} failed: ${reason}${restored}`;
    const isRecorded = await this.runTransaction(async (transaction) => {
      const automation = new AutomationRepository(transaction.db);
      const updated = await automation.updateChange(change.id, ['claimed', 'submitted'], {
        state: 'failed',
        error: reason.slice(0, 1000),
        completedAt: this.now(),
        operationUrl: null,
      });
      if (updated) await automation.insertLog(logEntryOf(change, action));
      return updated;
    });
    if (isRecorded) await this.recordActivity(change, action);
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

// Azure's answer when a running VM's hardware cluster lacks the size: deallocate, then resize. Other
// OperationNotAllowed answers (a quota, a policy) would fail the same way after a deallocation.
function isClusterRefusal(error: unknown): boolean {
  return (
    isCloudError(error) && error.code === 'OperationNotAllowed' && /hardware cluster/i.test(error.message)
  );
}

function firstStep(kind: ChangeRow['kind']): Step {
  return kind === 'resize' || kind === 'rollback' ? 'resize' : kind;
}

function firstResizeStep(change: ChangeRow): Step {
  return firstStep(change.kind);
}

// Resize in place; or, when the cluster lacks the size, deallocate, resize and start again only if
// the VM was running.
function planSteps(change: ChangeRow): Step[] {
  if (change.kind === 'deallocate' || change.kind === 'start') return [change.kind];
  if (!change.needsDeallocation) return ['resize'];
  return change.wasRunning ? ['deallocate', 'resize', 'start'] : ['deallocate', 'resize'];
}

function isAlreadyDone(
  change: ChangeRow,
  machine: { size: string | null; powerState: string | null },
): boolean {
  if (change.kind === 'deallocate') return machine.powerState === 'deallocated';
  if (change.kind === 'start') return machine.powerState === 'running';
  return sameSize(machine.size, change.newSize);
}

function isStepDone(
  step: Step,
  change: ChangeRow,
  machine: { size: string | null; powerState: string | null },
): boolean {
  if (step === 'resize') return sameSize(machine.size, change.newSize);
  if (step === 'deallocate') return machine.powerState === 'deallocated';
  return machine.powerState === 'running';
}

function sameSize(left: string | null, right: string | null): boolean {
  return left !== null && right !== null && left.toLowerCase() === right.toLowerCase();
}

function describeStep(step: Step, change: ChangeRow): string {
  if (step === 'resize') return `${change.kind === 'rollback' ? 'Rollback' : 'Resize'} to ${change.newSize}`;
  return stepNames[step];
}

function describeSuccess(change: ChangeRow): string {
  if (change.kind === 'resize') return `Resized from ${change.previousSize} to ${change.newSize}`;
  if (change.kind === 'rollback') return `Rolled back from ${change.previousSize} to ${change.newSize}`;
  return change.kind === 'deallocate' ? 'Deallocated' : 'Started';
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
