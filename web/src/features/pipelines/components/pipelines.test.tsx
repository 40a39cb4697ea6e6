// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  approvalJoinedLaterText,
  approvalOwnProposalText,
  approvalRoleText,
  type CallerApproval,
  type Pipeline,
  type PipelineItem,
  type PipelineListResponse,
  type PipelineRunDetail,
  type PipelineSummary,
} from '@cloudtrim/contracts/pipelines';
import { createQueryClient } from '../../../lib/query-client';
import { sessionStorageKeys } from '../../../lib/session';
import { Pipelines } from './pipelines';
import { refuseUnexpectedCall } from '../../../testing/unexpected-fetch';
import { setWindowWidth } from '../../../testing/window-width';

const tenantId = '0b2f5e4c-8a3d-4f61-9c7e-2d1a6b9e0f34';

function createSummary(index: number, overrides: Partial<PipelineSummary> = {}): PipelineSummary {
  return {
    id: `7c9e6679-7425-40de-944b-e07fc1f90a${String(index).padStart(2, '0')}`,
    name: `Pipeline ${index}`,
    state: 'active',
    version: 1,
    scopeSummary: 'Tag environment = dev',
    scope: { tags: [{ key: 'environment', op: 'equals', value: 'dev' }] },
    action: { type: 'stop' },
    schedule: { cron: '0 19 * * 1-5', timeZone: 'Europe/London' },
    lastRun: null,
    // 19:00 in London in winter is 19:00 UTC.
    nextRunAt: '2026-11-26T19:00:00.000Z',
    updatedAt: '2026-11-25T10:00:00.000Z',
    ...overrides,
  };
}

function createPipeline(index: number, overrides: Partial<PipelineSummary> = {}): Pipeline {
  const summary = createSummary(index, overrides);
  return {
    ...summary,
    definition: {
      name: summary.name,
      scope: summary.scope,
      condition: {},
      action: summary.action,
      schedule: summary.schedule,
      gates: { dryRun: true, inARow: 1, blastRadius: 10, approval: 'destructive', graceMinutes: 60 },
    },
    createdBy: 'demo@cloudtrim.dev',
    updatedBy: 'demo@cloudtrim.dev',
  };
}

function createItem(index: number, overrides: Partial<PipelineItem> = {}): PipelineItem {
  return {
    resourceId: `/subscriptions/s/resourceGroups/rg-web-dev/providers/Microsoft.Compute/virtualMachines/web-dev-${index}`,
    resourceName: `web-dev-${index}`,
    resourceType: 'virtualMachine',
    subscriptionId: '11111111-2222-3333-4444-555555555555',
    resourceGroup: 'rg-web-dev',
    outcome: 'acted',
    reason: null,
    detail: 'Stop',
    annualSaving: 1234.5,
    ...overrides,
  };
}

function createApproval(overrides: Partial<CallerApproval> = {}): CallerApproval {
  return {
    id: '9d6f1a2b-3c4d-4e5f-8a9b-0c1d2e3f4a5b',
    pipelineId: createSummary(1).id,
    pipelineName: 'Delete old disks',
    runId: 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d',
    action: { type: 'delete' },
    state: 'waiting',
    proposedBy: 'olga@example.com',
    proposedAt: '2026-11-25T09:00:00.000Z',
    runsAfter: '2026-11-25T10:00:00.000Z',
    decidedBy: null,
    decidedAt: null,
    items: [createItem(1, { outcome: 'skipped', reason: 'awaitingApproval', detail: 'Snapshot and delete' })],
    annualSaving: 1234.5,
    refusal: null,
    mayReject: true,
    ...overrides,
  };
}

