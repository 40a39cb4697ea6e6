// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type {
  Pipeline,
  PipelineDefinition,
  PipelinePreviewResponse,
  PipelineTemplate,
} from '@cloudtrim/contracts/pipelines';
import { createQueryClient } from '../../../lib/query-client';
import { PipelineBuilder } from './pipeline-builder';
import { refuseUnexpectedCall } from '../../../testing/unexpected-fetch';

const tenantId = '0b2f5e4c-8a3d-4f61-9c7e-2d1a6b9e0f34';
const pipelineId = '7c9e6679-7425-40de-944b-e07fc1f90a01';

const stopDevVms: PipelineDefinition = {
  name: 'Stop dev VMs outside business hours',
  scope: { tags: [{ key: 'environment', op: 'equals', value: 'dev' }] },
  condition: {},
  action: { type: 'stop' },
  schedule: { cron: '0 19 * * 1-5', timeZone: 'Europe/London' },
  gates: { dryRun: true, inARow: 1, blastRadius: 10, approval: 'destructive', graceMinutes: 60 },
};

const templates: PipelineTemplate[] = [
  {
    id: 'stop-dev-vms',
    title: 'Stop dev VMs outside business hours',
    description: 'Stops every VM tagged environment = dev at 19:00 London time on weekdays.',
    definition: stopDevVms,
  },
  {
    id: 'deallocate-stopped-vms',
    title: 'Deallocate stopped VMs',
    description: 'Deallocates VMs stopped but still billed.',
    definition: {
      ...stopDevVms,
      name: 'Deallocate stopped VMs',
      scope: {},
      condition: { finding: { kind: 'stoppedNotDeallocated' } },
      action: { type: 'deallocate' },
    },
  },
];

const preview: PipelinePreviewResponse = {
  matched: 3,
  wouldAct: 2,
  annualSaving: 2469,
  items: [
    {
      resourceId:
        '/subscriptions/s/resourceGroups/rg-web-dev/providers/Microsoft.Compute/virtualMachines/web-dev-1',
      resourceName: 'web-dev-1',
      resourceType: 'virtualMachine',
      subscriptionId: '11111111-2222-3333-4444-555555555555',
      resourceGroup: 'rg-web-dev',
      outcome: 'matched',
      reason: null,
      detail: 'Stop',
      annualSaving: 1234.5,
    },
    {
      resourceId:
        '/subscriptions/s/resourceGroups/rg-web-dev/providers/Microsoft.Compute/virtualMachines/web-dev-2',
      resourceName: 'web-dev-2',
      resourceType: 'virtualMachine',
      subscriptionId: '11111111-2222-3333-4444-555555555555',
      resourceGroup: 'rg-web-dev',
      outcome: 'skipped',
      reason: 'optedOut',
      detail: 'Stop',
      annualSaving: 0,
    },
  ],
};

function createPipeline(definition: PipelineDefinition): Pipeline {
  return {
    id: pipelineId,
    name: definition.name,
    state: 'active',
    version: 3,
    scopeSummary: 'Tag environment = dev',
    scope: definition.scope,
    action: definition.action,
    schedule: definition.schedule,
    lastRun: null,
    nextRunAt: null,
    updatedAt: '2026-11-25T10:00:00.000Z',
    definition,
    createdBy: 'demo@cloudtrim.dev',
    updatedBy: 'demo@cloudtrim.dev',
  };
}

function answer(status: number, body?: unknown, statusText = ''): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    statusText,
    headers: { 'Content-Type': 'application/json' },
  });
}

let previewAnswer: () => Response;
let saveAnswer: (body: PipelineDefinition) => Response;
let fetchMock: ReturnType<typeof vi.fn>;
let onSaved: ReturnType<typeof vi.fn>;

function calls(method: string, path: string): { url: string; body: unknown }[] {
  return fetchMock.mock.calls
    .filter(([, init]) => ((init as RequestInit | undefined)?.method ?? 'GET') === method)
    .filter(([url]) => String(url) === path)
    .map(([url, init]) => ({
      url: String(url),
      body: JSON.parse(String((init as RequestInit).body ?? 'null')),
    }));
}

