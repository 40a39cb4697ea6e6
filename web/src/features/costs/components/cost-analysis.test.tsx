// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CostPoint, CostResponse, CostSummaryResponse } from '@cloudtrim/contracts/costs';
import { createQueryClient } from '../../../lib/query-client';
import { CostAnalysis } from './cost-analysis';
import { refuseUnexpectedCall } from '../../../testing/unexpected-fetch';
import { setWindowWidth } from '../../../testing/window-width';

// The canvas chart is drawn by the browser (and checked end to end); here it shows what it was given.
vi.mock('../../../components/stacked-bar-chart', () => ({
  StackedBarChart: ({
    label,
    categories,
    series,
    band,
  }: {
    label: string;
    categories: string[];
    series: { label: string; values: number[] }[];
    band?: { label: string; points: ({ expected: number; low: number; high: number } | null)[] };
  }) => (
    <div role="figure" aria-label={label}>
      <p>{`${categories.length} bars from ${categories[0]} to ${categories.at(-1)}`}</p>
      {band ? (
        <p>{`${band.label}: ${band.points
          .map((point, index) =>
            point ? `${categories[index]} ${point.low}-${point.expected}-${point.high}` : '',
          )
          .filter(Boolean)
          .join(', ')}`}</p>
      ) : null}
      <ul aria-label="Chart series">
        {series.map((line) => (
          <li key={line.label}>{`${line.label}: ${line.values.reduce((sum, value) => sum + value, 0)}`}</li>
        ))}
      </ul>
    </div>
  ),
}));

const tenantId = '4f1d7c1e-2b0a-4d5e-9c3f-6a7b8c9d0e1f';
const vmId = (name: string) =>
  `/subscriptions/11111111-2222-3333-4444-555555555555/resourceGroups/rg-web/providers/Microsoft.Compute/virtualMachines/${name}`;

function answer(status: number, body?: unknown, statusText = ''): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    statusText,
    headers: { 'Content-Type': 'application/json' },
  });
}

function createCostResponse(points: CostPoint[]): CostResponse {
  return {
    Data: points,
    Total: points.reduce((sum, point) => sum + point.Cost, 0),
    Currency: 'USD',
    Complete: true,
    DaysRead: null,
  };
}

/** Groups g1…gN costing N, N-1, … 1 a day in the period asked, and half as much in the one before. */
function createGroupedBill(params: URLSearchParams, groupCount: number, prefix: string): CostResponse {
  const isCurrent = params.get('from') === currentFrom;
  const days = params.get('granularity') === 'none' ? [params.get('from')!] : ['2026-03-02', '2026-03-09'];
  return createCostResponse(
    Array.from({ length: groupCount }, (_, index) =>
      days.map((Date) => ({
        Date,
        Group: `${prefix}${index + 1}`,
        Cost:
          ((groupCount - index) * (isCurrent ? 2 : 1)) /
          (params.get('granularity') === 'none' ? 1 : days.length),
      })),
    ).flat(),
  );
}

const currentFrom = '2026-03-01';
let summary: CostSummaryResponse;
let summaryArrival: Promise<void>;
let costAnswer: (params: URLSearchParams) => Response | Promise<Response>;
let exportAnswer: () => Response;
let forecastAnswer: (params: URLSearchParams) => Response;
let fetchMock: ReturnType<typeof vi.fn>;

function defaultCostAnswer(params: URLSearchParams): Response {
  const groupBy = params.get('groupBy');
  if (groupBy === 'resource') {
    return answer(
      200,
      createCostResponse(
        Array.from({ length: 12 }, (_, index) => ({
          Date: params.get('from')!,
          Group: vmId(`vm-${index + 1}`),
          Cost: (params.get('from') === currentFrom ? 100 : 80) - index,
        })),
      ),
    );
  }
  if (groupBy === 'service') return answer(200, createGroupedBill(params, 10, 'Service '));
  if (groupBy === 'resourceGroup') return answer(200, createGroupedBill(params, 3, 'rg-'));
  return answer(200, createGroupedBill(params, 2, ''));
}

