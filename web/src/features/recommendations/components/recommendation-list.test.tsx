// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  wastePredictionMethod,
  type Recommendation,
  type RecommendationEvidence,
} from '@cloudtrim/contracts/recommendations';
import type { TeamResponse } from '@cloudtrim/contracts/team';
import { createQueryClient } from '../../../lib/query-client';
import { getStatus401, setStatus401 } from '../../../lib/status-401';
import { RecommendationList } from './recommendation-list';
import { refuseUnexpectedCall } from '../../../testing/unexpected-fetch';
import { createTeamOfMe } from '../../../testing/team.fixture';
import { setWindowWidth } from '../../../testing/window-width';

// uPlot draws on a canvas jsdom does not have; what the evidence hands the chart is what is tested.
vi.mock('../../../components/time-series-chart', () => ({
  TimeSeriesChart: ({ label, series }: { label: string; series: { label: string; values: number[] }[] }) => (
    <div role="figure" aria-label={label}>
      {series.map((line) => `${line.label}: ${line.values.join(',')}`).join(' | ')}
    </div>
  ),
}));

const resourceId = '/subscriptions/s/resourceGroups/rg/providers/Microsoft.Compute/virtualMachines/vm-1';

const recommendation: Recommendation = {
  Id: 7,
  ResourceId: resourceId,
  FriendlyName: 'vm-1',
  When: '2026-11-20T09:30:00.000Z',
  PredictionMethod: 'cloudtrim-forecast',
  Recommendation: 'Resize vm-1 from Standard_D4s_v5 to Standard_D2s_v5',
  Memo: 'P99.5 CPU 31% over 14 days; projected peak 62% on Standard_D2s_v5',
  AnnualCostSavings: 1234567.891,
};

const evidence: RecommendationEvidence = {
  Id: 7,
  ResourceId: resourceId,
  FriendlyName: 'vm-1',
  CurrentSize: 'Standard_D4s_v5',
  TargetSize: 'Standard_D2s_v5',
  Series: [
    {
      Metric: 'CPU',
      Unit: 'Percent',
      Threshold: 80,
      Points: [
        { Time: '2026-11-19T00:00:00.000Z', Current: 20, Projected: 40 },
        { Time: '2026-11-19T01:00:00.000Z', Current: null, Projected: null },
        { Time: '2026-11-19T02:00:00.000Z', Current: 30, Projected: 60 },
      ],
    },
  ],
};

function answer(status: number, body: unknown, statusText = ''): Response {
  return new Response(JSON.stringify(body), {
    status,
    statusText,
    headers: { 'Content-Type': 'application/json' },
  });
}

let recommendations: Recommendation[];
let recommendationsAnswer: () => Response;
let applyAnswer: () => Promise<Response>;
let fetchMock: ReturnType<typeof vi.fn>;

/** Stubs matchMedia so the list sees a window this wide. */
function renderList(props: { resourceId?: string } = {}) {
  render(
    <QueryClientProvider client={createQueryClient()}>
      <RecommendationList {...props} />
    </QueryClientProvider>,
  );
}

let team: TeamResponse;

beforeEach(() => {
  localStorage.setItem('token', 'a-session-token');
  localStorage.setItem('email', 'demo@cloudtrim.dev');
  team = [];
  recommendations = [recommendation];
  recommendationsAnswer = () => answer(200, { Data: recommendations });
  applyAnswer = async () => answer(200, { message: 'Applied' });
  fetchMock = vi.fn(async (url: string) => {
    const parsed = new URL(url, 'http://localhost');
    if (parsed.pathname === '/api/v1/log/recommendation') return recommendationsAnswer();
    if (parsed.pathname.startsWith('/api/v1/log/recommendation/apply/')) return applyAnswer();
    if (parsed.pathname === '/api/v1/log/recommendation/evidence') return answer(200, evidence);
    // The caller's role (a Viewer's APPLY buttons are disabled).
    if (parsed.pathname === '/api/v1/team') return answer(200, team);
    return refuseUnexpectedCall(url);
  });
  vi.stubGlobal('fetch', fetchMock);
  setWindowWidth(1200);
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
  setStatus401(false);
});

function calledPaths(): string[] {
  return fetchMock.mock.calls.map(([url]) => String(url)).filter((url) => url !== '/api/v1/team');
}

