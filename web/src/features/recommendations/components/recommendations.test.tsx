// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Recommendation, TeamSettings } from '@cloudtrim/contracts/recommendations';
import { createQueryClient } from '../../../lib/query-client';
import { Recommendations } from './recommendations';
import { refuseUnexpectedCall } from '../../../testing/unexpected-fetch';
import { createTeamOfMe } from '../../../testing/team.fixture';

function createRecommendation(id: number, saving: number): Recommendation {
  return {
    Id: id,
    ResourceId: `/subscriptions/s/resourceGroups/rg/providers/Microsoft.Compute/virtualMachines/vm-${id}`,
    FriendlyName: `vm-${id}`,
    When: '2026-11-20T09:30:00.000Z',
    PredictionMethod: 'advisor-p95',
    Recommendation: `Resize vm-${id}`,
    Memo: null,
    AnnualCostSavings: saving,
  };
}

function answer(status: number, body?: unknown, statusText = ''): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    statusText,
    headers: { 'Content-Type': 'application/json' },
  });
}

let recommendations: Recommendation[];
let settings: TeamSettings;
let fetchMock: ReturnType<typeof vi.fn>;

function renderPage() {
  render(
    <QueryClientProvider client={createQueryClient()}>
      <Recommendations automationLogList={<p>The automation log</p>} />
    </QueryClientProvider>,
  );
}

beforeEach(() => {
  localStorage.setItem('token', 'a-session-token');
  recommendations = [createRecommendation(1, 1000.255), createRecommendation(2, 2500)];
  settings = { LookbackDays: 14, DefaultMaintenanceWindow: 2 };
  fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
    const parsed = new URL(url, 'http://localhost');
    if (parsed.pathname === '/api/v1/log/recommendation') return answer(200, { Data: recommendations });
    if (parsed.pathname === '/api/v1/log/automation') return answer(200, { Data: [] });
    if (parsed.pathname === '/api/v1/team/settings' && init?.method === 'PUT') {
      settings = JSON.parse(String(init.body)) as TeamSettings;
      return answer(200, settings);
    }
    if (parsed.pathname === '/api/v1/team/settings') return answer(200, settings);
    // The caller's role (a Viewer's APPLY buttons are disabled).
    if (parsed.pathname === '/api/v1/team') return answer(200, createTeamOfMe('Member'));
    return refuseUnexpectedCall(url, init);
  });
  vi.stubGlobal('fetch', fetchMock);
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('<Recommendations>', () => {
  it('heads the list with the total annual saving on offer, from one call', async () => {
    renderPage();
    const total = await screen.findByText('$3,500.26');
    expect(total.closest('[role="status"]')?.textContent).toBe(
      'Annual savings on offer$3,500.26across 2 recommendations',
    );
    expect(await screen.findByText('$1,000.26')).toBeTruthy();
    const recommendationCalls = fetchMock.mock.calls.filter(
      ([url]) => String(url) === '/api/v1/log/recommendation',
    );
    expect(recommendationCalls).toHaveLength(1);
  });

  it('shows no total when there is nothing on offer', async () => {
    recommendations = [];
    renderPage();
    expect(await screen.findByText('No recommendations right now, check back later.')).toBeTruthy();
    expect(screen.queryByText('Annual savings on offer')).toBeNull();
  });

  it('keeps the automation log it is given in a second tab', async () => {
    renderPage();
    expect(screen.queryByText('The automation log')).toBeNull();
    fireEvent.click(screen.getByRole('tab', { name: 'Automation Logs' }));
    expect(await screen.findByText('The automation log')).toBeTruthy();
  });

  it('saves the team’s lookback (7 to 90 days) and default maintenance window', async () => {
    renderPage();
    const lookback = await screen.findByLabelText('Lookback (days)');
    expect((lookback as HTMLInputElement).value).toBe('14');
    const save = screen.getByRole('button', { name: 'SAVE' });

    fireEvent.change(lookback, { target: { value: '91' } });
    expect(save.hasAttribute('disabled')).toBe(true);
    expect(screen.getByText('From 7 to 90 days.')).toBeTruthy();

    fireEvent.change(lookback, { target: { value: '30' } });
    fireEvent.change(screen.getByLabelText('Default maintenance window'), { target: { value: '23' } });
    fireEvent.click(save);
    expect(await screen.findByText('Settings saved')).toBeTruthy();
    await waitFor(() => expect(settings).toEqual({ LookbackDays: 30, DefaultMaintenanceWindow: 23 }));
    const form = screen.getByLabelText('Lookback (days)').closest('form')!;
    expect(within(form).getByRole('option', { name: '23:00 - 00:00 UTC' })).toBeTruthy();
  });
});
