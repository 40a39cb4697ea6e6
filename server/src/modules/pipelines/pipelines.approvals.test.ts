import {
  approvalJoinedLaterText,
  approvalOwnProposalText,
  approvalRoleText,
  rejectionRoleText,
} from '@cloudtrim/contracts/pipelines';
import { describe, expect, it } from 'vitest';
import { findApprovalRefusal, findRejectionRefusal, findRunsAfter, toActionKey } from './pipelines.approvals';

const proposedAt = new Date('2027-05-01T10:00:00Z');
const longAgo = new Date('2027-01-01T00:00:00Z');
const proposal = { proposers: new Set(['author', 'presser']), proposedAt };

describe('findApprovalRefusal', () => {
  it('lets an Owner or Approver who proposed nothing and joined before the proposal approve', () => {
    expect(findApprovalRefusal({ userId: 'other', role: 'Approver', joinedTeamAt: longAgo }, proposal)).toBe(
      undefined,
    );
    expect(findApprovalRefusal({ userId: 'other', role: 'Owner', joinedTeamAt: longAgo }, proposal)).toBe(
      undefined,
    );
  });

  it('says why it refuses: the role, a proposal of theirs, or joining at or after the proposal', () => {
    for (const role of ['Member', 'Viewer'] as const) {
      expect(findApprovalRefusal({ userId: 'other', role, joinedTeamAt: longAgo }, proposal)).toBe(
        approvalRoleText,
      );
    }
    for (const userId of ['author', 'presser']) {
      expect(findApprovalRefusal({ userId, role: 'Owner', joinedTeamAt: longAgo }, proposal)).toBe(
        approvalOwnProposalText,
      );
    }
    for (const joinedTeamAt of [proposedAt, new Date(proposedAt.getTime() + 1)]) {
      expect(findApprovalRefusal({ userId: 'other', role: 'Approver', joinedTeamAt }, proposal)).toBe(
        approvalJoinedLaterText,
      );
    }
  });
});

describe('findRejectionRefusal', () => {
  it('lets an Owner or Approver reject, a proposer included, and no one else', () => {
    expect(findRejectionRefusal({ userId: 'author', role: 'Owner', joinedTeamAt: longAgo })).toBe(undefined);
    expect(findRejectionRefusal({ userId: 'x', role: 'Approver', joinedTeamAt: proposedAt })).toBe(undefined);
    expect(findRejectionRefusal({ userId: 'x', role: 'Member', joinedTeamAt: longAgo })).toBe(
      rejectionRoleText,
    );
  });
});

describe('findRunsAfter', () => {
  const runsAfter = new Date('2027-05-01T11:00:00Z');
  it('keeps the grace period when approved within it', () => {
    expect(findRunsAfter({ proposedAt, runsAfter }, new Date('2027-05-01T10:30:00Z'))).toEqual(runsAfter);
    expect(findRunsAfter({ proposedAt, runsAfter }, runsAfter)).toEqual(runsAfter);
  });

  it('waits a full grace period again from a late approval', () => {
    expect(findRunsAfter({ proposedAt, runsAfter }, new Date('2027-05-01T12:15:00Z'))).toEqual(
      new Date('2027-05-01T13:15:00Z'),
    );
    const noGrace = { proposedAt, runsAfter: proposedAt };
    const late = new Date('2027-05-01T12:00:00Z');
    expect(findRunsAfter(noGrace, late)).toEqual(late);
  });
});

describe('the open approval key', () => {
  it('is the action, a tag action one per tag it sets', () => {
    expect(toActionKey({ type: 'deallocate' })).toBe('deallocate');
    expect(toActionKey({ type: 'tag', tag: { key: 'a', value: 'b' } })).not.toBe(
      toActionKey({ type: 'tag', tag: { key: 'a', value: 'c' } }),
    );
  });
});
