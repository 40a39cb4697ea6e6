// How a change's steps, successes, cancellations and failures read in the automation log and Recent
// Activity.
import type { ChangeRow } from './automation.repository';
import { describeResourceChange, describeResourceStep, isResourceChange } from './automation.resource-steps';
import { firstStep, type Step } from './automation.vm-steps';

const stepNames: Readonly<Record<Step, string>> = {
  deallocate: 'Deallocation',
  resize: 'Resize',
  start: 'Start',
  snapshot: 'Snapshot',
  delete: 'Deletion',
  changeSku: 'Change',
  tag: 'Tagging',
};

// The change as a whole, in its cancellation, failure or waiting line.
export function describeChange(change: ChangeRow): string {
  return isResourceChange(change.kind)
    ? describeResourceChange(change)
    : describeStep(firstStep(change.kind), change);
}

export function describeStepDone(step: Step, change: ChangeRow): string {
  return step === 'snapshot' ? `Snapshot ${change.snapshotId} taken` : `${stepNames[step]} done`;
}

export function describeStep(step: Step, change: ChangeRow): string {
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

export function describeSuccess(change: ChangeRow): string {
  if (change.kind === 'resize') return `Resized from ${change.previousSize} to ${change.newSize}`;
  if (change.kind === 'rollback') return `Rolled back from ${change.previousSize} to ${change.newSize}`;
  return change.kind === 'deallocate' ? 'Deallocated' : 'Started';
}