function createRun(overrides: Partial<PipelineRunDetail> = {}): PipelineRunDetail {
  return {
    id: 'b1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d',
    pipelineId: createSummary(1).id,
    pipelineName: 'Pipeline 1',
    version: 2,
    trigger: 'manual',
    dryRun: true,
    state: 'succeeded',
    scheduledFor: '2026-11-25T12:00:00.000Z',
    startedAt: '2026-11-25T12:00:00.000Z',
    finishedAt: '2026-11-25T12:00:05.000Z',
    startedBy: 'demo@cloudtrim.dev',
    matched: 3,
    acted: 1,
    skipped: 1,
    failed: 1,
    annualSaving: 1234.5,
    items: [
      createItem(1, { outcome: 'matched', detail: 'Would stop' }),
      createItem(2, { outcome: 'skipped', reason: 'optedOut', detail: 'Stop', annualSaving: 0 }),
      createItem(3, { outcome: 'failed', detail: 'Azure refused the stop.', annualSaving: 0 }),
    ],
    ...overrides,
  };
}

function answer(status: number, body?: unknown, statusText = ''): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    statusText,
    headers: { 'Content-Type': 'application/json' },
  });
}

let pipelines: PipelineSummary[];
let listAnswer: (offset: number) => Response;
let approvals: CallerApproval[];
let decisionAnswer: () => Response;
let importAnswer: () => Response;
let myRole: 'Owner' | 'Approver' | 'Member' | 'Viewer';
let fetchMock: ReturnType<typeof vi.fn>;

function renderPipelines() {
  render(
    <QueryClientProvider client={createQueryClient()}>
      <Pipelines tenants={[{ id: tenantId, name: 'Contoso' }]} />
    </QueryClientProvider>,
  );
}

function calls(method: string, path?: string): { url: string; body: unknown }[] {
  return fetchMock.mock.calls
    .filter(([, init]) => ((init as RequestInit | undefined)?.method ?? 'GET') === method)
    .filter(([url]) => path === undefined || String(url).startsWith(path))
    .map(([url, init]) => ({
      url: String(url),
      body: JSON.parse(String((init as RequestInit).body ?? 'null')),
    }));
}

function readRows(table: HTMLElement): (string | null)[][] {
  return within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) => [...row.querySelectorAll('th, td')].map((cell) => cell.textContent));
}

