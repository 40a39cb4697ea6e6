import { inviteConflictText, inviteSuccessText } from '@cloudtrim/contracts/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createUser, logIn, type TestUser } from '../../../test/helper';
import { waitFor } from '../../../test/azure-emulator';
import { createMailTestContext, waitForMailJobs, type MailTestContext } from '../../../test/mailbox';
import { lastOwnerText, ownerOnlyText } from '@cloudtrim/contracts/team';
import { lastMemberText, notInTeamText, notMemberText, teamRules } from './team.service';

let context: MailTestContext;
let emailCounter = 0;

beforeAll(async () => {
  context = await createMailTestContext();
});
afterAll(() => context.close());

function newEmail(): string {
  emailCounter += 1;
  return `colleague${emailCounter}-${Date.now()}@example.com`;
}

interface SignedInUser extends TestUser {
  token: string;
}

async function createSignedInUser(
  teamId?: string,
  firstName = 'Ada',
  role?: 'Owner' | 'Approver' | 'Member' | 'Viewer',
): Promise<SignedInUser> {
  const user = await createUser(context, { teamId, firstName, role });
  return { ...user, token: await logIn(context, user) };
}

const getTeam = (token: string) =>
  context.app.inject({ method: 'GET', url: '/api/v1/team', headers: bearer(token) });

const invite = (token: string, emailAddress: string) =>
  context.app.inject({
    method: 'POST',
    url: `/api/v1/colleague?emailAddress=${encodeURIComponent(emailAddress)}`,
    headers: bearer(token),
  });

const removeFromTeam = (token: string, emailAddress: string) =>
  context.app.inject({
    method: 'DELETE',
    url: '/api/v1/team',
    headers: bearer(token),
    payload: { emailAddress },
  });

const setRole = (token: string, emailAddress: string, role: string) =>
  context.app.inject({
    method: 'PUT',
    url: '/api/v1/team/role',
    headers: bearer(token),
    payload: { emailAddress, role },
  });

const roleOf = async (token: string, email: string) =>
  (await getTeam(token))
    .json<{ EmailAddress: string; role: string }[]>()
    .find((member) => member.EmailAddress === email)?.role;

const getDetails = (token: string) =>
  context.app.inject({ method: 'GET', url: '/api/v1/account/details', headers: bearer(token) });

// The invitation link leads to the same /verify screen as a sign-up link.
async function receiveInvitationToken(email: string): Promise<string> {
  const mail = await context.mailbox.nextMailTo(email);
  const match = /^http:\/\/cloudtrim\.test\/verify\?([A-Za-z0-9_-]+)$/.exec(mail.link);
  if (!match) throw new Error(`unexpected link ${mail.link}`);
  return match[1]!;
}

function completeSignup(guid: string, emailAddress: string) {
  return context.app.inject({
    method: 'PUT',
    url: '/api/v1/emailaddress',
    payload: { guid, emailAddress, password: 'Joined-Team-2026', firstName: 'Grace', lastName: 'Hopper' },
  });
}

describe('GET /api/v1/team', () => {
  it('lists the members of the caller’s team only', async () => {
    const alice = await createSignedInUser(undefined, 'Alice');
    const bob = await createSignedInUser(alice.teamId, 'Bob');
    const outsider = await createSignedInUser();
    const response = await getTeam(alice.token);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual(
      [alice, bob]
        .map((member, index) => ({
          EmailAddress: member.email,
          FirstName: index === 0 ? 'Alice' : 'Bob',
          LastName: 'Lovelace',
          Status: 'Active',
          // The team's creator is its Owner; one who joins it, a Member.
          role: index === 0 ? 'Owner' : 'Member',
        }))
        .sort((left, right) => left.EmailAddress.localeCompare(right.EmailAddress)),
    );
    expect((await getTeam(outsider.token)).json()).toEqual([
      {
        EmailAddress: outsider.email,
        FirstName: 'Ada',
        LastName: 'Lovelace',
        Status: 'Active',
        role: 'Owner',
      },
    ]);
  });

  it('answers 401 without a session', async () => {
    expect((await context.app.inject({ method: 'GET', url: '/api/v1/team' })).statusCode).toBe(401);
  });
});