describe('<RecommendationList>', () => {
  it('shows every SPEC field, the saving with $, thousands separators and 2 decimals', async () => {
    renderList();
    const row = (await screen.findByText('vm-1')).closest('tr')!;
    const cells = within(row)
      .getAllByRole('cell')
      .map((cell) => cell.textContent);
    expect(cells.slice(0, 6)).toEqual([
      '7',
      'vm-1',
      expect.stringContaining('UTC'),
      'cloudtrim-forecast',
      'Resize vm-1 from Standard_D4s_v5 to Standard_D2s_v5',
      '$1,234,567.89',
    ]);
    expect(calledPaths()).toEqual(['/api/v1/log/recommendation']);
  });

  it('shows 30 recommendations a page, in the order given, with the pages below them', async () => {
    recommendations = Array.from({ length: 31 }, (_, index) => ({
      ...recommendation,
      Id: index + 1,
      FriendlyName: `vm-${index + 1}`,
    }));
    renderList();
    await screen.findByText('vm-1');
    const table = screen.getByRole('table');
    expect(within(table).getAllByRole('row')).toHaveLength(31);
    expect(screen.getByText('vm-30')).toBeTruthy();
    expect(screen.queryByText('vm-31')).toBeNull();
    const pages = screen.getByRole('navigation', { name: 'Recommendation pages' });
    fireEvent.click(within(pages).getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('vm-31')).toBeTruthy();
    expect(screen.queryByText('vm-1')).toBeNull();
  });

  it('shows no pages for a list that fits on one', async () => {
    renderList();
    await screen.findByText('vm-1');
    expect(screen.queryByRole('navigation', { name: 'Recommendation pages' })).toBeNull();
  });

  it('asks for one resource’s recommendations by resourceId', async () => {
    renderList({ resourceId });
    await screen.findByText('vm-1');
    expect(calledPaths()).toEqual([
      `/api/v1/log/recommendation?resourceId=${encodeURIComponent(resourceId)}`,
    ]);
  });

  it('shows the Memo as a tooltip on hover', async () => {
    renderList();
    fireEvent.mouseOver(await screen.findByText(recommendation.Recommendation));
    expect((await screen.findByRole('tooltip')).textContent).toBe(recommendation.Memo);
  });

  it('switches layout at 991px and 865px', async () => {
    setWindowWidth(992);
    const { unmount } = render(
      <QueryClientProvider client={createQueryClient()}>
        <RecommendationList />
      </QueryClientProvider>,
    );
    await screen.findByText('vm-1');
    expect(screen.getAllByRole('columnheader').map((header) => header.textContent)).toEqual([
      'ID',
      'RESOURCE',
      'WHEN',
      'PREDICTION METHOD',
      'RECOMMENDATION',
      'ANNUAL COST SAVINGS',
      'ACTIONS',
    ]);
    unmount();

    setWindowWidth(991);
    const condensed = render(
      <QueryClientProvider client={createQueryClient()}>
        <RecommendationList />
      </QueryClientProvider>,
    );
    await screen.findByText('vm-1');
    expect(screen.getAllByRole('columnheader').map((header) => header.textContent)).toEqual([
      'RESOURCE',
      'RECOMMENDATION',
      'ANNUAL COST SAVINGS',
      'ACTIONS',
    ]);
    condensed.unmount();

    setWindowWidth(865);
    renderList();
    expect(await screen.findByRole('heading', { name: 'vm-1' })).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.getByText('$1,234,567.89')).toBeTruthy();
  });

  it('says so when there are none, and shows Error: plus the status text when the list fails', async () => {
    recommendations = [];
    renderList();
    expect(await screen.findByText('No recommendations right now, check back later.')).toBeTruthy();
    cleanup();

    recommendationsAnswer = () => answer(403, { message: 'no' }, 'Forbidden');
    renderList();
    expect((await screen.findByRole('alert')).textContent).toBe('Error: Forbidden');
  });

  it('APPLY NOW shows a spinner, then APPLIED, with both buttons disabled meanwhile and after', async () => {
    let release: () => void = () => {};
    applyAnswer = () =>
      new Promise((resolve) => {
        release = () => resolve(answer(200, { message: 'Applied' }));
      });
    renderList();
    fireEvent.click(await screen.findByRole('button', { name: 'APPLY NOW' }));

    expect((await screen.findByText('Applying')).closest('[role="status"]')).toBeTruthy();
    const windowButton = screen.getByRole('button', { name: 'APPLY AT MAINTENANCE WINDOW' });
    expect(windowButton.hasAttribute('disabled')).toBe(true);
    act(() => release());

    const applied = await screen.findByRole('button', { name: 'APPLIED' });
    expect(applied.hasAttribute('disabled')).toBe(true);
    expect(windowButton.hasAttribute('disabled')).toBe(true);
    expect(calledPaths()).toContain('/api/v1/log/recommendation/apply/now?id=7');
  });

  it('keeps both APPLY buttons disabled for a Viewer, who reads only', async () => {
    team = createTeamOfMe('Viewer');
    renderList();
    const applyNow = await screen.findByRole('button', { name: 'APPLY NOW' });
    await waitFor(() => expect(applyNow.hasAttribute('disabled')).toBe(true));
    expect(screen.getByRole('button', { name: 'APPLY AT MAINTENANCE WINDOW' }).hasAttribute('disabled')).toBe(
      true,
    );
  });

  it('APPLY AT MAINTENANCE WINDOW ends as APPLIED AT MAINTENANCE WINDOW', async () => {
    renderList();
    fireEvent.click(await screen.findByRole('button', { name: 'APPLY AT MAINTENANCE WINDOW' }));
    const applied = await screen.findByRole('button', { name: 'APPLIED AT MAINTENANCE WINDOW' });
    expect(applied.hasAttribute('disabled')).toBe(true);
    expect(screen.getByRole('button', { name: 'APPLY NOW' }).hasAttribute('disabled')).toBe(true);
    expect(calledPaths()).toContain('/api/v1/log/recommendation/apply/maintenancewindow?id=7');
  });

  it('shows a failure’s status text in a dismissible alert and lets the user try again', async () => {
    applyAnswer = async () => answer(403, { message: 'Grant Virtual Machine Contributor' }, 'Forbidden');
    renderList();
    fireEvent.click(await screen.findByRole('button', { name: 'APPLY NOW' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Forbidden');
    expect(alert.textContent).not.toContain('Grant Virtual Machine Contributor');

    fireEvent.click(within(alert).getByRole('button', { name: 'Close alert' }));
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
    expect(screen.getByRole('button', { name: 'APPLY NOW' }).hasAttribute('disabled')).toBe(false);
  });

  it('a 401 ends the session instead of showing an alert', async () => {
    applyAnswer = async () => answer(401, { message: 'expired' }, 'Unauthorized');
    renderList();
    fireEvent.click(await screen.findByRole('button', { name: 'APPLY NOW' }));
    await waitFor(() => expect(getStatus401()).toBe(true));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('EVIDENCE draws the current, projected and threshold lines, skipping hours without data', async () => {
    renderList();
    fireEvent.click(await screen.findByRole('button', { name: 'EVIDENCE' }));
    const chart = await screen.findByRole('figure', { name: 'CPU evidence for vm-1' });
    expect(chart.textContent).toBe(
      'CPU on Standard_D4s_v5: 20,30 | CPU on Standard_D2s_v5 (projected): 40,60 | Threshold: 80,80',
    );
    expect(screen.getByText('vm-1: Standard_D4s_v5 → Standard_D2s_v5, last 14 days')).toBeTruthy();
    expect(calledPaths()).toContain('/api/v1/log/recommendation/evidence?id=7');
  });

  it('offers no EVIDENCE for waste, which is judged on the resource state and has no chart', async () => {
    recommendations = [
      recommendation,
      {
        ...recommendation,
        Id: 8,
        ResourceId: '/subscriptions/s/resourceGroups/rg/providers/Microsoft.Compute/disks/data-1',
        FriendlyName: 'data-1',
        PredictionMethod: wastePredictionMethod,
        Recommendation:
          'Delete the unattached disk data-1 (Premium_LRS P10, 128 GiB) after taking a snapshot of it.',
      },
    ];
    renderList();
    await screen.findByText(recommendations[1]!.Recommendation);
    expect(screen.getAllByRole('button', { name: 'EVIDENCE' })).toHaveLength(1);
    expect(screen.getAllByRole('button', { name: 'APPLY NOW' })).toHaveLength(2);
  });
});
