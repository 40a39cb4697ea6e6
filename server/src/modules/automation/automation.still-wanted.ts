// Whether a change is still wanted, decided once, under the resource's lock, just before its first
// Azure write: its recommendation open, an Automated resource still Automated, no hold, the tenant
// active, no protection tag added since, and the resource in Azure still as the change was planned
// from. The decision is recorded with what the run learnt (the size to go back to, whether it ran).
import { automationValues } from '@cloudtrim/contracts/automation';
import type { CloudVirtualMachineState } from '../../cloud/cloud-provider';
import type { TransactionRunner } from '../../db/transaction';
import { describeProtectionAdded } from '../../lib/protection-tags';
import { AutomationRepository, recommendationOrigins, type ChangeRow } from './automation.repository';
import type { ChangeOutcomes, ReasonToStop } from './automation.outcomes';
import type { AzureReadBack } from './automation.read-back';
import {
  describeResourceMismatch,
  isDeletion,
  isResourceChange,
  isResourceChangeDone,
  snapshotIdOf,
} from './automation.resource-steps';
import { LostChangeError, type Run } from './automation.run-lease';
import { firstStep, isAlreadyDone, sameSize } from './automation.vm-steps';

const goneReason: ReasonToStop = { text: 'it no longer exists', skip: 'notApplicable' };
export const inactiveTenantReason: ReasonToStop = { text: 'the tenant is inactive', skip: null };

export class StillWantedDecision {
  constructor(
    private readonly runTransaction: TransactionRunner,
    private readonly now: () => Date,
    private readonly readBack: AzureReadBack,
    private readonly outcomes: ChangeOutcomes,
  ) {}

  // A change's first run: reads the VM, then decides under the VM's lock whether the change is
  // still wanted, and records what it learnt (the size to go back to, whether it ran).
  async decide(run: Run): Promise<boolean> {
    const { change } = run;
    if (isResourceChange(change.kind)) return this.decideOnResource(run);
    if (change.kind === 'tag') return this.decideToTag(run);
    // A VM Azure is still working on (someone's restart) is judged once it has settled.
    const machine = await this.readBack.readSettledMachine(run);
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
      await this.outcomes.cancel(run, decision.reasonToStop);
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
      await this.outcomes.succeed(run, 'Nothing to change: the VM is already so', machine);
      return false;
    }
    return true;
  }

  // The same decision for a disk, IP, plan or database: still what the recommendation saw (a disk
  // still Unattached, an IP still unassociated, a plan still without apps, the SKU planned from).
  // It does not run, so `wasRunning` false marks the decision made; a disk's snapshot is named now.
  private async decideOnResource(run: Run): Promise<boolean> {
    const { change } = run;
    const state = await this.readBack.readSettledResource(run, change.resourceArmId);
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
      await this.outcomes.cancel(run, decision.reasonToStop);
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
      await this.outcomes.succeed(run, 'Nothing to change: it is already so', {
        size: state!.sku,
        powerState: null,
      });
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
      await this.outcomes.cancel(run, reasonToStop);
      return false;
    }
    run.change = { ...change, wasRunning: false, step: 'tag' };
    return true;
  }
}

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
