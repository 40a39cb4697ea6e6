// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MetricsPanel } from './metrics-panel';

// uPlot draws on a canvas jsdom does not have; the panel's own rules are what is tested here.
vi.mock('../../../components/time-series-chart', () => ({
  TimeSeriesChart: ({ label }: { label: string }) => <div role="figure" aria-label={label} />,
}));

const resourceId = '/subscriptions/s/resourceGroups/rg/providers/Microsoft.Compute/virtualMachines/vm-1';

function createJsonResponse(body: unknown): Response {
  return new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });
}

/** A server whose metric data answers wait until the test releases them, one metric id at a time. */
function createServer(metrics: { MetricId: string; Metric: string }[], pointsById: Record<string, number>) {
  const requestedIds: string[] = [];
  const releases = new Map<string, () => void>();
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      const parsed = new URL(url, 'http://localhost');
      if (parsed.pathname === '/api/v1/metric') return createJsonResponse({ Data: metrics });
      const metricId = parsed.searchParams.get('metricId')!;
      requestedIds.push(metricId);
      await new Promise<void>((resolve) => releases.set(metricId, resolve));
      const points = Object.fromEntries(
        Array.from({ length: pointsById[metricId] ?? 0 }, (_, index) => [
          new Date(Date.UTC(2026, 0, 1, 9, index)).toISOString(),
          index,
        ]),
      );
      return createJsonResponse({ Data: points });
    }),
  );
  return {
    requestedIds,
    async release(metricId: string) {
      await vi.waitFor(() => expect(releases.has(metricId)).toBe(true));
      releases.get(metricId)!();
    },
  };
}

function renderPanel(children?: React.ReactNode) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={queryClient}>
      <MetricsPanel resourceId={resourceId} resourceName="vm-1" onClose={() => {}}>
        {children}
      </MetricsPanel>
    </QueryClientProvider>,
  );
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('<MetricsPanel>', () => {
  it('loads the first 4 charts at once and each later one after enough earlier ones are done', async () => {
    const metrics = Array.from({ length: 6 }, (_, index) => ({
      MetricId: `m${index}`,
      Metric: `Metric ${index}`,
    }));
    const server = createServer(metrics, Object.fromEntries(metrics.map((metric) => [metric.MetricId, 5])));
    renderPanel();

    await vi.waitFor(() => expect(server.requestedIds).toEqual(['m0', 'm1', 'm2', 'm3']));
    for (const metricId of ['m0', 'm1', 'm2']) await server.release(metricId);
    await screen.findByRole('figure', { name: 'Metric 2, last 60 minutes' });
    expect(server.requestedIds).toHaveLength(4);

    await server.release('m3');
    await vi.waitFor(() => expect(server.requestedIds).toEqual(['m0', 'm1', 'm2', 'm3', 'm4']));
    await server.release('m4');
    await vi.waitFor(() => expect(server.requestedIds).toContain('m5'));
    await server.release('m5');
    await vi.waitFor(() => expect(screen.getAllByRole('figure')).toHaveLength(6));
  });

  it('charts a metric listed twice once, and hides the card of a metric without data', async () => {
    const server = createServer(
      [
        { MetricId: 'cpu', Metric: 'Percentage CPU' },
        { MetricId: 'cpu', Metric: 'Percentage CPU' },
        { MetricId: 'disk', Metric: 'Disk Read Operations/Sec' },
      ],
      { cpu: 3, disk: 0 },
    );
    renderPanel();
    await server.release('cpu');
    await server.release('disk');
    expect(await screen.findByRole('figure', { name: 'Percentage CPU, last 60 minutes' })).toBeTruthy();
    await vi.waitFor(() =>
      expect(screen.queryByRole('heading', { name: 'Disk Read Operations/Sec' })).toBeNull(),
    );
    expect(screen.getAllByRole('heading', { name: 'Percentage CPU' })).toHaveLength(1);
    expect(server.requestedIds).toEqual(['cpu', 'disk']);
  });

  it('says the resource has no metrics when no chart has data', async () => {
    const server = createServer([{ MetricId: 'cpu', Metric: 'Percentage CPU' }], { cpu: 0 });
    renderPanel();
    await server.release('cpu');
    expect(await screen.findByText('This resource contains no metrics currently.')).toBeTruthy();
  });

  it('says so for a resource without metrics at all', async () => {
    createServer([], {});
    renderPanel();
    expect(await screen.findByText('This resource contains no metrics currently.')).toBeTruthy();
  });

  it('shows what it is given about the resource above the metric cards', async () => {
    createServer([], {});
    renderPanel(<p>The resource’s cost</p>);
    expect(await screen.findByText('This resource contains no metrics currently.')).toBeTruthy();
    const given = screen.getByText('The resource’s cost');
    expect(
      given.compareDocumentPosition(screen.getByText('This resource contains no metrics currently.')),
    ).toBe(Node.DOCUMENT_POSITION_FOLLOWING);
  });
});
