// A VM change's steps (a disk's, IP's, plan's or database's are automation.resource-steps.ts): which
// steps a change takes, whether Azure's VM already shows one done, and Azure's refusals the steps
// answer to (a hardware cluster without the size, another operation running).
import type { CloudVirtualMachineState } from '../../cloud/cloud-provider';
import { isCloudError } from '../../cloud/cloud-provider';
import type { ChangeRow } from './automation.repository';
import { isResourceChange, planResourceSteps, type ResourceStep } from './automation.resource-steps';

export type Step = 'deallocate' | 'resize' | 'start' | 'tag' | ResourceStep;

// Azure's answer when a running VM's hardware cluster lacks the size: deallocate, then resize. Other
// OperationNotAllowed answers (a quota, a policy) would fail the same way after a deallocation.
export function isClusterRefusal(error: unknown): boolean {
  return (
    isCloudError(error) && error.code === 'OperationNotAllowed' && /hardware cluster/i.test(error.message)
  );
}

// Azure's 409 while another operation runs on the VM (someone's, or ours whose answer was lost).
export function isBusyRefusal(error: unknown): boolean {
  return (
    isCloudError(error) &&
    error.statusCode === 409 &&
    (error.code === 'Conflict' || /another operation|in use by another/i.test(error.message))
  );
}

// What a VM is after a single step Azure reported done.
export function describeOutcome(
  change: ChangeRow,
  before: CloudVirtualMachineState,
): CloudVirtualMachineState {
  if (change.kind === 'deallocate') return { ...before, powerState: 'deallocated' };
  if (change.kind === 'start') return { ...before, powerState: 'running' };
  return { ...before, size: change.newSize };
}

export function firstStep(kind: ChangeRow['kind']): Step {
  if (isResourceChange(kind)) return planResourceSteps(kind)[0]!;
  if (kind === 'tag') return 'tag';
  return kind === 'resize' || kind === 'rollback' ? 'resize' : kind === 'start' ? 'start' : 'deallocate';
}

// Resize in place; or, when the cluster lacks the size, deallocate, resize and start again only if
// the VM was running.
export function planSteps(change: ChangeRow): Step[] {
  if (isResourceChange(change.kind)) return planResourceSteps(change.kind);
  if (change.kind === 'deallocate' || change.kind === 'start' || change.kind === 'tag') return [change.kind];
  if (!change.needsDeallocation) return ['resize'];
  return change.wasRunning ? ['deallocate', 'resize', 'start'] : ['deallocate', 'resize'];
}

export function isAlreadyDone(change: ChangeRow, machine: CloudVirtualMachineState): boolean {
  if (change.kind === 'deallocate') return machine.powerState === 'deallocated';
  if (change.kind === 'start') return machine.powerState === 'running';
  return sameSize(machine.size, change.newSize);
}

export function isStepDone(step: Step, change: ChangeRow, machine: CloudVirtualMachineState): boolean {
  if (step === 'resize') return sameSize(machine.size, change.newSize);
  if (step === 'deallocate') return machine.powerState === 'deallocated';
  return machine.powerState === 'running';
}

export function sameSize(left: string | null, right: string | null): boolean {
  return left !== null && right !== null && left.toLowerCase() === right.toLowerCase();
}
