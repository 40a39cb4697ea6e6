// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ResourceCostResponse } from '@cloudtrim/contracts/costs';
import { ResourceCost } from './resource-cost';
import { refuseUnexpectedCall } from '../../../testing/unexpected-fetch';

vi.mock('../../../components/stacked-bar-chart', () => ({
  StackedBarChart: ({
    label,
    categories,
    series,
  }: {
    label: string;
    categories: string[];
    series: { values: number[] }[];
  }) => (
    <div role="figure" aria-label={label}>
      {categories.map((category, index) => `${category}: ${series[0]!.values[index]}`).join('; ')}
    </div>
  ),
}));

const resourceId =
  '/subscriptions/11111111-2222-3333-4444-555555555555/resourceGroups/rg-web/providers/Microsoft.Compute/virtualMachines/vm-1';
let costAnswer: () => Response;
let fetchMock: ReturnType<typeof vi.fn>;

function answer(status: number, body: unknown, statusText = ''): Response {
  return new Response(JSON.stringify(body), {
    status,
    statusText,
    headers: { 'Content-Type': 'application/json' },
  });
}

function renderBlock() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={queryClient}>
      <ResourceCost resourceId={resourceId} />
    </QueryClientProvider>,
  );
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-03-15T12:00:00Z') });
  localStorage.setItem('token', 'a-session-token');
  const bill: ResourceCostResponse = {
    Data: [
      { Date: '2026-02-14', Cost: 3.5 },
      { Date: '2026-03-01', Cost: 4.25 },
      { Date: '2026-03-15', Cost: 1.1 },
    ],
    MonthToDate: 61.3,
    Currency: 'USD',
  };
  costAnswer = () => answer(200, bill);
  fetchMock = vi.fn(async (url: string) =>
    new URL(url, 'http://localhost').pathname === '/api/v1/cost/resource'
      ? costAnswer()
      : refuseUnexpectedCall(url),
  );
  vi.stubGlobal('fetch', fetchMock);
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('<ResourceCost>', () => {
  it('charts the resource’s last 30 days, a day without cost at 0, and says its month to date', async () => {
    renderBlock();
    expect(screen.getByRole('heading', { name: 'Cost, last 30 days' })).toBeTruthy();
    expect(await screen.findByText('Month to date: $61.30')).toBeTruthy();
    const days = screen
      .getByRole('figure', { name: 'Daily cost of the last 30 days' })
      .textContent!.split('; ');
    expect(days).toHaveLength(30);
    expect(days[0]).toBe('Feb 14, 2026: 3.5');
    expect(days[1]).toBe('Feb 15, 2026: 0');
    expect(days).toContain('Mar 1, 2026: 4.25');
    expect(days.at(-1)).toBe('Mar 15, 2026: 1.1');
    expect(fetchMock.mock.calls.map(([url]) => String(url))).toEqual([
      `/api/v1/cost/resource?${new URLSearchParams({ resourceId }).toString()}`,
    ]);
  });

  it('says there is no cost data for a resource the bill has not shown', async () => {
    costAnswer = () => answer(200, { Data: [], MonthToDate: 0, Currency: 'USD' });
    renderBlock();
    expect(await screen.findByText('No cost data right now, check back later.')).toBeTruthy();
    expect(screen.getByText('Month to date: $0.00')).toBeTruthy();
    expect(screen.queryByRole('figure')).toBeNull();
  });

  it('shows a failed load as Error: and its status text', async () => {
    costAnswer = () => answer(404, { message: 'Resource not found.' }, 'Not Found');
    renderBlock();
    expect((await screen.findByRole('alert')).textContent).toBe('Error: Not Found');
  });
});
