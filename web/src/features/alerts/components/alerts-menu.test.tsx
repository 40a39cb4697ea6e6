// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Alert } from '@cloudtrim/contracts/alerts';
import type { TeamResponse } from '@cloudtrim/contracts/team';
import { createQueryClient } from '../../../lib/query-client';
import { AlertsMenu } from './alerts-menu';
import { refuseUnexpectedCall } from '../../../testing/unexpected-fetch';
import { createTeamOfMe } from '../../../testing/team.fixture';

const subscriptionId = '11111111-2222-3333-4444-555555555555';

function createAlert(index: number, acknowledgedAt: string | null = null): Alert {
  return {
    Id: `0b2f5e4c-8a3d-4f61-9c7e-2d1a6b9e0f3${index}`,
    Kind: index === 1 ? 'budget' : 'anomaly',
    Title: index === 1 ? 'Budget Web crossed 80% of $100.00' : `Cost anomaly ${index}`,
    Scope: `Subscription Production · resource group web-rg`,
    Filter: { SubscriptionId: subscriptionId, ResourceGroup: 'web-rg' },
    Date: new Date().toISOString().slice(0, 10),
    RaisedAt: '2026-11-25T08:00:00.000Z',
    Amount: 84.5,
    Expected: index === 1 ? 80 : 40,
    Currency: 'USD',
    Drivers:
      index === 1 ? [] : [{ ResourceId: '/subscriptions/x/vm-1', Name: 'vm-1', Expected: 10, Actual: 50 }],
    AcknowledgedAt: acknowledgedAt,
  };
}

const approvalAlert: Alert = {
  Id: '0b2f5e4c-8a3d-4f61-9c7e-2d1a6b9e0f40',
  Kind: 'approval',
  Title: 'Pipeline Disk clean-up waits for approval to delete disk data-7',
  Scope: 'Proposed by ana@example.com; runs no earlier than 2026-11-25T09:00:00.000Z',
  Filter: {},
  Date: '2026-11-25',
  RaisedAt: '2026-11-25T08:30:00.000Z',
  Amount: 61.32,
  Expected: null,
  Currency: 'USD',
  Drivers: [],
  AcknowledgedAt: null,
};

const failedRunAlert: Alert = {
  ...approvalAlert,
  Id: '0b2f5e4c-8a3d-4f61-9c7e-2d1a6b9e0f41',
  Kind: 'pipeline',
  Title: 'Pipeline Night stop failed to stop VM web-1',
  Scope: 'web-1: Azure reported the operation failed: AllocationFailed',
  Amount: 1234.5,
};