describe('POST /api/v1/colleague', () => {
  it('invites by mail; the link signs the colleague up into the inviter’s team, once', async () => {
    const inviter = await createSignedInUser(undefined, 'Alice');
    const email = newEmail();
    const response = await invite(inviter.token, email);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: inviteSuccessText });
    expect((await getTeam(inviter.token)).json()).toContainEqual({
      EmailAddress: email,
      FirstName: '',
      LastName: '',
      Status: 'Invited',
      role: 'Member',
    });

    const mail = await context.mailbox.nextMailTo(email);
    expect(mail.subject).toBe('You have been invited to join a team on Cloudtrim');
    expect(mail.text).toContain(`Alice Lovelace (${inviter.email})`);
    expect(mail.text).toContain('expires in 7 days');
    const token = /verify\?([A-Za-z0-9_-]+)$/.exec(mail.link)![1]!;

    const link = await context.app.inject({ method: 'GET', url: `/api/v1/emailaddress?guid=${token}` });
    expect(link.json()).toEqual({ EmailAddress: email });
    expect((await completeSignup(token, email)).statusCode).toBe(200);
    const colleagueToken = await logIn(context, { email, password: 'Joined-Team-2026' });
    const team = (await getTeam(colleagueToken)).json();
    expect(team).toContainEqual({
      EmailAddress: email,
      FirstName: 'Grace',
      LastName: 'Hopper',
      Status: 'Active',
      role: 'Member',
    });
    expect(team).toContainEqual(expect.objectContaining({ EmailAddress: inviter.email, Status: 'Active' }));
    expect(team.filter((member: { Status: string }) => member.Status === 'Invited')).toEqual([]);

    expect((await completeSignup(token, email)).statusCode).toBe(401);
  });

  it('answers 409 for an address with an account or a pending invitation, from any team', async () => {
    const inviter = await createSignedInUser();
    const existing = await createUser(context);
    const existingResponse = await invite(inviter.token, existing.email);
    expect(existingResponse.statusCode).toBe(409);
    expect(existingResponse.json().message).toBe(inviteConflictText(existing.email));
    expect((await invite(inviter.token, inviter.email)).statusCode).toBe(409);

    const email = newEmail();
    expect((await invite(inviter.token, email)).statusCode).toBe(200);
    expect((await invite(inviter.token, email)).statusCode).toBe(409);
    const otherTeam = await createSignedInUser();
    expect((await invite(otherTeam.token, email)).statusCode).toBe(409);
    await context.mailbox.nextMailTo(email);
  });

  it('lets an invitation lapse after 7 days: the link is refused, the list drops it, a new one can be sent', async () => {
    const inviter = await createSignedInUser();
    const email = newEmail();
    await invite(inviter.token, email);
    const token = await receiveInvitationToken(email);
    context.clock.offsetMs = teamRules.invitationLifetimeSeconds * 1000 + 1000;
    try {
      const link = await context.app.inject({ method: 'GET', url: `/api/v1/emailaddress?guid=${token}` });
      expect(link.statusCode).toBe(401);
      expect((await completeSignup(token, email)).statusCode).toBe(401);
      // A week later the inviter's session has long expired.
      const inviterToken = await logIn(context, inviter);
      const team = await getTeam(inviterToken);
      expect(team.statusCode).toBe(200);
      expect(team.json()).not.toContainEqual(expect.objectContaining({ EmailAddress: email }));
      expect((await invite(inviterToken, email)).statusCode).toBe(200);
      const freshToken = await receiveInvitationToken(email);
      expect((await completeSignup(freshToken, email)).statusCode).toBe(200);
    } finally {
      context.clock.offsetMs = 0;
    }
  });

  it('refuses a malformed address with 400', async () => {
    const inviter = await createSignedInUser();
    const response = await invite(inviter.token, 'not-an-address');
    expect(response.statusCode).toBe(400);
    expect(response.json().field).toBe('emailAddress');
  });

  it(`answers 429 past ${teamRules.invitationsPerUser.limit} invitations an hour`, async () => {
    const inviter = await createSignedInUser();
    const existing = await createUser(context);
    // Every call counts, so probing which addresses have accounts is bounded too.
    for (let attempt = 0; attempt < teamRules.invitationsPerUser.limit; attempt += 1) {
      expect((await invite(inviter.token, existing.email)).statusCode).toBe(409);
    }
    const email = newEmail();
    expect((await invite(inviter.token, email)).statusCode).toBe(429);
    await waitForMailJobs(context);
    expect(context.mailbox.mailsTo(email)).toEqual([]);
  });
});

