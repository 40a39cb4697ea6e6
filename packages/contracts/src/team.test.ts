import { describe, expect, it } from 'vitest';
import {
  inviteColleagueQuerySchema,
  removeTeamMemberRequestSchema,
  setTeamRoleRequestSchema,
  teamResponseSchema,
} from './team';

describe('team', () => {
  it('lists members with PascalCase fields and a known Status', () => {
    const member = {
      EmailAddress: 'ada@example.com',
      FirstName: 'Ada',
      LastName: 'Lovelace',
      Status: 'Active',
      role: 'Owner',
    };
    expect(teamResponseSchema.safeParse([member, { ...member, Status: 'Invited' }]).success).toBe(true);
    expect(teamResponseSchema.safeParse([{ ...member, Status: 'Gone' }]).success).toBe(false);
    expect(teamResponseSchema.safeParse([{ ...member, role: 'Admin' }]).success).toBe(false);
  });

  it('sets a role by camelCase `emailAddress` and `role`, one of the four', () => {
    expect(setTeamRoleRequestSchema.parse({ emailAddress: 'Bob@Example.com', role: 'Approver' })).toEqual({
      emailAddress: 'bob@example.com',
      role: 'Approver',
    });
    expect(
      setTeamRoleRequestSchema.safeParse({ emailAddress: 'bob@example.com', role: 'Admin' }).success,
    ).toBe(false);
  });

  it('removes and invites by camelCase `emailAddress`', () => {
    expect(removeTeamMemberRequestSchema.parse({ emailAddress: 'Bob@Example.com' })).toEqual({
      emailAddress: 'bob@example.com',
    });
    expect(removeTeamMemberRequestSchema.safeParse({ EmailAddress: 'bob@example.com' }).success).toBe(false);
    expect(inviteColleagueQuerySchema.safeParse({ emailAddress: 'not an email' }).success).toBe(false);
  });
});