beforeEach(() => {
  localStorage.setItem(sessionStorageKeys.token, 'a-session-token');
  localStorage.setItem(sessionStorageKeys.email, 'demo@cloudtrim.dev');
  pipelines = [createSummary(1)];
  listAnswer = (offset) =>
    answer(200, {
      pipelines: pipelines.slice(offset, offset + 30),
      total: pipelines.length,
    } satisfies PipelineListResponse);
  approvals = [];
  decisionAnswer = () => answer(204);
  importAnswer = () => answer(201, createPipeline(9));
  myRole = 'Member';
  fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
    const method = init?.method ?? 'GET';
    const { pathname, searchParams } = new URL(url, 'http://localhost');
    if (pathname === '/api/v1/pipeline' && method === 'GET') {
      return listAnswer(Number(searchParams.get('offset') ?? 0));
    }
    if (pathname === '/api/v1/approval') return answer(200, { approvals });
    if (pathname === '/api/v1/team') {
      return answer(200, [
        {
          EmailAddress: 'demo@cloudtrim.dev',
          FirstName: 'Demo',
          LastName: 'User',
          Status: 'Active',
          role: myRole,
        },
      ]);
    }
    if (pathname.startsWith('/api/v1/approval/')) return decisionAnswer();
    if (pathname === '/api/v1/pipeline/import') return importAnswer();
    if (pathname.endsWith('/export')) {
      return new Response('name: Pipeline 1\n', { headers: { 'Content-Type': 'application/yaml' } });
    }
    if (/\/api\/v1\/pipeline\/[^/]+\/runs$/.test(pathname)) {
      const { items: _items, ...run } = createRun();
      return answer(200, { runs: [run], total: 1 });
    }
    if (/\/api\/v1\/pipeline\/[^/]+\/run$/.test(pathname)) {
      return answer(202, createRun({ id: 'c1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d', dryRun: false }));
    }
    if (pathname.startsWith('/api/v1/pipeline/run/')) return answer(200, createRun());
    if (/\/api\/v1\/pipeline\/[^/]+\/(pause|resume)$/.test(pathname)) {
      return answer(200, createPipeline(1, { state: 'paused' }));
    }
    if (pathname.startsWith('/api/v1/pipeline/') && method === 'DELETE') return answer(204);
    return refuseUnexpectedCall(url, init);
  });
  vi.stubGlobal('fetch', fetchMock);
  setWindowWidth(1200);
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('<Pipelines> list', () => {
  it('lists each pipeline’s scope, action, schedule in its time zone, last and next run, and state', async () => {
    pipelines = [
      createSummary(1, {
        lastRun: {
          id: 'r',
          at: '2026-11-25T19:00:00.000Z',
          state: 'succeeded',
          dryRun: true,
          matched: 4,
          acted: 0,
        },
        // London is on summer time in June: 19:00 there is 18:00 UTC.
        nextRunAt: '2027-06-01T18:00:00.000Z',
      }),
      createSummary(2, {
        name: 'Right-size in the window',
        state: 'paused',
        scopeSummary: 'All resources',
        action: { type: 'tag', tag: { key: 'owner', value: 'finops' } },
        schedule: { maintenanceWindow: true },
        nextRunAt: null,
      }),
    ];
    renderPipelines();
    const table = await screen.findByRole('table', { name: 'Pipelines' });
    expect(readRows(table)).toEqual([
      [
        'Pipeline 1',
        'Tag environment = dev',
        'Stop',
        '0 19 * * 1-5 (Europe/London)',
        expect.stringMatching(/^.+ UTC · Dry run · Succeeded · 4 matched, 0 acted$/),
        '1 Jun 2027, 19:00 Europe/London',
        'Active',
        'EDITRUNSPAUSEEXPORT YAMLDELETE',
      ],
      [
        'Right-size in the window',
        'All resources',
        'Tag owner = finops',
        'Each resource’s maintenance window',
        'Never',
        'N/A',
        'Paused',
        'EDITRUNSRESUMEEXPORT YAMLDELETE',
      ],
    ]);
  });

  it('shows cards below 866px', async () => {
    setWindowWidth(800);
    renderPipelines();
    const list = await screen.findByRole('list', { name: 'Pipelines' });
    const card = within(list).getByRole('listitem');
    expect(within(card).getByRole('heading', { name: 'Pipeline 1 Active' })).toBeTruthy();
    expect(within(card).getByText('0 19 * * 1-5 (Europe/London)')).toBeTruthy();
    expect(screen.queryByRole('table', { name: 'Pipelines' })).toBeNull();
  });

  it('pages 30 at a time, asking the server for each page', async () => {
    pipelines = Array.from({ length: 31 }, (_, index) => createSummary(index + 1));
    renderPipelines();
    const table = await screen.findByRole('table', { name: 'Pipelines' });
    expect(within(table).getAllByRole('row')).toHaveLength(31);
    const pager = screen.getByRole('navigation', { name: 'Pipelines pages' });
    fireEvent.click(within(pager).getByRole('button', { name: '2' }));
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(2));
    expect(within(table).getByText('Pipeline 31')).toBeTruthy();
    expect(calls('GET', '/api/v1/pipeline?').map((call) => call.url)).toEqual([
      '/api/v1/pipeline?offset=0',
      '/api/v1/pipeline?offset=30',
    ]);
  });

  it('shows a spinner while loading, then the empty text', async () => {
    let release: () => void = () => {};
    const isReleased = new Promise<void>((resolve) => (release = resolve));
    listAnswer = () => answer(200, { pipelines: [], total: 0 });
    fetchMock.mockImplementationOnce(async () => {
      await isReleased;
      return listAnswer(0);
    });
    renderPipelines();
    expect(screen.getByText('Loading the pipelines')).toBeTruthy();
    release();
    expect(await screen.findByText('No pipelines yet.')).toBeTruthy();
    expect(screen.queryByText('Loading the pipelines')).toBeNull();
  });

  // A server error and a network failure are each tried three times (the query client's retries), with
  // a back-off of seconds between.
  it(
    'shows the status text of a failed load, and the empty text when the network failed',
    { timeout: 20_000 },
    async () => {
      listAnswer = () => answer(500, { message: 'boom' }, 'Internal Server Error');
      renderPipelines();
      expect((await screen.findByRole('alert')).textContent).toBe('Error: Internal Server Error');
      cleanup();

      fetchMock.mockImplementation(async (url: string) => {
        if (String(url).startsWith('/api/v1/pipeline')) throw new TypeError('Failed to fetch');
        return answer(200, { approvals: [] });
      });
      renderPipelines();
      expect(await screen.findByText('No pipelines yet.')).toBeTruthy();
    },
  );

  it('pauses an active pipeline and deletes one after confirmation', async () => {
    renderPipelines();
    fireEvent.click(await screen.findByRole('button', { name: 'Pause Pipeline 1' }));
    await waitFor(() => expect(calls('POST', '/api/v1/pipeline/')).toHaveLength(1));
    expect(calls('POST')[0]!.url).toBe(`/api/v1/pipeline/${createSummary(1).id}/pause`);

    fireEvent.click(screen.getByRole('button', { name: 'Delete Pipeline 1' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete pipeline' });
    expect(within(dialog).getByText('Pipeline 1')).toBeTruthy();
    expect(calls('DELETE')).toHaveLength(0);
    fireEvent.click(within(dialog).getByRole('button', { name: 'DELETE PIPELINE' }));
    await waitFor(() =>
      expect(calls('DELETE').map((call) => call.url)).toEqual([`/api/v1/pipeline/${createSummary(1).id}`]),
    );
  });
});

describe('<Pipelines> for a Viewer', () => {
  it('offers no new pipeline, import, pause, delete or run: a Viewer reads only', async () => {
    myRole = 'Viewer';
    renderPipelines();
    await screen.findByRole('button', { name: 'Runs of Pipeline 1' });
    await waitFor(() => expect(screen.queryByRole('button', { name: 'NEW PIPELINE' })).toBeNull());
    expect(screen.queryByRole('button', { name: 'Pause Pipeline 1' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete Pipeline 1' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Export Pipeline 1 as YAML' })).toBeTruthy();
  });
});

describe('<Pipelines> export', () => {
  it('downloads the pipeline’s YAML under its name', async () => {
    const createObjectURL = vi.fn((_file: Blob) => 'blob:pipeline');
    Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() });
    const downloads: string[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      downloads.push(this.download);
    });
    renderPipelines();
    fireEvent.click(await screen.findByRole('button', { name: 'Export Pipeline 1 as YAML' }));
    await waitFor(() => expect(downloads).toEqual(['pipeline-1.yaml']));
    expect(await createObjectURL.mock.calls[0]![0].text()).toBe('name: Pipeline 1\n');
    const [url, init] = fetchMock.mock.calls.find(([called]) => String(called).endsWith('/export'))!;
    expect(url).toBe(`/api/v1/pipeline/${createSummary(1).id}/export`);
    expect(new Headers((init as RequestInit).headers).get('Accept')).toBe('application/yaml');
    click.mockRestore();
  });
});