function answer(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

let alerts: Alert[];
let fetchMock: ReturnType<typeof vi.fn>;
let team: TeamResponse;

function renderMenu() {
  const router = createMemoryRouter(
    [
      { path: '/resources', element: <AlertsMenu icon={null} /> },
      { path: '/analysis', element: <p>Cost Analysis page</p> },
      { path: '/automation', element: <p>Automation Pipelines page</p> },
    ],
    { initialEntries: ['/resources'] },
  );
  render(
    <QueryClientProvider client={createQueryClient()}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

beforeEach(() => {
  localStorage.setItem('token', 'a-session-token');
  localStorage.setItem('email', 'demo@cloudtrim.dev');
  team = [];
  alerts = [createAlert(1), createAlert(2), createAlert(3, '2026-11-24T10:00:00.000Z')];
  fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
    const acknowledged = /^\/api\/v1\/alert\/([^/]+)\/acknowledge$/.exec(url);
    if (acknowledged && init?.method === 'POST') {
      const alert = alerts.find((candidate) => candidate.Id === acknowledged[1])!;
      alert.AcknowledgedAt = '2026-11-25T09:00:00.000Z';
      return answer(200, alert);
    }
    if (url === '/api/v1/alert?offset=0') {
      return answer(200, {
        Alerts: alerts,
        Total: alerts.length,
        Unacknowledged: alerts.filter((alert) => alert.AcknowledgedAt === null).length,
      });
    }
    // The caller's role (a Viewer cannot acknowledge).
    if (url === '/api/v1/team') return answer(200, team);
    return refuseUnexpectedCall(url, init);
  });
  vi.stubGlobal('fetch', fetchMock);
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('<AlertsMenu>', () => {
  it('counts the unacknowledged alerts on the bell and lists every alert when opened', async () => {
    renderMenu();
    const button = await screen.findByRole('button', { name: 'Alerts, 2 unacknowledged' });
    expect(button.textContent).toBe('Alerts2');
    fireEvent.click(button);
    const list = await screen.findByRole('list', { name: 'Alerts' });
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(3);
    expect(items[0]!.textContent).toContain('Budget Web crossed 80% of $100.00New');
    expect(items[0]!.textContent).toContain('Subscription Production · resource group web-rg');
    expect(items[0]!.textContent).toContain('$84.50, over the $80.00 threshold');
    expect(items[1]!.textContent).toContain('$84.50 against $40.00 expected');
    expect(items[1]!.textContent).toContain('Driven by vm-1 ($50.00)');
    expect(items[2]!.textContent).toContain('Acknowledged');
  });

  it('acknowledges one alert, then all those shown, and the count follows', async () => {
    renderMenu();
    fireEvent.click(await screen.findByRole('button', { name: 'Alerts, 2 unacknowledged' }));
    fireEvent.click(
      await screen.findByRole('button', { name: 'Acknowledge Budget Web crossed 80% of $100.00' }),
    );
    expect(await screen.findByRole('button', { name: 'Alerts, 1 unacknowledged' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'ACKNOWLEDGE ALL' }));
    expect(await screen.findByRole('button', { name: 'Alerts' })).toBeTruthy();
    const posts = fetchMock.mock.calls.filter(
      ([, init]) => (init as RequestInit | undefined)?.method === 'POST',
    );
    expect(posts.map(([url]) => url)).toEqual([
      `/api/v1/alert/${alerts[0]!.Id}/acknowledge`,
      `/api/v1/alert/${alerts[1]!.Id}/acknowledge`,
    ]);
    expect(screen.queryByRole('button', { name: 'ACKNOWLEDGE ALL' })).toBeNull();
  });

  it('lists the alerts to a Viewer without a button to acknowledge them', async () => {
    team = createTeamOfMe('Viewer');
    renderMenu();
    fireEvent.click(await screen.findByRole('button', { name: 'Alerts, 2 unacknowledged' }));
    const list = await screen.findByRole('list', { name: 'Alerts' });
    await waitFor(() => expect(fetchMock.mock.calls.map(([url]) => url)).toContain('/api/v1/team'));
    await waitFor(() => expect(within(list).queryAllByRole('button')).toHaveLength(0));
    expect(screen.queryByRole('button', { name: 'ACKNOWLEDGE ALL' })).toBeNull();
    expect(within(list).getAllByRole('listitem')).toHaveLength(3);
  });

  it('opens /analysis filtered to the alert and closes', async () => {
    const router = renderMenu();
    fireEvent.click(await screen.findByRole('button', { name: 'Alerts, 2 unacknowledged' }));
    const links = await screen.findAllByRole('link', { name: 'Show in Cost Analysis' });
    fireEvent.click(links[0]!);
    expect(await screen.findByText('Cost Analysis page')).toBeTruthy();
    expect(router.state.location.search).toBe(`?subscriptionId=${subscriptionId}&resourceGroup=web-rg`);
  });

  it('shows an approval waiting with what it saves, opens /automation and closes', async () => {
    alerts = [{ ...approvalAlert }, ...alerts];
    const router = renderMenu();
    fireEvent.click(await screen.findByRole('button', { name: 'Alerts, 3 unacknowledged' }));
    const [item] = within(await screen.findByRole('list', { name: 'Alerts' })).getAllByRole('listitem');
    expect(item!.textContent).toContain('Pipeline Disk clean-up waits for approval to delete disk data-7New');
    expect(item!.textContent).toContain('Saves $61.32 a year once done');
    expect(within(item!).queryByRole('link', { name: 'Show in Cost Analysis' })).toBeNull();
    fireEvent.click(within(item!).getByRole('link', { name: 'Review in Automation Pipelines' }));
    expect(await screen.findByText('Automation Pipelines page')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/automation');
    expect(screen.queryByRole('list', { name: 'Alerts' })).toBeNull();
  });

  it('shows a failed pipeline run with the saving not made, and opens /automation', async () => {
    alerts = [{ ...failedRunAlert }, ...alerts];
    const router = renderMenu();
    fireEvent.click(await screen.findByRole('button', { name: 'Alerts, 3 unacknowledged' }));
    const [item] = within(await screen.findByRole('list', { name: 'Alerts' })).getAllByRole('listitem');
    expect(item!.textContent).toContain('Pipeline Night stop failed to stop VM web-1New');
    expect(item!.textContent).toContain('web-1: Azure reported the operation failed: AllocationFailed');
    expect(item!.textContent).toContain('Not saving $1,234.50 a year until it is done');
    fireEvent.click(within(item!).getByRole('link', { name: 'Review in Automation Pipelines' }));
    expect(await screen.findByText('Automation Pipelines page')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/automation');
  });

  it('says so when there are no alerts', async () => {
    alerts = [];
    renderMenu();
    fireEvent.click(await screen.findByRole('button', { name: 'Alerts' }));
    expect(await screen.findByText('No alerts right now, check back later.')).toBeTruthy();
  });
});
