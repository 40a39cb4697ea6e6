// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AutomationLogEntry, Recommendation } from '@cloudtrim/contracts/recommendations';
import type { AutomationResource } from '@cloudtrim/contracts/resources';
import { createQueryClient } from '../../lib/query-client';
import { AutomationView } from './automation-view';
import { refuseUnexpectedCall } from '../../testing/unexpected-fetch';

// The canvas chart is drawn by the browser; here it only shows it was given the bars.
vi.mock('../../components/stacked-bar-chart', () => ({
  StackedBarChart: ({ label }: { label: string }) => <div role="figure" aria-label={label} />,
}));

const resourceId = '/subscriptions/s-1/resourceGroups/rg 1/providers/Microsoft.Compute/virtualMachines/vm-1';

const resource: AutomationResource = {
  ResourceName: 'vm-1',
  ResourceCategory: 'Compute',
  SubCategory: 'Virtual Machine',
  ResourceId: resourceId,
  Automated: 0,
  MaintenanceWindow: 3,
  PredictionMethod: 'cloudtrim-forecast',
  PredictionMethodFriendlyShortText: 'Cloudtrim forecast',
  TenantId: '1',
  SubscriptionName: 'Production',
  ResourceGroup: 'rg 1',
};

const recommendation: Recommendation = {
  Id: 11,
  ResourceId: resourceId,
  FriendlyName: 'vm-1',
  When: '2026-11-20T09:30:00.000Z',
  PredictionMethod: 'cloudtrim-forecast',
  Recommendation: 'Resize vm-1 to Standard_D2s_v5',
  Memo: null,
  AnnualCostSavings: 980.5,
};

const logEntry: AutomationLogEntry = {
  ResourceId: resourceId,
  FriendlyName: 'vm-1',
  When: '2026-11-21T03:00:00.000Z',
  PredictionMethod: 'cloudtrim-forecast',
  Action: 'Resized from Standard_D4s_v5 to Standard_D2s_v5',
};

function answer(status: number, body: unknown, statusText = ''): Response {
  return new Response(JSON.stringify(body), {
    status,
    statusText,
    headers: { 'Content-Type': 'application/json' },
  });
}

let automationLog: AutomationLogEntry[];
let updateAnswer: () => Promise<Response>;
let fetchMock: ReturnType<typeof vi.fn>;

function renderList(listed: AutomationResource = resource) {
  render(
    <QueryClientProvider client={createQueryClient()}>
      <AutomationView resources={[listed]} invalidates={['resource-search']} />
    </QueryClientProvider>,
  );
}

function calls(): { path: string; method: string; body: unknown }[] {
  return fetchMock.mock.calls.map(([url, init]) => ({
    path: String(url),
    method: init?.method ?? 'GET',
    body: init?.body,
  }));
}

beforeEach(() => {
  localStorage.setItem('token', 'a-session-token');
  automationLog = [logEntry];
  updateAnswer = async () => answer(200, { message: 'Automation settings have been updated' });
  fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
    const parsed = new URL(url, 'http://localhost');
    if (init?.method === 'PUT' && parsed.pathname.startsWith('/api/v1/resource/')) return updateAnswer();
    if (parsed.pathname === '/api/v1/log/recommendation') return answer(200, { Data: [recommendation] });
    if (parsed.pathname === '/api/v1/log/automation') return answer(200, { Data: automationLog });
    if (parsed.pathname === '/api/v1/metric') return answer(200, { Data: [] });
    if (parsed.pathname === '/api/v1/cost/resource') {
      return answer(200, {
        Data: [{ Date: '2026-11-20', Cost: 12.5 }],
        MonthToDate: 180.75,
        Currency: 'USD',
      });
    }
    // The caller's role (a Viewer's APPLY buttons are disabled).
    if (parsed.pathname === '/api/v1/team')
      return answer(200, [
        {
          EmailAddress: 'demo@cloudtrim.dev',
          FirstName: 'Demo',
          LastName: 'User',
          Status: 'Active',
          role: 'Member',
        },
      ]);
    return refuseUnexpectedCall(url, init);
  });
  vi.stubGlobal('fetch', fetchMock);
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('<AutomationView> LOGS modal', () => {
  it('opens on the Recommendations tab for that resource, and Automation Logs lists its log', async () => {
    renderList();
    fireEvent.click(screen.getByRole('button', { name: 'LOGS for vm-1' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('tab', { name: 'Recommendations' }).getAttribute('aria-selected')).toBe(
      'true',
    );
    expect(await within(dialog).findByText('Resize vm-1 to Standard_D2s_v5')).toBeTruthy();
    expect(within(dialog).getByText('$980.50')).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'APPLY NOW' })).toBeTruthy();

    fireEvent.click(within(dialog).getByRole('tab', { name: 'Automation Logs' }));
    expect(await within(dialog).findByText('Resized from Standard_D4s_v5 to Standard_D2s_v5')).toBeTruthy();
    const query = `?${new URLSearchParams({ resourceId }).toString()}`;
    expect(
      calls()
        .map((call) => call.path)
        .filter((path) => path !== '/api/v1/team'),
    ).toEqual([`/api/v1/log/recommendation${query}`, `/api/v1/log/automation${query}`]);
  });

  it('says so when the resource has no automation logs', async () => {
    automationLog = [];
    renderList();
    fireEvent.click(screen.getByRole('button', { name: 'LOGS for vm-1' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('tab', { name: 'Automation Logs' }));
    expect(await screen.findByText('No automation logs right now, check back later.')).toBeTruthy();
  });
});

describe('<AutomationView> metrics panel', () => {
  it('shows the resource’s cost of the last 30 days and its month to date above the metric cards', async () => {
    renderList();
    fireEvent.click(screen.getByRole('button', { name: 'METRICS' }));
    const panel = await screen.findByRole('region', { name: 'Metrics of vm-1' });
    expect(within(panel).getByRole('heading', { name: 'Cost, last 30 days' })).toBeTruthy();
    expect(await within(panel).findByText('Month to date: $180.75')).toBeTruthy();
    expect(within(panel).getByRole('figure', { name: 'Daily cost of the last 30 days' })).toBeTruthy();
    expect(await within(panel).findByText('This resource contains no metrics currently.')).toBeTruthy();
    expect(calls().map((call) => call.path)).toContain(
      `/api/v1/cost/resource?${new URLSearchParams({ resourceId }).toString()}`,
    );
  });
});