describe('DELETE /api/v1/team', () => {
  it('removes a member: their sessions end, and they keep their account in a team of their own', async () => {
    const alice = await createSignedInUser(undefined, 'Alice');
    const bob = await createSignedInUser(alice.teamId, 'Bob');
    const response = await removeFromTeam(alice.token, bob.email.toUpperCase());
    expect(response.statusCode).toBe(200);
    expect(response.json().message).toContain(bob.email);
    expect((await getDetails(bob.token)).statusCode).toBe(401);
    expect((await getDetails(alice.token)).statusCode).toBe(200);
    expect((await getTeam(alice.token)).json()).toEqual([
      expect.objectContaining({ EmailAddress: alice.email }),
    ]);

    const bobAgain = await logIn(context, bob);
    expect((await getTeam(bobAgain)).json()).toEqual([
      { EmailAddress: bob.email, FirstName: 'Bob', LastName: 'Lovelace', Status: 'Active', role: 'Owner' },
    ]);
    const moved = await context.container.repositories.account.findByEmail(bob.email);
    expect(moved!.teamId).not.toBe(alice.teamId);
  });

  it('moves the member out and ends their sessions in one transaction: never one without the other', async () => {
    const alice = await createSignedInUser(undefined, 'Alice');
    const bob = await createSignedInUser(alice.teamId, 'Bob');
    // Bob's session is cached with Alice's team.
    expect((await getTeam(bob.token)).statusCode).toBe(200);
    const pool = context.container.database.pool;
    const holder = await pool.connect();
    try {
      // Holding Bob's session rows stops his logout half-way: the removal waits on them.
      await holder.query('begin');
      await holder.query('select id from session where user_id = $1 for update', [bob.userId]);
      const removal = removeFromTeam(alice.token, bob.email);
      await waitFor(async () => {
        const { rows } = await pool.query(
          `select 1 from pg_stat_activity
            where datname = current_database() and wait_event_type = 'Lock' and query ilike 'update "session"%'`,
        );
        return rows.length > 0;
      });
      // Meanwhile Bob is still in Alice's team as everyone else sees it, with his session alive.
      const { rows } = await pool.query('select team_id from app_user where id = $1', [bob.userId]);
      expect(rows[0].team_id).toBe(alice.teamId);
      expect((await getDetails(bob.token)).statusCode).toBe(200);
      await holder.query('commit');
      expect((await removal).statusCode).toBe(200);
    } finally {
      await holder.query('rollback').catch(() => {});
      holder.release();
    }
    expect((await getTeam(bob.token)).statusCode).toBe(401);
    const moved = await context.container.repositories.account.findByEmail(bob.email);
    expect(moved!.teamId).not.toBe(alice.teamId);
  });

  it('ends no session when the removal fails after moving the member, and moves nobody', async () => {
    const alice = await createSignedInUser(undefined, 'Alice');
    const bob = await createSignedInUser(alice.teamId, 'Bob');
    const pool = context.container.database.pool;
    // A failure at the last step of the removal: the sessions' update is refused.
    await pool.query(`
      create or replace function refuse_session_revocation() returns trigger language plpgsql as $$
      begin raise exception 'session revocation refused'; end $$;
      create trigger refuse_session_revocation before update on session
        for each row when (new.user_id = '${bob.userId}') execute function refuse_session_revocation();`);
    try {
      expect((await removeFromTeam(alice.token, bob.email)).statusCode).toBe(500);
    } finally {
      await pool.query(
        'drop trigger refuse_session_revocation on session; drop function refuse_session_revocation()',
      );
    }
    const stayed = await context.container.repositories.account.findByEmail(bob.email);
    expect(stayed!.teamId).toBe(alice.teamId);
    expect((await getDetails(bob.token)).statusCode).toBe(200);
    expect((await getTeam(alice.token)).json()).toContainEqual(
      expect.objectContaining({ EmailAddress: bob.email, Status: 'Active' }),
    );
  });

  it('withdraws an invitation, whose link then stops working', async () => {
    const inviter = await createSignedInUser();
    const email = newEmail();
    await invite(inviter.token, email);
    const token = await receiveInvitationToken(email);
    const response = await removeFromTeam(inviter.token, email);
    expect(response.statusCode).toBe(200);
    expect((await getTeam(inviter.token)).json()).not.toContainEqual(
      expect.objectContaining({ EmailAddress: email }),
    );
    const link = await context.app.inject({ method: 'GET', url: `/api/v1/emailaddress?guid=${token}` });
    expect(link.statusCode).toBe(401);
  });

  it('refuses to remove the last member of a team', async () => {
    const loner = await createSignedInUser();
    const response = await removeFromTeam(loner.token, loner.email);
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toBe(lastMemberText);
    expect((await getDetails(loner.token)).statusCode).toBe(200);
  });

  it('lets a member leave a team of two, ending their own sessions', async () => {
    const alice = await createSignedInUser();
    const bob = await createSignedInUser(alice.teamId);
    expect((await removeFromTeam(bob.token, bob.email)).statusCode).toBe(200);
    expect((await getDetails(bob.token)).statusCode).toBe(401);
    expect((await getTeam(alice.token)).json()).toHaveLength(1);
  });

  it('answers 404 for another team’s member or invitation, and changes nothing there', async () => {
    const alice = await createSignedInUser();
    const bob = await createSignedInUser(alice.teamId);
    const invited = newEmail();
    await invite(alice.token, invited);
    const mallory = await createSignedInUser();
    // Mallory's team has two members, so "last member" cannot be the reason for refusing.
    await createSignedInUser(mallory.teamId);

    for (const email of [bob.email, invited, 'nobody@example.com']) {
      const response = await removeFromTeam(mallory.token, email);
      expect(response.statusCode).toBe(404);
      expect(response.json().message).toBe(notInTeamText);
    }
    expect((await getDetails(bob.token)).statusCode).toBe(200);
    const aliceTeam = (await getTeam(alice.token)).json();
    expect(aliceTeam).toContainEqual(expect.objectContaining({ EmailAddress: bob.email, Status: 'Active' }));
    expect(aliceTeam).toContainEqual(expect.objectContaining({ EmailAddress: invited, Status: 'Invited' }));
    expect((await getTeam(mallory.token)).json()).not.toContainEqual(
      expect.objectContaining({ EmailAddress: bob.email }),
    );
    await context.mailbox.nextMailTo(invited);
  });

  it('refuses a malformed body with 400', async () => {
    const alice = await createSignedInUser();
    const response = await context.app.inject({
      method: 'DELETE',
      url: '/api/v1/team',
      headers: bearer(alice.token),
      payload: { email: alice.email },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().field).toBe('emailAddress');
  });
});

describe('PUT /api/v1/team/role', () => {
  it("is an Owner's call: sets a member's role, shown by GET /api/v1/team", async () => {
    const alice = await createSignedInUser(undefined, 'Alice');
    const bob = await createSignedInUser(alice.teamId, 'Bob');
    const carol = await createSignedInUser(alice.teamId, 'Carol');
    const response = await setRole(alice.token, bob.email.toUpperCase(), 'Approver');
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().message).toBe(`${bob.email} is now an Approver.`);
    expect(await roleOf(carol.token, bob.email)).toBe('Approver');

    // Neither a Member nor an Approver grants roles, their own included.
    for (const caller of [carol, bob]) {
      const refused = await setRole(caller.token, caller.email, 'Owner');
      expect(refused.statusCode).toBe(403);
      expect(refused.json().message).toBe(ownerOnlyText);
    }
    expect(await roleOf(alice.token, carol.email)).toBe('Member');
    expect(await roleOf(alice.token, bob.email)).toBe('Approver');
  });

  it('keeps one Owner: the last one can neither step down nor leave, until another is made Owner', async () => {
    const alice = await createSignedInUser(undefined, 'Alice');
    const bob = await createSignedInUser(alice.teamId, 'Bob');
    const stepDown = await setRole(alice.token, alice.email, 'Member');
    expect(stepDown.statusCode).toBe(409);
    expect(stepDown.json().message).toBe(lastOwnerText);
    const leave = await removeFromTeam(bob.token, alice.email);
    expect(leave.statusCode).toBe(409);
    expect(leave.json().message).toBe(lastOwnerText);
    expect(await roleOf(alice.token, alice.email)).toBe('Owner');

    expect((await setRole(alice.token, bob.email, 'Owner')).statusCode).toBe(200);
    expect((await setRole(alice.token, alice.email, 'Viewer')).statusCode).toBe(200);
    expect(await roleOf(bob.token, alice.email)).toBe('Viewer');
    expect(await roleOf(bob.token, bob.email)).toBe('Owner');
  });

  it("answers 404 for another team's member or an invitation, and 400 for an unknown role, changing nothing", async () => {
    const alice = await createSignedInUser();
    const invited = newEmail();
    await invite(alice.token, invited);
    const mallory = await createSignedInUser();
    for (const email of [mallory.email, invited]) {
      const response = await setRole(alice.token, email, 'Viewer');
      expect(response.statusCode).toBe(404);
      expect(response.json().message).toBe(notMemberText);
    }
    const unknown = await setRole(alice.token, alice.email, 'Admin');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().field).toBe('role');
    expect(await roleOf(mallory.token, mallory.email)).toBe('Owner');
    expect(await roleOf(alice.token, alice.email)).toBe('Owner');
    await context.mailbox.nextMailTo(invited);
  });
});