describe('<Pipelines> runs', () => {
  it('lists the runs, opens a run’s items with why each was skipped, and runs for real only once confirmed', async () => {
    renderPipelines();
    fireEvent.click(await screen.findByRole('button', { name: 'Runs of Pipeline 1' }));
    const dialog = await screen.findByRole('dialog', { name: 'Runs of Pipeline 1' });
    const runs = await within(dialog).findByRole('table', { name: 'Runs' });
    expect(readRows(runs)[0]!.slice(1)).toEqual([
      'Dry run, run now',
      'Succeeded',
      '3',
      '1',
      '1',
      '1',
      '$1,234.50',
      'DETAILS',
    ]);
    fireEvent.click(within(runs).getByRole('button', { name: /^Details of the run of / }));
    const items = await within(dialog).findByRole('table', { name: 'Run items' });
    expect(readRows(items)).toEqual([
      ['web-dev-1', 'rg-web-dev', 'Matched', 'Would stop', '$1,234.50'],
      ['web-dev-2', 'rg-web-dev', 'Skipped: opted out (cloudtrim:exclude)', 'Stop', '$0.00'],
      ['web-dev-3', 'rg-web-dev', 'Failed', 'Azure refused the stop.', '$0.00'],
    ]);
    expect(
      within(dialog).getByText(/^3 matched · 1 acted · 1 skipped · 1 failed · \$1,234\.50 a year$/),
    ).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: '← Back to the runs' }));
    await within(dialog).findByRole('table', { name: 'Runs' });

    fireEvent.click(within(dialog).getByRole('button', { name: 'RUN NOW' }));
    expect(calls('POST')).toHaveLength(0);
    fireEvent.click(within(dialog).getByRole('button', { name: 'RUN FOR REAL' }));
    await waitFor(() => expect(calls('POST')).toHaveLength(1));
    expect(calls('POST')[0]).toEqual({
      url: `/api/v1/pipeline/${createSummary(1).id}/run`,
      body: { dryRun: false },
    });
    expect(await within(dialog).findByRole('table', { name: 'Run items' })).toBeTruthy();
  });

  it('runs dry at once', async () => {
    renderPipelines();
    fireEvent.click(await screen.findByRole('button', { name: 'Runs of Pipeline 1' }));
    const dialog = await screen.findByRole('dialog', { name: 'Runs of Pipeline 1' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'DRY RUN NOW' }));
    await waitFor(() => expect(calls('POST')).toHaveLength(1));
    expect(calls('POST')[0]!.body).toEqual({ dryRun: true });
  });
});

