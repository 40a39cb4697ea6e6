// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TeamMember } from '@cloudtrim/contracts/team';
import { createQueryClient } from '../../../lib/query-client';
import { sessionStorageKeys } from '../../../lib/session';
import { ManageTeam } from './manage-team';
import { refuseUnexpectedCall } from '../../../testing/unexpected-fetch';

const owner: TeamMember = {
  EmailAddress: 'olga@example.com',
  FirstName: 'Olga',
  LastName: 'Owner',
  Status: 'Active',
  role: 'Owner',
};

function answer(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

let team: TeamMember[];
let inviteAnswer: () => Response;
let removeAnswer: () => Response;
let roleAnswer: () => Response;
let fetchMock: ReturnType<typeof vi.fn>;

function renderTeam() {
  render(
    <QueryClientProvider client={createQueryClient()}>
      <ManageTeam />
    </QueryClientProvider>,
  );
}

function typeColleague(value: string) {
  fireEvent.input(screen.getByLabelText('Colleague Email'), { target: { value } });
}

beforeEach(() => {
  team = [owner];
  inviteAnswer = () => answer(200, { message: 'invited' });
  removeAnswer = () => answer(200, { message: 'removed' });
  roleAnswer = () => answer(200, { message: 'set' });
  fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
    const method = init?.method ?? 'GET';
    if (url === '/api/v1/team' && method === 'GET') return answer(200, team);
    if (url.startsWith('/api/v1/colleague?') && method === 'POST') return inviteAnswer();
    if (url === '/api/v1/team' && method === 'DELETE') return removeAnswer();
    if (url === '/api/v1/team/role' && method === 'PUT') return roleAnswer();
    return refuseUnexpectedCall(url, init);
  });
  vi.stubGlobal('fetch', fetchMock);
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
});

function signInAs(email: string) {
  localStorage.setItem(sessionStorageKeys.token, 'a-session-token');
  localStorage.setItem(sessionStorageKeys.email, email);
}

