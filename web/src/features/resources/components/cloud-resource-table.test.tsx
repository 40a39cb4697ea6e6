// @vitest-environment jsdom
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CloudResource } from '@cloudtrim/contracts/resources';
import type { TeamResponse } from '@cloudtrim/contracts/team';
import { createQueryClient } from '../../../lib/query-client';
import { refuseUnexpectedCall } from '../../../testing/unexpected-fetch';
import { createTeamOfMe } from '../../../testing/team.fixture';
import { createCloudResource } from '../testing/cloud-resource.fixture';
import { activeHoursInUtcText, CloudResourceTable } from './cloud-resource-table';

function createResource(index: number): CloudResource {
  return createCloudResource(`vm-${String(index).padStart(3, '0')}`);
}

let team: TeamResponse;

beforeEach(() => {
  localStorage.setItem('token', 'a-session-token');
  localStorage.setItem('email', 'demo@cloudtrim.dev');
  team = [];
  // The caller's role (a Viewer cannot change a row).
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) =>
      url === '/api/v1/team'
        ? new Response(JSON.stringify(team), { headers: { 'Content-Type': 'application/json' } })
        : refuseUnexpectedCall(url, init),
    ),
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
});

function renderTable(resources: CloudResource[]) {
  render(
    <QueryClientProvider client={createQueryClient()}>
      <CloudResourceTable resources={resources} page={1} onPageChange={() => {}} onOpenLogs={() => {}} />
    </QueryClientProvider>,
  );
}

describe('CloudResourceTable', () => {
  // Frames come slower on a loaded machine: the rows are counted, not timed, but 45 rows at a few a
  // frame may take longer than vitest's default 5 s there.
  it(
    'shows a page a few rows a frame, top first, and its pagination once every row is there',
    { timeout: 30_000 },
    async () => {
      renderTable(Array.from({ length: 45 }, (_, index) => createResource(index)));
      // The group's divider and the first nine resources in the first frame.
      expect(screen.getAllByRole('row')).toHaveLength(1 + 10);
      expect(screen.getByRole('button', { name: 'vm-000' })).toBeTruthy();
      expect(screen.queryByRole('navigation', { name: 'Cloud resource pages' })).toBeNull();

      // Querying rows by role is slow in jsdom (tens of form controls), hence the longer wait.
      await waitFor(() => expect(screen.getAllByRole('row')).toHaveLength(1 + 31), { timeout: 25_000 });
      expect(screen.getByRole('button', { name: 'vm-029' })).toBeTruthy();
      expect(screen.queryByRole('button', { name: 'vm-030' })).toBeNull();
      expect(screen.getByRole('navigation', { name: 'Cloud resource pages' })).toBeTruthy();
    },
  );

  it('shows a short page whole at once', () => {
    renderTable([createResource(1), createResource(2)]);
    expect(screen.getAllByRole('row')).toHaveLength(1 + 3);
    expect(screen.getByRole('navigation', { name: 'Cloud resource pages' })).toBeTruthy();
  });

  it('says the active hours are in UTC, above the table and on both hour columns, under SPEC’s headers', () => {
    renderTable([createResource(1)]);
    expect(screen.getByText(activeHoursInUtcText)).toBeTruthy();
    for (const name of ['HOURS START', 'HOURS END']) {
      const header = screen.getByRole('columnheader', { name });
      expect(header.getAttribute('title')).toBe(activeHoursInUtcText);
      expect(header).toHaveProperty('textContent', name);
    }
    expect(
      screen.getByRole('columnheader', { name: 'HOURS START', description: activeHoursInUtcText }),
    ).toBeTruthy();
  });

  it('shows a Viewer each row’s automation and hours with nothing to change', async () => {
    team = createTeamOfMe('Viewer');
    renderTable([createResource(1)]);
    const automated = screen.getByRole('combobox', { name: 'Automated for vm-001' });
    await waitFor(() => expect(automated.hasAttribute('disabled')).toBe(true));
    expect(screen.getByRole('spinbutton', { name: 'Hours start for vm-001' }).hasAttribute('disabled')).toBe(
      true,
    );
    expect(screen.getByRole('spinbutton', { name: 'Hours end for vm-001' }).hasAttribute('disabled')).toBe(
      true,
    );
  });
});
