// What a run reads of Azure: an operation polled until it ends, a VM or resource once Azure has
// finished with it, a snapshot until it is usable, whether a step is already done there, and the
// change read back at the end.
import type { CloudProvider, CloudResourceState, CloudVirtualMachineState } from '../../cloud/cloud-provider';
import { CloudError } from '../../cloud/cloud-provider';
import {
  describeResourceSuccess,
  isDeletion,
  isResourceChange,
  isResourceChangeDone,
} from './automation.resource-steps';
import type { Run, RunLease } from './automation.run-lease';
import { describeOutcome, isStepDone, sameSize, type Step } from './automation.vm-steps';
import { describeSuccess, describeTags } from './automation.wording';

// What Azure now says of the resource (null: it is gone, the next sync removes it).
export type RecordedState = { size: string | null; powerState: string | null } | null;

// A change read back as done: its log line, and what to record of the resource.
export interface Verified {
  action: string;
  recorded: RecordedState;
}

export class AzureReadBack {
  constructor(
    private readonly cloud: CloudProvider,
    private readonly lease: RunLease,
    // How long one step may run in Azure (ExecutorOptions.stepDeadlineMs).
    private readonly stepDeadlineMs: number,
  ) {}

  // Polls until Azure says the operation ended, waiting as long as Retry-After asks, within the
  // step's own deadline; the run's hold is renewed at every look.
  async waitForOperation(run: Run, operationUrl: string): Promise<void> {
    const deadline = Date.now() + this.stepDeadlineMs;
    for (;;) {
      await this.lease.renew(run);
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
      await this.lease.pause(run, waitMs);
    }
  }

  async isStepDoneInAzure(run: Run, step: Step): Promise<boolean> {
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

  private readMachine(run: Run): Promise<CloudVirtualMachineState> {
    return this.cloud.getVirtualMachine(run.credentials, run.change.resourceArmId, { signal: run.signal });
  }

  // The VM once Azure has finished with it: while an operation still runs on it (provisioning
  // state Updating) its model may show a size it does not have yet.
  async readSettledMachine(run: Run): Promise<CloudVirtualMachineState> {
    const deadline = Date.now() + this.stepDeadlineMs;
    for (let wait = 2_000; ; wait = Math.min(wait * 2, 30_000)) {
      const machine = await this.readMachine(run);
      if (!isBusy(machine) || Date.now() + wait > deadline) return machine;
      await this.lease.renew(run);
      await this.lease.pause(run, wait);
    }
  }

  // A disk, IP, plan, database or snapshot once Azure has finished with it (null once it is gone).
  async readSettledResource(run: Run, resourceId: string): Promise<CloudResourceState | null> {
    const deadline = Date.now() + this.stepDeadlineMs;
    for (let wait = 2_000; ; wait = Math.min(wait * 2, 30_000)) {
      const state = await this.cloud.getResourceState(run.credentials, resourceId, { signal: run.signal });
      if (!state || !isBusy(state) || Date.now() + wait > deadline) return state;
      await this.lease.renew(run);
      await this.lease.pause(run, wait);
    }
  }

  // An incremental snapshot is usable once Azure says it Succeeded and has copied the disk into it
  // (completionPercent 100, where Azure reports it): until then the disk must stay. Past the step's
  // deadline the change fails (not retried into a deletion): the disk stays and the log says why.
  async waitForSnapshot(run: Run): Promise<void> {
    const deadline = Date.now() + this.stepDeadlineMs;
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
      await this.lease.renew(run);
      await this.lease.pause(run, wait);
    }
  }

  // The VM after the change. A run that did it all in one step from a VM it read itself knows it
  // from Azure's answers (the operation succeeded on the size it asked for), which saves a read of
  // the subscription's budget per change; one that resumed, or went through a deallocation, reads it
  // back: the size must be the new one and the power state what it was.
  async verify(run: Run): Promise<Verified> {
    const { change, observed } = run;
    if (isResourceChange(change.kind)) return this.verifyResource(run);
    // Azure answered the merge with the resource's tags: nothing to read back.
    if (change.kind === 'tag') return { action: `Tagged ${describeTags(change)}`, recorded: null };
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
    return { action: describeSuccess(change), recorded: machine };
  }

  // A deleted resource is gone from Azure; a changed one reads back with its new SKU.
  private async verifyResource(run: Run): Promise<Verified> {
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
    return { action: describeResourceSuccess(change, observedResource), recorded };
  }
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
