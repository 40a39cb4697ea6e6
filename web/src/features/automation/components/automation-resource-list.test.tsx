// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AutomationLogEntry, Recommendation } from '@cloudtrim/contracts/recommendations';
import type { AutomationResource } from '@cloudtrim/contracts/resources';
import { viewerReadOnlyText, type TeamResponse } from '@cloudtrim/contracts/team';
import { createQueryClient } from '../../../lib/query-client';
import { AutomationResourceList } from './automation-resource-list';
import { automationModalCloseDelayMs } from './automation-modal';
import { refuseUnexpectedCall } from '../../../testing/unexpected-fetch';
import { createTeamOfMe } from '../../../testing/team.fixture';

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
let team: TeamResponse;

function renderList(listed: AutomationResource = resource) {
  render(
    <QueryClientProvider client={createQueryClient()}>
      <AutomationResourceList
        resources={[listed]}
        invalidates={['resource-search']}
        renderMetrics={(shown, onClose) => (
          <button type="button" onClick={onClose}>
            Metrics panel of {shown.ResourceName}
          </button>
        )}
        renderLogsModal={(shown, onHide) => (
          <div role="dialog" aria-label={`Logs of ${shown.ResourceName}`}>
            <button type="button" onClick={onHide}>
              Close logs
            </button>
          </div>
        )}
      />
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

// The modal is a chunk of its own, loaded on first opening.
async function openAutomationModal(): Promise<HTMLElement> {
  fireEvent.click(screen.getByRole('button', { name: /^Automation: / }));
  return screen.findByRole('dialog');
}

beforeEach(() => {
  localStorage.setItem('token', 'a-session-token');
  localStorage.setItem('email', 'demo@cloudtrim.dev');
  team = [];
  automationLog = [logEntry];
  updateAnswer = async () => answer(200, { message: 'Automation settings have been updated' });
  fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
    const parsed = new URL(url, 'http://localhost');
    if (init?.method === 'PUT' && parsed.pathname.startsWith('/api/v1/resource/')) return updateAnswer();
    if (parsed.pathname === '/api/v1/log/recommendation') return answer(200, { Data: [recommendation] });
    if (parsed.pathname === '/api/v1/log/automation') return answer(200, { Data: automationLog });
    // The caller's role (a Viewer cannot change the automation).
    if (parsed.pathname === '/api/v1/team') return answer(200, team);
    return refuseUnexpectedCall(url, init);
  });
  vi.stubGlobal('fetch', fetchMock);
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('<AutomationResourceList> automation modal', () => {
  it('opens on the resource’s saved state and window, and sends them as a query with no body', async () => {
    renderList();
    const dialog = await openAutomationModal();
    expect(within(dialog).getByRole('heading', { name: 'Automation for vm-1' })).toBeTruthy();
    expect(
      within(dialog)
        .getAllByRole('radio')
        .map((radio) => `${radio.parentElement?.textContent}:${String((radio as HTMLInputElement).checked)}`),
    ).toEqual(['Automate:false', 'Recommend Only:true', 'No Change:false']);
    expect((within(dialog).getByLabelText('Maintenance window') as HTMLSelectElement).value).toBe('3');

    fireEvent.click(within(dialog).getByLabelText('Automate'));
    fireEvent.change(within(dialog).getByLabelText('Maintenance window'), { target: { value: '22' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Update' }));

    expect(await within(dialog).findByText('Automation settings have been updated')).toBeTruthy();
    const put = calls().find((call) => call.method === 'PUT');
    expect(put).toEqual({
      path: '/api/v1/resource/subscriptions/s-1/resourceGroups/rg%201/providers/Microsoft.Compute/virtualMachines/vm-1?automated=1&maintenanceWindow=22',
      method: 'PUT',
      body: undefined,
    });
  });

  it('offers the 24 UTC hours as one-hour windows', async () => {
    renderList();
    const dialog = await openAutomationModal();
    const options = within(within(dialog).getByLabelText('Maintenance window')).getAllByRole('option');
    expect(options).toHaveLength(25);
    expect(options[1]?.textContent).toBe('00:00 - 01:00 UTC');
    expect(options[24]?.textContent).toBe('23:00 - 00:00 UTC');
  });

  it('disables Update for No Change without a maintenance time, and while saving', async () => {
    renderList({ ...resource, MaintenanceWindow: null });
    const dialog = await openAutomationModal();
    const update = within(dialog).getByRole('button', { name: 'Update' });
    expect(update.hasAttribute('disabled')).toBe(false);

    fireEvent.click(within(dialog).getByLabelText('No Change'));
    expect(update.hasAttribute('disabled')).toBe(true);

    fireEvent.change(within(dialog).getByLabelText('Maintenance window'), { target: { value: '0' } });
    expect(update.hasAttribute('disabled')).toBe(false);

    let release: () => void = () => {};
    updateAnswer = () =>
      new Promise((resolve) => {
        release = () => resolve(answer(200, { message: 'ok' }));
      });
    fireEvent.click(update);
    await waitFor(() => expect(within(dialog).getByText('Saving')).toBeTruthy());
    const saving = within(dialog).getByText('Saving').closest('button')!;
    expect(saving.hasAttribute('disabled')).toBe(true);
    release();
    expect(await within(dialog).findByText('Automation settings have been updated')).toBeTruthy();
  });

  it('closes about 2.5 s after a successful update', async () => {
    renderList();
    const dialog = await openAutomationModal();
    // Timed from the click, which comes before the message: however late a loaded machine sees the
    // message appear, the dialog must stay the whole delay after the click.
    const clickedAt = Date.now();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Update' }));
    await within(dialog).findByText('Automation settings have been updated');

    const stillOpenAt = clickedAt + automationModalCloseDelayMs - 500;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, stillOpenAt - Date.now())));
    expect(screen.queryByRole('dialog')).not.toBeNull();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull(), { timeout: 3000 });
    expect(Date.now() - clickedAt).toBeGreaterThanOrEqual(automationModalCloseDelayMs);
  });

  it('Cancel restores the original values and sends nothing', async () => {
    renderList();
    let dialog = await openAutomationModal();
    fireEvent.click(within(dialog).getByLabelText('No Change'));
    fireEvent.change(within(dialog).getByLabelText('Maintenance window'), { target: { value: '' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));

    dialog = await openAutomationModal();
    expect((within(dialog).getByLabelText('Recommend Only') as HTMLInputElement).checked).toBe(true);
    expect((within(dialog).getByLabelText('Maintenance window') as HTMLSelectElement).value).toBe('3');
    expect(calls().some((call) => call.method === 'PUT')).toBe(false);
  });

  it('shows a Viewer the saved state and window, with nothing to change and no Update', async () => {
    team = createTeamOfMe('Viewer');
    renderList();
    const dialog = await openAutomationModal();
    expect(await within(dialog).findByText(viewerReadOnlyText)).toBeTruthy();
    expect((within(dialog).getByLabelText('Recommend Only') as HTMLInputElement).disabled).toBe(true);
    expect((within(dialog).getByLabelText('Maintenance window') as HTMLSelectElement).disabled).toBe(true);
    expect(within(dialog).queryByRole('button', { name: 'Update' })).toBeNull();
  });

  it('shows SPEC’s failure text when the update fails, and stays open', async () => {
    updateAnswer = async () => answer(500, { message: 'boom' }, 'Internal Server Error');
    renderList();
    const dialog = await openAutomationModal();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Update' }));
    expect(
      await within(dialog).findByText('There was an error in updating automation settings'),
    ).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Update' }).hasAttribute('disabled')).toBe(false);
  });
});

describe('<AutomationResourceList> panels of other features', () => {
  it('shows the metrics panel in a card it expands, and closes it from the panel', () => {
    renderList();
    fireEvent.click(screen.getByRole('button', { name: 'METRICS' }));
    fireEvent.click(screen.getByRole('button', { name: 'Metrics panel of vm-1' }));
    expect(screen.queryByRole('button', { name: 'Metrics panel of vm-1' })).toBeNull();
  });

  it('opens the LOGS modal for that resource, and hides it when asked', () => {
    renderList();
    fireEvent.click(screen.getByRole('button', { name: 'LOGS for vm-1' }));
    fireEvent.click(within(screen.getByRole('dialog', { name: 'Logs of vm-1' })).getByRole('button'));
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