describe('<Pipelines> import', () => {
  function chooseFile(text: string) {
    const input = screen.getByLabelText('Pipeline file to import');
    const file = new File([text], 'pipeline.yaml', { type: 'application/yaml' });
    // jsdom's File cannot read itself; a browser's can.
    Object.defineProperty(file, 'text', { value: async () => text });
    fireEvent.change(input, {
      target: { files: [file] },
    });
  }

  it('sends the chosen file’s text, and shows the line and field of a refused one', async () => {
    importAnswer = () =>
      answer(400, {
        statusCode: 400,
        error: 'Bad Request',
        message: 'Line 7, schedule.timeZone: Time zone must be an IANA time zone such as Europe/London.',
        field: 'schedule.timeZone',
        line: 7,
      });
    renderPipelines();
    await screen.findByRole('table', { name: 'Pipelines' });
    chooseFile('name: Stop dev VMs\n');
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The file was not imported. Line 7, schedule.timeZone: Time zone must be an IANA time zone such as Europe/London.',
    );
    expect(calls('POST', '/api/v1/pipeline/import')).toEqual([
      { url: '/api/v1/pipeline/import', body: { yaml: 'name: Stop dev VMs\n' } },
    ]);
  });

  it('says which pipeline an accepted file made', async () => {
    renderPipelines();
    await screen.findByRole('table', { name: 'Pipelines' });
    chooseFile('name: Pipeline 9\n');
    expect(await screen.findByText('Imported the pipeline Pipeline 9.')).toBeTruthy();
  });
});