describe('<ManageTeam>', () => {
  it('lists the team with SPEC’s columns and a REMOVE button per row', async () => {
    team = [
      owner,
      { EmailAddress: 'ivy@example.com', FirstName: '', LastName: '', Status: 'Invited', role: 'Member' },
    ];
    renderTeam();
    expect(screen.getByRole('heading', { name: 'Invite Colleagues' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Your Team' })).toBeTruthy();
    const rows = await screen.findAllByRole('row');
    expect(rows.map((row) => row.textContent)).toEqual([
      'EMAILNAMESTATUSROLEREMOVE FROM TEAM',
      'olga@example.comOlga OwnerActiveOwnerREMOVE',
      'ivy@example.comInvitedMemberREMOVE',
    ]);
  });

  it('gives an Owner a role menu for each active member, which sends the new role', async () => {
    signInAs('olga@example.com');
    const bob: TeamMember = {
      EmailAddress: 'bob@example.com',
      FirstName: 'Bob',
      LastName: 'B',
      Status: 'Active',
      role: 'Member',
    };
    team = [bob, owner];
    renderTeam();
    const menu = await screen.findByRole('combobox', { name: 'Role of bob@example.com' });
    expect(
      within(menu)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Owner', 'Approver', 'Member', 'Viewer']);
    team = [{ ...bob, role: 'Approver' }, owner];
    fireEvent.change(menu, { target: { value: 'Approver' } });
    await waitFor(() =>
      expect(
        fetchMock.mock.calls.find(([url, init]) => url === '/api/v1/team/role' && init?.method === 'PUT'),
      ).toBeTruthy(),
    );
    const roleCall = fetchMock.mock.calls.find(([url]) => url === '/api/v1/team/role');
    expect(JSON.parse(String(roleCall?.[1]?.body))).toEqual({
      emailAddress: 'bob@example.com',
      role: 'Approver',
    });
    await waitFor(() =>
      expect(
        (screen.getByRole('combobox', { name: 'Role of bob@example.com' }) as HTMLSelectElement).value,
      ).toBe('Approver'),
    );

    // The server's refusal (the last Owner stepping down) is said in a banner.
    roleAnswer = () =>
      answer(409, { message: 'A team always keeps one Owner: make another member Owner first.' });
    fireEvent.change(screen.getByRole('combobox', { name: 'Role of olga@example.com' }), {
      target: { value: 'Viewer' },
    });
    expect((await screen.findByRole('alert')).textContent).toContain('A team always keeps one Owner');
  });

  it('shows the role as a word to a Member, and hides the changes from a Viewer', async () => {
    const vera: TeamMember = {
      EmailAddress: 'vera@example.com',
      FirstName: 'Vera',
      LastName: 'V',
      Status: 'Active',
      role: 'Viewer',
    };
    team = [owner, vera];
    signInAs('vera@example.com');
    renderTeam();
    const rows = await screen.findAllByRole('row');
    await waitFor(() => expect(rows[0]!.textContent).toBe('EMAILNAMESTATUSROLE'));
    expect(screen.queryByRole('combobox')).toBeNull();
    expect(screen.queryByRole('button', { name: /REMOVE/ })).toBeNull();
    expect(screen.getByRole('button', { name: 'INVITE' })).toHaveProperty('disabled', true);
  });

  it('says so when the team is empty', async () => {
    team = [];
    renderTeam();
    expect(await screen.findByText('No team members right now.')).toBeTruthy();
  });

  it('sends the invitation as a query with no body, thanks the user and refreshes the list', async () => {
    renderTeam();
    await screen.findByText('olga@example.com');
    typeColleague('Ann@Example.com');
    team = [
      owner,
      { EmailAddress: 'ann@example.com', FirstName: '', LastName: '', Status: 'Invited', role: 'Member' },
    ];
    fireEvent.click(screen.getByRole('button', { name: 'INVITE' }));

    expect(
      await screen.findByText('Thank you, your colleague will be invited to sign up for the product.'),
    ).toBeTruthy();
    expect(await screen.findByText('ann@example.com')).toBeTruthy();
    const inviteCall = fetchMock.mock.calls.find(([url]) => String(url).startsWith('/api/v1/colleague'));
    expect(inviteCall?.[0]).toBe('/api/v1/colleague?emailAddress=ann%40example.com');
    expect(inviteCall?.[1]?.body).toBeUndefined();
  });

  it('names the address on a 409, any other failure gets the general text, and editing clears the banner', async () => {
    inviteAnswer = () => answer(409, { message: 'exists' });
    renderTeam();
    typeColleague('ann@example.com');
    fireEvent.click(screen.getByRole('button', { name: 'INVITE' }));
    const conflict =
      'ann@example.com either already has an account of the product or has already been invited.';
    expect(await screen.findByText(conflict)).toBeTruthy();

    typeColleague('ann@example.co');
    await waitFor(() => expect(screen.queryByText(conflict)).toBeNull());

    inviteAnswer = () => answer(500, { message: 'boom' });
    fireEvent.click(screen.getByRole('button', { name: 'INVITE' }));
    expect(
      await screen.findByText('There was an error submitting your form. Please Try again later.'),
    ).toBeTruthy();
  });

  it('shows the server’s reason for a refused removal in a dismissible banner', async () => {
    removeAnswer = () => answer(409, { message: 'The last member of a team cannot be removed.' });
    renderTeam();
    const row = (await screen.findByText('olga@example.com')).closest('tr')!;
    fireEvent.click(within(row).getByRole('button', { name: /REMOVE/ }));

    const banner = await screen.findByRole('alert');
    expect(banner.textContent).toContain('The last member of a team cannot be removed.');
    const removeCall = fetchMock.mock.calls.find(([, init]) => init?.method === 'DELETE');
    expect(JSON.parse(String(removeCall?.[1]?.body))).toEqual({ emailAddress: 'olga@example.com' });

    fireEvent.click(within(banner).getByRole('button', { name: 'Close alert' }));
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
  });
});