function costCalls(): URLSearchParams[] {
  return fetchMock.mock.calls
    .map(([url]) => new URL(String(url), 'http://localhost'))
    .filter((url) => url.pathname === '/api/v1/cost')
    .map((url) => url.searchParams);
}

function describeCalls(): string[] {
  return costCalls().map((params) =>
    ['from', 'to', 'granularity', 'groupBy', 'costType'].map((name) => params.get(name)).join(' '),
  );
}

/** Stubs matchMedia so the page sees a window this wide. */
function renderPage(path = '/analysis') {
  const router = createMemoryRouter(
    [{ path: '/analysis', element: <CostAnalysis tenants={[{ id: tenantId, name: 'Contoso' }]} /> }],
    { initialEntries: [path] },
  );
  render(
    <QueryClientProvider client={createQueryClient()}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

function getSection(name: string): HTMLElement {
  return screen.getByRole('region', { name });
}

async function findTableRows(name: string): Promise<HTMLElement[]> {
  const table = await screen.findByRole('table', { name });
  return within(table).getAllByRole('row').slice(1);
}

function readRow(row: HTMLElement): string[] {
  return [...row.querySelectorAll('th, td')].map((cell) => cell.textContent ?? '');
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-03-15T12:00:00Z') });
  localStorage.setItem('token', 'a-session-token');
  summary = {
    MonthToDate: 1200,
    LastMonthSameDays: 1000,
    ForecastMonthEnd: 2480.5,
    RealizedSavingsYearToDate: 310.25,
    Currency: 'USD',
    Complete: true,
  };
  summaryArrival = Promise.resolve();
  costAnswer = defaultCostAnswer;
  // Billed to the 14th, forecast from today (the 15th) to the 31st.
  forecastAnswer = () =>
    answer(200, {
      Expected: 100,
      Low: 90,
      High: 110,
      Currency: 'USD',
      Data: Array.from({ length: 31 }, (_, index) => {
        const isForecast = index >= 14;
        return {
          Date: `2026-03-${String(index + 1).padStart(2, '0')}`,
          Cost: 3,
          Kind: isForecast ? 'forecast' : 'actual',
          Low: isForecast ? 2 : 3,
          High: isForecast ? 4 + index - 14 : 3,
        };
      }),
    });
  exportAnswer = () =>
    new Response('BilledCost,EffectiveCost\n1,1\n', { status: 200, headers: { 'Content-Type': 'text/csv' } });
  fetchMock = vi.fn(async (url: string) => {
    const parsed = new URL(url, 'http://localhost');
    if (parsed.pathname === '/api/v1/cost/summary') {
      await summaryArrival;
      return answer(200, summary);
    }
    if (parsed.pathname === '/api/v1/cost') return costAnswer(parsed.searchParams);
    if (parsed.pathname === '/api/v1/cost/export') return exportAnswer();
    if (parsed.pathname === '/api/v1/cost/forecast') return forecastAnswer(parsed.searchParams);
    return refuseUnexpectedCall(url);
  });
  vi.stubGlobal('fetch', fetchMock);
  vi.stubGlobal('scrollTo', vi.fn());
  setWindowWidth(1200);
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  localStorage.clear();
});

describe('<CostAnalysis> summary', () => {
  it('shows month to date against the same days last month (a rise in red), the forecast and the savings', async () => {
    let release = () => {};
    summaryArrival = new Promise((resolve) => (release = resolve));
    renderPage();
    expect(await screen.findByRole('heading', { name: 'Cost Analysis & Budget', level: 1 })).toBeTruthy();
    const cards = await screen.findByRole('region', { name: 'Cost summary' });
    expect(cards.getAttribute('aria-busy')).toBe('true');
    expect(within(cards).getByText('Forecast month end')).toBeTruthy();
    release();
    await within(cards).findByText('$1,200.00');
    expect(cards.getAttribute('aria-busy')).toBeNull();
    expect(cards.textContent).toContain(
      'Month to date$1,200.00▲+20.0% vs $1,000.00 the same days last month',
    );
    expect(cards.textContent).toContain('Forecast month end$2,480.50');
    expect(cards.textContent).toContain('Realized savings this year$310.25');
    expect(within(cards).getByText('+20.0%').className).toContain('cost-change-up');
  });

  it('marks month to date partial while the bill is still being read', async () => {
    summary = { ...summary, Complete: false };
    renderPage();
    const cards = await screen.findByRole('region', { name: 'Cost summary' });
    expect(await within(cards).findByText('Partial: the bill is still being read from Azure.')).toBeTruthy();
  });

  it('shows a fall in green', async () => {
    summary = { ...summary, MonthToDate: 900 };
    renderPage();
    const change = await screen.findByText('-10.0%');
    expect(change.className).toContain('cost-change-down');
  });
});

describe('<CostAnalysis> chart and tables', () => {
  it('says under the chart which days are not in yet while the bill is being read, and marks the totals partial', async () => {
    costAnswer = async (params) => {
      const complete = defaultCostAnswer(params);
      if (params.get('from') !== currentFrom) return complete;
      const body = (await complete.json()) as CostResponse;
      return answer(200, {
        ...body,
        Complete: false,
        DaysRead: { From: '2026-03-10', To: params.get('to') },
      });
    };
    renderPage();
    expect(
      await screen.findByText(
        'The bill is still being read from Azure: Mar 1, 2026 to Mar 9, 2026 not in yet, so these figures are partial (in from Mar 10, 2026).',
      ),
    ).toBeTruthy();
    const rows = await findTableRows('Cost by service');
    expect(readRow(rows.at(-1)!)[0]).toBe('TOTAL (partial)');
  });

  it('charts this month by day, stacked by the 8 costliest services and Other', async () => {
    renderPage();
    const chart = await screen.findByRole('figure', {
      name: 'Daily cost by service, Mar 1, 2026 to Mar 15, 2026',
    });
    expect(within(chart).getByText('31 bars from Mar 1 to Mar 31')).toBeTruthy();
    expect(
      await within(chart).findByText(
        /^Forecast to month end \(shaded: the range it falls in 8 times out of 10\): Mar 15 2-3-4, Mar 16 2-3-5, .*, Mar 31 2-3-20$/,
      ),
    ).toBeTruthy();
    const series = within(within(chart).getByRole('list', { name: 'Chart series' })).getAllByRole('listitem');
    expect(series.map((item) => item.textContent)).toEqual([
      'Service 1: 20',
      'Service 2: 18',
      'Service 3: 16',
      'Service 4: 14',
      'Service 5: 12',
      'Service 6: 10',
      'Service 7: 8',
      'Service 8: 6',
      'Other: 6',
    ]);
    expect(
      screen.getByText('Mar 1, 2026 to Mar 15, 2026 (UTC), compared with Feb 1, 2026 to Feb 15, 2026.'),
    ).toBeTruthy();
    expect(describeCalls()).toEqual(
      expect.arrayContaining([
        '2026-03-01 2026-03-15 daily service actual',
        '2026-03-01 2026-03-15 none service actual',
        '2026-02-01 2026-02-15 none service actual',
        '2026-03-01 2026-03-15 none resource actual',
        '2026-02-01 2026-02-15 none resource actual',
      ]),
    );
  });

  it('tables every service with the period before, the change and the answer’s totals', async () => {
    renderPage();
    const rows = await findTableRows('Cost by service');
    expect(
      within(screen.getByRole('table', { name: 'Cost by service' }))
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['SERVICE', 'COST', 'PREVIOUS PERIOD', 'CHANGE']);
    expect(rows).toHaveLength(11);
    expect(readRow(rows[0]!)).toEqual(['Service 1', '$20.00', '$10.00', '▲+100.0%']);
    expect(readRow(rows.at(-1)!)).toEqual(['TOTAL', '$110.00', '$55.00', '▲+100.0%']);
  });

  it('pages a table of more than 30 groups, the total on every page', async () => {
    costAnswer = (params) =>
      params.get('groupBy') === 'service'
        ? answer(200, createGroupedBill(params, 35, 'Service '))
        : defaultCostAnswer(params);
    renderPage();
    expect(await findTableRows('Cost by service')).toHaveLength(31);
    const section = getSection('Cost by service');
    expect(within(section).getByText('Showing 1 to 30 of 35 entries • Page 1 of 2')).toBeTruthy();
    fireEvent.click(within(section).getByRole('button', { name: 'Next' }));
    const rows = await findTableRows('Cost by service');
    expect(rows.map((row) => readRow(row)[0])).toEqual([
      'Service 31',
      'Service 32',
      'Service 33',
      'Service 34',
      'Service 35',
      'TOTAL',
    ]);
    expect(readRow(rows.at(-1)!)[1]).toBe('$1,260.00');
  });

  it('lists the 10 costliest resources by name, the ARM id on hover, with their change', async () => {
    renderPage();
    const rows = await findTableRows('Top 10 resources by cost');
    expect(rows).toHaveLength(10);
    expect(readRow(rows[0]!)).toEqual(['vm-1', '$100.00', '$80.00', '▲+25.0%']);
    expect(within(rows[0]!).getByText('vm-1').getAttribute('title')).toBe(vmId('vm-1'));
    expect(readRow(rows[9]!)[0]).toBe('vm-10');
  });

  it('groups by resource group when asked, in the URL and in every grouped call', async () => {
    const router = renderPage();
    await findTableRows('Cost by service');
    fireEvent.change(screen.getByLabelText('Group by'), { target: { value: 'resourceGroup' } });
    const rows = await findTableRows('Cost by resource group');
    expect(rows.map((row) => readRow(row)[0])).toEqual(['rg-1', 'rg-2', 'rg-3', 'TOTAL']);
    expect(screen.getByRole('columnheader', { name: 'RESOURCE GROUP' })).toBeTruthy();
    expect(router.state.location.search).toBe('?groupBy=resourceGroup');
    expect(describeCalls()).toContain('2026-03-01 2026-03-15 daily resourceGroup actual');
  });

  it('draws no forecast where it has none, and keeps the bars to today when it fails', async () => {
    forecastAnswer = () => answer(500, { message: 'down' }, 'Internal Server Error');
    renderPage();
    const chart = await screen.findByRole('figure', { name: /^Daily cost by service/ });
    expect(await within(chart).findByText('15 bars from Mar 1 to Mar 15')).toBeTruthy();
    expect(within(chart).queryByText(/^Forecast/)).toBeNull();
    cleanup();
    fetchMock.mockClear();
    renderPage('/analysis?service=Storage');
    await screen.findByRole('figure', { name: /^Daily cost by service/ });
    expect(fetchMock.mock.calls.some(([url]) => String(url).includes('/cost/forecast'))).toBe(false);
  });

  it('asks the forecast for the filters applied', async () => {
    renderPage(`/analysis?tenantId=${tenantId}&resourceGroup=rg-web`);
    await screen.findByRole('figure', { name: /^Daily cost by service/ });
    const forecastCall = fetchMock.mock.calls
      .map(([url]) => new URL(String(url), 'http://localhost'))
      .find((url) => url.pathname === '/api/v1/cost/forecast');
    expect(forecastCall?.search).toBe(`?period=month&tenantId=${tenantId}&resourceGroup=rg-web`);
  });

  it('charts the last 12 months by month, and amortized cost when asked', async () => {
    renderPage('/analysis?period=last-12-months&costType=amortized');
    const chart = await screen.findByRole('figure', { name: /^Monthly cost by service/ });
    expect(within(chart).getByText('12 bars from Apr 2025 to Mar 2026')).toBeTruthy();
    expect(describeCalls()).toContain('2025-04-01 2026-03-15 monthly service amortized');
    expect(describeCalls()).toContain('2024-04-01 2025-03-15 none service amortized');
  });

  it('waits for a tag key before grouping by tag, and names the untagged', async () => {
    costAnswer = (params) =>
      params.get('groupBy') === 'tag:costcenter'
        ? answer(
            200,
            createCostResponse([
              { Date: params.get('from')!, Group: '', Cost: 4 },
              { Date: params.get('from')!, Group: 'cc-100', Cost: 6 },
            ]),
          )
        : defaultCostAnswer(params);
    const router = renderPage('/analysis?groupBy=tag');
    expect(
      await screen.findByText('Type a tag key, such as costcenter, and press Enter.', { selector: 'p' }),
    ).toBeTruthy();
    expect(costCalls().some((params) => params.get('groupBy')?.startsWith('tag'))).toBe(false);

    const field = screen.getByLabelText('Tag key');
    fireEvent.change(field, { target: { value: 'costcenter' } });
    fireEvent.keyDown(field, { key: 'Enter' });
    const rows = await findTableRows('Cost by tag costcenter');
    expect(rows.map((row) => readRow(row)[0])).toEqual(['cc-100', '(untagged)', 'TOTAL']);
    expect(screen.getByRole('columnheader', { name: 'TAG COSTCENTER' })).toBeTruthy();
    expect(router.state.location.search).toBe('?groupBy=tag&tagKey=costcenter');
  });
});

describe('<CostAnalysis> filters', () => {
  it('narrows every cost call and the summary to the tenant and resource group applied', async () => {
    const router = renderPage();
    await findTableRows('Cost by service');
    fireEvent.click(screen.getByText('Filters'));
    fireEvent.change(screen.getByLabelText('Tenant'), { target: { value: tenantId } });
    fireEvent.change(screen.getByLabelText('Resource group'), { target: { value: 'rg-web' } });
    fireEvent.click(screen.getByRole('button', { name: 'APPLY FILTERS' }));
    await findTableRows('Cost by service');
    expect(router.state.location.search).toBe(`?tenantId=${tenantId}&resourceGroup=rg-web`);
    const filtered = costCalls().filter((params) => params.get('tenantId') === tenantId);
    expect(filtered.length).toBeGreaterThanOrEqual(5);
    expect(filtered.every((params) => params.get('resourceGroup') === 'rg-web')).toBe(true);
    expect(fetchMock.mock.calls.map(([url]) => String(url))).toContain(
      `/api/v1/cost/summary?tenantId=${tenantId}`,
    );
    expect(screen.getByText('Filters (2)')).toBeTruthy();
  });

  it('refuses a tag that is not NAME=VALUE, in the contract’s words, and asks for nothing', async () => {
    renderPage();
    await findTableRows('Cost by service');
    const callCount = fetchMock.mock.calls.length;
    fireEvent.click(screen.getByText('Filters'));
    fireEvent.change(screen.getByLabelText('Tag'), { target: { value: 'team' } });
    fireEvent.click(screen.getByRole('button', { name: 'APPLY FILTERS' }));
    expect(await screen.findByText('tag must be NAME=VALUE.')).toBeTruthy();
    expect(fetchMock.mock.calls.length).toBe(callCount);
  });
});

describe('<CostAnalysis> states', () => {
  it('says there is no cost data in the chart, the table and the top 10 when the bill is empty', async () => {
    costAnswer = () => answer(200, createCostResponse([]));
    forecastAnswer = () => answer(200, { Expected: 0, Low: 0, High: 0, Currency: 'USD', Data: [] });
    renderPage();
    await vi.waitFor(() =>
      expect(screen.getAllByText('No cost data right now, check back later.')).toHaveLength(3),
    );
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('draws the month’s forecast over empty days in the first hours of a month, before its first day is billed', async () => {
    costAnswer = () => answer(200, createCostResponse([]));
    renderPage();
    const chart = await screen.findByRole('figure', { name: /^Daily cost by service, / });
    expect(within(chart).getByText(/^Forecast to month end/)).toBeTruthy();
    // The table and the top 10 have nothing to list yet.
    await vi.waitFor(() =>
      expect(screen.getAllByText('No cost data right now, check back later.')).toHaveLength(2),
    );
  });

  // A network failure is retried twice (1 s, then 2 s later) before the page gives up on it.
  it(
    'shows a failed load as Error: and its status text, and a network failure as no data',
    { timeout: 15_000 },
    async () => {
      costAnswer = (params) =>
        params.get('groupBy') === 'resource'
          ? Promise.reject(new TypeError('Failed to fetch'))
          : answer(400, { message: 'A range covers at most 400 days.' }, 'Bad Request');
      renderPage();
      await vi.waitFor(() =>
        expect(screen.getAllByRole('alert').map((alert) => alert.textContent)).toEqual([
          'Error: Bad Request',
          'Error: Bad Request',
        ]),
      );
      expect(
        await within(getSection('Top 10 resources by cost')).findByText(
          'No cost data right now, check back later.',
          {},
          { timeout: 10_000 },
        ),
      ).toBeTruthy();
    },
  );

  it('shows cards with a TOTAL card on narrow screens', async () => {
    setWindowWidth(865);
    renderPage();
    const list = await screen.findByRole('list', { name: 'Cost by service' });
    const cards = within(list).getAllByRole('listitem');
    expect(cards).toHaveLength(11);
    expect(within(cards[0]!).getByRole('heading', { name: 'Service 1' })).toBeTruthy();
    expect(cards[0]!.textContent).toBe('Service 1COST$20.00PREVIOUS PERIOD$10.00CHANGE▲+100.0%');
    expect(cards.at(-1)!.textContent).toBe('TOTALCOST$110.00PREVIOUS PERIOD$55.00CHANGE▲+100.0%');
    expect(screen.queryByRole('table')).toBeNull();
  });
});

describe('<CostAnalysis> FOCUS export', () => {
  it('downloads the period’s CSV through the client, with the bearer, as cloudtrim-focus-FROM-TO.csv', async () => {
    const saved: { fileName: string; text: Promise<string> }[] = [];
    const files = new Map<string, Blob>();
    // jsdom has no object URLs: these keep the file under a URL of their own.
    URL.createObjectURL = (file: Blob | MediaSource) => {
      const url = `blob:file-${files.size}`;
      files.set(url, file as Blob);
      return url;
    };
    URL.revokeObjectURL = (url: string) => void files.delete(url);
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push({ fileName: this.download, text: files.get(this.href)!.text() });
    });
    renderPage('/analysis?period=last-30-days');
    fireEvent.click(await screen.findByRole('button', { name: 'DOWNLOAD FOCUS CSV' }));
    await vi.waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]!.fileName).toBe('cloudtrim-focus-2026-02-14-2026-03-15.csv');
    expect(await saved[0]!.text).toBe('BilledCost,EffectiveCost\n1,1\n');
    const exportCall = fetchMock.mock.calls.find(([url]) => String(url).startsWith('/api/v1/cost/export'))!;
    expect(exportCall[0]).toBe('/api/v1/cost/export?from=2026-02-14&to=2026-03-15');
    expect(new Headers(exportCall[1]?.headers).get('Authorization')).toBe('Bearer a-session-token');
  });

  it('says why a download failed: a refusal in the server’s words, anything else by its status', async () => {
    exportAnswer = () =>
      answer(400, { message: 'An export covers at most 121 days, the bill kept by day.' }, 'Bad Request');
    renderPage('/analysis?period=last-12-months');
    fireEvent.click(await screen.findByRole('button', { name: 'DOWNLOAD FOCUS CSV' }));
    expect(
      await screen.findByText('Error: An export covers at most 121 days, the bill kept by day.'),
    ).toBeTruthy();

    exportAnswer = () => answer(500, { message: 'boom' }, 'Internal Server Error');
    fireEvent.click(screen.getByRole('button', { name: 'DOWNLOAD FOCUS CSV' }));
    expect(await screen.findByText('Error: Internal Server Error')).toBeTruthy();
  });
});
