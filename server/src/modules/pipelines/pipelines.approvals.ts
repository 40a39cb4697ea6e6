// Who may decide a pipeline's approval (issue 23 §2), as pure rules: an Owner or Approver approves,
// if they are not among its proposers (every author of the pipeline's versions up to the one the run
// used, and whoever pressed run) and joined the team before the proposal. An Owner or Approver may
// reject (veto) until the action has run.
import {
  approvalJoinedLaterText,
  approvalOwnProposalText,
  approvalRoleText,
  rejectionRoleText,
  type ApprovalState,
  type PipelineAction,
} from '@cloudtrim/contracts/pipelines';
import type { TeamRole } from '@cloudtrim/contracts/team';

export interface Decider {
  userId: string;
  role: TeamRole;
  joinedTeamAt: Date;
}

export interface Proposal {
  proposers: ReadonlySet<string>;
  proposedAt: Date;
}

// The states in which an approval still stands between its items and Azure.
export const openApprovalStates = ['waiting', 'approved'] as const satisfies readonly ApprovalState[];

function isDecidingRole(role: TeamRole): boolean {
  return role === 'Owner' || role === 'Approver';
}

// Why the decider may not approve the proposal, or undefined when they may.
export function findApprovalRefusal(decider: Decider, proposal: Proposal): string | undefined {
  if (!isDecidingRole(decider.role)) return approvalRoleText;
  if (proposal.proposers.has(decider.userId)) return approvalOwnProposalText;
  if (decider.joinedTeamAt.getTime() >= proposal.proposedAt.getTime()) return approvalJoinedLaterText;
  return undefined;
}

export function findRejectionRefusal(decider: Decider): string | undefined {
  return isDecidingRole(decider.role) ? undefined : rejectionRoleText;
}

// An approval given once the grace period is over waits a full grace period again from the approval,
// so the team still sees the notice's warning before the action runs.
export function findRunsAfter(approval: { proposedAt: Date; runsAfter: Date }, approvedAt: Date): Date {
  if (approvedAt.getTime() <= approval.runsAfter.getTime()) return approval.runsAfter;
  const graceMs = approval.runsAfter.getTime() - approval.proposedAt.getTime();
  return new Date(approvedAt.getTime() + graceMs);
}

// The action as the one-open-approval key knows it: a tag action is one per tag it sets.
export function toActionKey(action: PipelineAction): string {
  return action.tag ? JSON.stringify([action.type, action.tag.key, action.tag.value]) : action.type;
}
