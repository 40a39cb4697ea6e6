// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ActivityLogEntry } from '@cloudtrim/contracts/activity';
import { ActivityLogList } from './activity-log-list';
import { refuseUnexpectedCall } from '../../../testing/unexpected-fetch';

const resourceId = '/subscriptions/s/resourceGroups/rg/providers/Microsoft.Compute/virtualMachines/vm-7';

function createEntries(count: number): ActivityLogEntry[] {
  return Array.from({ length: count }, (_, index) => ({
    ServiceName: 'Inventory',
    ResourceId: resourceId,
    LogText: `Entry ${index + 1}`,
    RowCreated: '2026-03-04T17:05:09Z',
  }));
}

function answerWith(pages: Record<string, ActivityLogEntry[]>) {
  const fetchMock = vi.fn(async (url: string) => {
    const body = pages[url.replace(/^https?:\/\/[^/]+/, '')];
    return body
      ? new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } })
      : refuseUnexpectedCall(url);
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

function renderList(props: { resourceId?: string } = {}) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={queryClient}>
      <ActivityLogList {...props} />
    </QueryClientProvider>,
  );
}

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('<ActivityLogList>', () => {
  it('shows a missing value as N/A, the resource by its last segment and the time in UTC', async () => {
    answerWith({
      '/api/v1/log': [
        { ServiceName: null, ResourceId: resourceId, LogText: null, RowCreated: '2026-03-04T17:05:09Z' },
      ],
    });
    renderList();
    const row = (await screen.findAllByRole('row'))[1]!;
    const cells = within(row)
      .getAllByRole('cell')
      .map((cell) => cell.textContent);
    expect(cells.slice(0, 3)).toEqual(['N/A', 'vm-7', 'N/A']);
    expect(cells[3]).toMatch(/ UTC$/);
    expect(screen.queryByRole('navigation')).toBeNull();
  });

  it('says there is no recent activity for an empty log', async () => {
    answerWith({ '/api/v1/log': [] });
    renderList();
    expect(await screen.findByText('No recent activity right now, check back later.')).toBeTruthy();
  });

  it('pages a full log by offset, for one resource, until a short page ends it', async () => {
    const query = `?resourceId=${encodeURIComponent(resourceId)}`;
    const fetchMock = answerWith({
      [`/api/v1/log${query}`]: createEntries(30),
      [`/api/v1/log/30${query}`]: createEntries(4),
    });
    renderList({ resourceId });
    expect(await screen.findByText('Showing 1 to 30 of 30 entries • Page 1 of 15')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('Showing 31 to 34 of 34 entries • Page 2 of 2')).toBeTruthy();
    expect(fetchMock.mock.calls.map(([url]) => url)).toEqual([
      `/api/v1/log${query}`,
      `/api/v1/log/30${query}`,
    ]);
  });

  it('shows the empty state when the network fails, and nothing for any other failure', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('Failed to fetch');
      }),
    );
    renderList();
    expect(await screen.findByText('No recent activity right now, check back later.')).toBeTruthy();
    cleanup();

    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('{"message":"Internal Server Error"}', { status: 500 })),
    );
    renderList();
    await vi.waitFor(() =>
      expect(console.error).toHaveBeenCalledWith('Error fetching activity logs', expect.anything()),
    );
    expect(screen.queryByText('No recent activity right now, check back later.')).toBeNull();
    expect(screen.queryByRole('table')).toBeNull();
  });
});