describe('<Pipelines> approvals', () => {
  it('says when nothing waits for the user', async () => {
    renderPipelines();
    expect(await screen.findByText('Nothing is waiting for your approval.')).toBeTruthy();
  });

  it('shows a colleague’s proposal with its resources and saving, and sends the approval', async () => {
    approvals = [createApproval()];
    renderPipelines();
    const list = await screen.findByRole('list', { name: 'Approvals' });
    const card = within(list).getByRole('listitem');
    expect(within(card).getByRole('heading', { name: 'Delete old disks: Delete 1 resource' })).toBeTruthy();
    expect(within(card).getByText(/^olga@example\.com, .+ UTC$/)).toBeTruthy();
    expect(within(card).getByText('$1,234.50', { selector: 'dd' })).toBeTruthy();
    expect(within(card).getByText('Skipped: awaiting approval')).toBeTruthy();
    approvals = [];
    fireEvent.click(within(card).getByRole('button', { name: 'Approve Delete old disks' }));
    await waitFor(() => expect(calls('POST', '/api/v1/approval/')).toHaveLength(1));
    expect(calls('POST', '/api/v1/approval/')[0]).toEqual({
      url: `/api/v1/approval/${createApproval().id}`,
      body: { decision: 'approve' },
    });
    expect(await screen.findByText('Nothing is waiting for your approval.')).toBeTruthy();
  });

  it('sends a rejection', async () => {
    approvals = [createApproval()];
    renderPipelines();
    fireEvent.click(await screen.findByRole('button', { name: 'Reject Delete old disks' }));
    await waitFor(() => expect(calls('POST', '/api/v1/approval/')).toHaveLength(1));
    expect(calls('POST', '/api/v1/approval/')[0]!.body).toEqual({ decision: 'reject' });
  });

  it('says why the user may not approve, and offers REJECT only to an Owner or Approver', async () => {
    approvals = [createApproval({ refusal: approvalJoinedLaterText })];
    renderPipelines();
    let card = within(await screen.findByRole('list', { name: 'Approvals' })).getByRole('listitem');
    expect(within(card).getByText(approvalJoinedLaterText)).toBeTruthy();
    expect(within(card).getByRole('button', { name: 'Approve Delete old disks' })).toHaveProperty(
      'disabled',
      true,
    );
    expect(within(card).getByRole('button', { name: 'Reject Delete old disks' })).toHaveProperty(
      'disabled',
      false,
    );
    cleanup();

    approvals = [createApproval({ refusal: approvalRoleText, mayReject: false })];
    renderPipelines();
    card = within(await screen.findByRole('list', { name: 'Approvals' })).getByRole('listitem');
    expect(within(card).getByText(approvalRoleText)).toBeTruthy();
    expect(within(card).getByRole('button', { name: 'Reject Delete old disks' })).toHaveProperty(
      'disabled',
      true,
    );
    cleanup();

    // Approved but not yet run: only a veto is left.
    approvals = [
      createApproval({
        state: 'approved',
        decidedBy: 'ann@example.com',
        refusal: 'This approval is approved already.',
      }),
    ];
    renderPipelines();
    card = within(await screen.findByRole('list', { name: 'Approvals' })).getByRole('listitem');
    expect(within(card).queryByRole('button', { name: 'Approve Delete old disks' })).toBeNull();
    expect(
      within(card).getByText(/approved by ann@example\.com: an Owner or Approver may still reject it/),
    ).toBeTruthy();
    fireEvent.click(within(card).getByRole('button', { name: 'Reject Delete old disks' }));
    await waitFor(() => expect(calls('POST', '/api/v1/approval/')).toHaveLength(1));
    expect(calls('POST', '/api/v1/approval/')[0]!.body).toEqual({ decision: 'reject' });
  });

  it('tells the proposer a colleague must approve their own, and shows the server’s refusal', async () => {
    approvals = [createApproval({ proposedBy: 'Demo@cloudtrim.dev' })];
    renderPipelines();
    const card = within(await screen.findByRole('list', { name: 'Approvals' })).getByRole('listitem');
    expect(within(card).getByText(approvalOwnProposalText)).toBeTruthy();
    expect(within(card).getByRole('button', { name: 'Approve Delete old disks' })).toHaveProperty(
      'disabled',
      true,
    );
    cleanup();

    // One proposed under another address, refused by the server all the same.
    approvals = [createApproval()];
    decisionAnswer = () =>
      answer(403, { statusCode: 403, error: 'Forbidden', message: approvalOwnProposalText }, 'Forbidden');
    renderPipelines();
    fireEvent.click(await screen.findByRole('button', { name: 'Approve Delete old disks' }));
    expect((await screen.findByRole('alert')).textContent).toBe(approvalOwnProposalText);
  });
});