function renderBuilder(id: string | null = null) {
  render(
    <QueryClientProvider client={createQueryClient()}>
      <PipelineBuilder
        isShown
        pipelineId={id}
        tenants={[{ id: tenantId, name: 'Contoso' }]}
        onHide={() => {}}
        onSaved={onSaved}
      />
    </QueryClientProvider>,
  );
  return screen.findByRole('dialog', {
    name: id === null ? 'New pipeline' : `Edit pipeline ${stopDevVms.name}`,
  });
}

beforeEach(() => {
  localStorage.setItem('token', 'a-session-token');
  previewAnswer = () => answer(200, preview);
  saveAnswer = (body) => answer(201, createPipeline(body));
  onSaved = vi.fn();
  fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
    const method = init?.method ?? 'GET';
    if (url === '/api/v1/pipeline/templates') return answer(200, { templates });
    if (url === '/api/v1/pipeline/preview') return previewAnswer();
    if (url === `/api/v1/pipeline/${pipelineId}` && method === 'GET')
      return answer(200, createPipeline(stopDevVms));
    if (method === 'POST' || method === 'PUT') return saveAnswer(JSON.parse(String(init!.body)));
    // The scope fields' suggestions (none here) and the caller's role (a Member may edit).
    if (url.startsWith('/api/v1/scope?')) return answer(200, { Items: [], Page: 0, TotalCount: 0 });
    if (url === '/api/v1/team') {
      return answer(200, [
        {
          EmailAddress: 'demo@cloudtrim.dev',
          FirstName: 'Demo',
          LastName: 'User',
          Status: 'Active',
          role: 'Member',
        },
      ]);
    }
    return refuseUnexpectedCall(url, init);
  });
  vi.stubGlobal('fetch', fetchMock);
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: 1200 >= Number(/min-width:\s*(\d+)px/.exec(query)?.[1] ?? 0),
    media: query,
    addEventListener: () => {},
    removeEventListener: () => {},
  }));
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('<PipelineBuilder> preview', () => {
  it(
    'waits for a pipeline that passes its checks, then previews the template chosen, and again as it changes',
    { timeout: 20_000 },
    async () => {
      const dialog = await renderBuilder();
      const panel = within(dialog).getByRole('region', {
        name: 'Dry-run preview (nothing is written to Azure)',
      });
      expect(
        await within(panel).findByText(
          'The preview runs once the pipeline passes its checks: Name is required.',
        ),
      ).toBeTruthy();

      const startFrom = within(dialog).getByLabelText('Start from');
      await waitFor(() => expect(startFrom).toHaveProperty('disabled', false));
      fireEvent.change(startFrom, { target: { value: 'stop-dev-vms' } });
      expect(within(dialog).getByText(templates[0]!.description)).toBeTruthy();
      expect(within(dialog).getByLabelText('Name')).toHaveProperty('value', stopDevVms.name);
      expect(within(dialog).getByLabelText('Scope tag 1 key')).toHaveProperty('value', 'environment');
      expect(within(dialog).getByLabelText('Time zone')).toHaveProperty('value', 'Europe/London');

      expect(
        await within(panel).findByText(
          (_, element) =>
            element?.tagName === 'P' &&
            element.textContent === '3 matched · 2 would be acted on now · $2,469.00 a year',
        ),
      ).toBeTruthy();
      const table = within(panel).getByRole('table', { name: 'Preview' });
      expect(
        within(table)
          .getAllByRole('row')
          .slice(1)
          .map((row) => [...row.querySelectorAll('th, td')].map((cell) => cell.textContent)),
      ).toEqual([
        ['web-dev-1rg-web-dev', 'MatchedStop', '$1,234.50'],
        ['web-dev-2rg-web-dev', 'Skipped: opted out (cloudtrim:exclude)Stop', '$0.00'],
      ]);
      expect(calls('POST', '/api/v1/pipeline/preview').map((call) => call.body)).toEqual([stopDevVms]);

      fireEvent.change(within(dialog).getByLabelText('Blast radius (per run)'), { target: { value: '1' } });
      await waitFor(() => expect(calls('POST', '/api/v1/pipeline/preview')).toHaveLength(2));
      expect(calls('POST', '/api/v1/pipeline/preview')[1]!.body).toEqual({
        ...stopDevVms,
        gates: { ...stopDevVms.gates, blastRadius: 1 },
      });
      // Nothing was saved by previewing.
      expect(calls('POST', '/api/v1/pipeline')).toEqual([]);
    },
  );

  it('shows a refused preview’s message', async () => {
    previewAnswer = () =>
      answer(400, { statusCode: 400, error: 'Bad Request', message: 'No tenant of that id in the team.' });
    const dialog = await renderBuilder();
    const startFrom = within(dialog).getByLabelText('Start from');
    await waitFor(() => expect(startFrom).toHaveProperty('disabled', false));
    fireEvent.change(startFrom, { target: { value: 'deallocate-stopped-vms' } });
    expect((await within(dialog).findByRole('alert')).textContent).toBe('No tenant of that id in the team.');
  });
});

