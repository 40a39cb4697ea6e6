// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ScheduledChange } from '@cloudtrim/contracts/schedule';
import { createQueryClient } from '../../../lib/query-client';
import { PendingAutomation } from './pending-automation';
import { refuseUnexpectedCall } from '../../../testing/unexpected-fetch';

function vmId(index: number): string {
  return `/subscriptions/s/resourceGroups/rg/providers/Microsoft.Compute/virtualMachines/vm-${index}`;
}

function createChange(index: number, overrides: Partial<ScheduledChange> = {}): ScheduledChange {
  return {
    Id: index,
    ResourceId: vmId(index),
    FriendlyName: `vm-${index}`,
    ChangeDateTime: new Date(Date.UTC(2026, 10, 24, index % 24)).toISOString(),
    NewSize: 'Standard_D2s_v5',
    Version: String(index),
    ...overrides,
  };
}

function answer(status: number, body: unknown, statusText = ''): Response {
  return new Response(JSON.stringify(body), {
    status,
    statusText,
    headers: { 'Content-Type': 'application/json' },
  });
}

let scheduleAnswer: (resourceId: string | null) => Response | Promise<Response>;
let fetchMock: ReturnType<typeof vi.fn>;

function renderPending(path = '/pending') {
  const router = createMemoryRouter([{ path: '/pending', element: <PendingAutomation /> }], {
    initialEntries: [path],
  });
  render(
    <QueryClientProvider client={createQueryClient()}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

function resourceNames(): string[] {
  return screen
    .getAllByRole('row')
    .slice(1)
    .map((row) => within(row).getAllByRole('cell')[0]!.textContent ?? '');
}

beforeEach(() => {
  localStorage.setItem('token', 'a-session-token');
  scheduleAnswer = () => answer(200, { Data: [] });
  fetchMock = vi.fn(async (url: string) => {
    const parsed = new URL(url, 'http://localhost');
    if (parsed.pathname === '/api/v1/resource/schedule')
      return scheduleAnswer(parsed.searchParams.get('resourceId'));
    return refuseUnexpectedCall(url);
  });
  vi.stubGlobal('fetch', fetchMock);
  vi.stubGlobal('scrollTo', () => {});
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('<PendingAutomation>', () => {
  it('lists RESOURCE, SCHEDULED TIME and NEW SIZE, 30 a page, from a bare array', async () => {
    const changes = Array.from({ length: 31 }, (_, index) => createChange(index + 1));
    scheduleAnswer = () => answer(200, changes);
    renderPending();
    await screen.findByText('vm-1');
    expect(screen.getAllByRole('columnheader').map((header) => header.textContent)).toEqual([
      'RESOURCE',
      'SCHEDULED TIME',
      'NEW SIZE',
    ]);
    expect(resourceNames()).toHaveLength(30);
    expect(screen.getByText(/Showing 1 to 30 of 31 entries/)).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: '2' }));
    expect(resourceNames()).toEqual(['vm-31']);
  });

  it('accepts {Data} with changeDateTime in lower camel case', async () => {
    const { ChangeDateTime, ...change } = createChange(1);
    scheduleAnswer = () => answer(200, { Data: [{ ...change, changeDateTime: ChangeDateTime }] });
    renderPending();
    const row = (await screen.findByText('vm-1')).closest('tr')!;
    expect(within(row).getAllByRole('cell')[1]!.textContent).toContain('UTC');
  });

  it('opens a resource’s detail with VERSION (N/A when absent), and Back returns to page 1', async () => {
    const changes = Array.from({ length: 31 }, (_, index) => createChange(index + 1));
    scheduleAnswer = (resourceId) =>
      resourceId === vmId(31)
        ? answer(200, [createChange(31, { Version: null, NewSize: 'Standard_B2s' })])
        : answer(200, changes);
    const router = renderPending();
    await screen.findByText('vm-1');
    fireEvent.click(screen.getByRole('button', { name: '2' }));
    fireEvent.click(screen.getByRole('button', { name: 'vm-31' }));

    expect(await screen.findByRole('heading', { name: 'Schedule for vm-31' })).toBeTruthy();
    expect(router.state.location.search).toBe(`?${new URLSearchParams({ resourceId: vmId(31) }).toString()}`);
    await screen.findByText('Standard_B2s');
    expect(screen.getAllByRole('columnheader').map((header) => header.textContent)).toEqual([
      'SCHEDULED TIME',
      'NEW SIZE',
      'VERSION',
    ]);
    expect(screen.getByText('N/A')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: '← Back to Pending Automation' }));
    expect(await screen.findByRole('heading', { name: 'Pending Automation' })).toBeTruthy();
    expect(resourceNames()[0]).toBe('vm-1');
  });

  it('opens directly on a detail view from the resource query', async () => {
    scheduleAnswer = (resourceId) => answer(200, resourceId === vmId(4) ? [createChange(4)] : []);
    renderPending(`/pending?resourceId=${encodeURIComponent(vmId(4))}`);
    expect(await screen.findByRole('heading', { name: 'Schedule for vm-4' })).toBeTruthy();
    expect(await screen.findByText('Standard_D2s_v5')).toBeTruthy();
    expect(fetchMock.mock.calls.map(([url]) => String(url))).toEqual([
      `/api/v1/resource/schedule?${new URLSearchParams({ resourceId: vmId(4) }).toString()}`,
    ]);
  });

  it('shows SPEC’s empty list and empty detail texts', async () => {
    renderPending();
    expect(await screen.findByText('No pending automation right now, check back later.')).toBeTruthy();
    cleanup();

    renderPending(`/pending?resourceId=${encodeURIComponent(vmId(9))}`);
    expect(await screen.findByRole('heading', { name: 'Schedule for vm-9' })).toBeTruthy();
    expect(await screen.findByText('No Scheduled Changes')).toBeTruthy();
    expect(screen.getByText('No automation is currently scheduled for this resource.')).toBeTruthy();
  });

  it(
    'shows the load failure with the status text, else the message, else Unknown error occurred',
    { timeout: 10_000 },
    async () => {
      scheduleAnswer = () => answer(403, { message: 'nope' }, 'Forbidden');
      renderPending();
      const failure = await screen.findByRole('alert');
      expect(within(failure).getByRole('heading', { name: 'Unable to Load Schedule Data' })).toBeTruthy();
      expect(failure.textContent).toContain('Error: Forbidden');
      expect(failure.textContent).toContain(
        'Please refresh the page, or contact support if the problem persists.',
      );
      cleanup();

      scheduleAnswer = () => answer(403, { message: 'Team not found' });
      renderPending();
      expect((await screen.findByRole('alert')).textContent).toContain('Error: Team not found');
      cleanup();

      // An answer of neither shape is retried like any non-HTTP failure, then shown as unknown.
      scheduleAnswer = () => answer(200, { unexpected: true });
      renderPending();
      expect((await screen.findByRole('alert', {}, { timeout: 6000 })).textContent).toContain(
        'Error: Unknown error occurred',
      );
    },
  );
});