describe('<PipelineBuilder> save', () => {
  it('saves a new pipeline as built, after the contract’s checks pass', async () => {
    const dialog = await renderBuilder();
    fireEvent.change(within(dialog).getByLabelText('Cron (minute hour day month weekday)'), {
      target: { value: '0 19' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'SAVE PIPELINE' }));
    expect(await within(dialog).findByText('Name is required.')).toBeTruthy();
    expect(
      within(dialog).getByText('Cron must have five fields: minute hour day month weekday.'),
    ).toBeTruthy();
    expect(calls('POST', '/api/v1/pipeline')).toEqual([]);

    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'Tag the costly' } });
    fireEvent.click(within(dialog).getByLabelText('In each resource’s maintenance window'));
    fireEvent.click(within(dialog).getByLabelText('Contoso'));
    fireEvent.change(within(dialog).getByLabelText('Finding'), { target: { value: 'costOver' } });
    fireEvent.change(within(dialog).getByLabelText('Costs more than ($ a month)'), {
      target: { value: '250' },
    });
    fireEvent.change(within(dialog).getByLabelText('Action', { selector: 'select' }), {
      target: { value: 'tag' },
    });
    fireEvent.change(within(dialog).getByLabelText('Tag key to set'), { target: { value: 'review' } });
    fireEvent.change(within(dialog).getByLabelText('Tag value to set'), { target: { value: 'cost' } });
    fireEvent.click(within(dialog).getByLabelText('Dry run: scheduled runs only record what they match'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'SAVE PIPELINE' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalledTimes(1));
    expect(calls('POST', '/api/v1/pipeline').map((call) => call.body)).toEqual([
      {
        name: 'Tag the costly',
        scope: { tenantIds: [tenantId] },
        condition: { finding: { kind: 'costOver', monthlyCost: 250 } },
        action: { type: 'tag', tag: { key: 'review', value: 'cost' } },
        schedule: { maintenanceWindow: true },
        gates: { dryRun: false, inARow: 1, blastRadius: 10, approval: 'destructive', graceMinutes: 60 },
      },
    ]);
  });

  it('shows the server’s 400 by the field it names', async () => {
    saveAnswer = () =>
      answer(400, {
        statusCode: 400,
        error: 'Bad Request',
        message: 'scope.resourceGroups: No resource group of that name in the scope.',
        field: 'scope.resourceGroups',
      });
    const dialog = await renderBuilder();
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'Nightly stop' } });
    fireEvent.change(within(dialog).getByLabelText('Resource groups (comma-separated)'), {
      target: { value: 'rg-nowhere' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'SAVE PIPELINE' }));
    expect(await within(dialog).findByText('No resource group of that name in the scope.')).toBeTruthy();
    expect(within(dialog).getByLabelText('Resource groups (comma-separated)').className).toContain(
      'is-invalid',
    );
    expect(onSaved).not.toHaveBeenCalled();
  });

  it('opens a pipeline as saved and puts the edit as a new version', async () => {
    const dialog = await renderBuilder(pipelineId);
    expect(await within(dialog).findByLabelText('Name')).toHaveProperty('value', stopDevVms.name);
    expect(within(dialog).queryByLabelText('Start from')).toBeNull();
    fireEvent.change(within(dialog).getByLabelText('Matches in a row'), { target: { value: '3' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'SAVE PIPELINE' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalledTimes(1));
    expect(calls('PUT', `/api/v1/pipeline/${pipelineId}`).map((call) => call.body)).toEqual([
      { ...stopDevVms, gates: { ...stopDevVms.gates, inARow: 3 } },
    ]);
  });
});
