// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SecurityFinding, SecurityFindingDetail, SecuritySummary } from '@cloudtrim/contracts/security';
import { viewerReadOnlyText } from '@cloudtrim/contracts/team';
import { createQueryClient } from '../../../lib/query-client';
import { sessionStorageKeys } from '../../../lib/session';
import { SecurityPage } from './security-page';
import { setWindowWidth } from '../../../testing/window-width';

const tenantId = '0b2f5e4c-8a3d-4f61-9c7e-2d1a6b9e0f34';
const findingId = '6f1c1d5e-3a53-4a8e-9d4e-0c7c1f2a9b10';

const finding: SecurityFinding = {
  Id: findingId,
  CheckId: 'network-ssh-internet',
  Title: 'SSH (TCP 22) is open to the internet',
  Severity: 'critical',
  Status: 'open',
  ResourceId: '/subscriptions/s/resourceGroups/web-rg/providers/Microsoft.Compute/virtualMachines/web-1',
  ResourceName: 'web-1',
  TenantId: tenantId,
  SubscriptionId: 's',
  Evidence:
    "TCP port 22 is open to the internet: allowed by rule 'allow-ssh' (priority 300) of NSG 'web-1-nsg'.",
  Remediation: {
    Text: 'Deny TCP 22 from the internet.',
    Command: 'az network nsg rule update --access Deny',
  },
  Cis: '6.2',
  FirstSeen: '2026-11-26T10:00:00.000Z',
  LastSeen: '2026-11-27T10:00:00.000Z',
  ResolvedAt: null,
  Mute: null,
};

const summary: SecuritySummary = {
  Counts: { critical: 1, high: 0, medium: 0, low: 0 },
  Open: 1,
  Muted: 0,
  Resolved: 0,
  LastScanAt: '2026-11-27T10:00:00.000Z',
  Subscriptions: [
    {
      TenantId: tenantId,
      SubscriptionId: 's',
      DisplayName: 'Production',
      IsDefenderEnabled: true,
      Score: { Current: 40, Max: 58, Percentage: 0.69 },
      Trend: [{ Date: '2026-11-27', Percentage: 0.69 }],
    },
    {
      TenantId: tenantId,
      SubscriptionId: 'd',
      DisplayName: 'Development',
      IsDefenderEnabled: false,
      Score: null,
      Trend: [],
    },
  ],
};

function answer(status: number, body?: unknown): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

let findingsAnswer: () => Response;
let mute: SecurityFinding['Mute'];
let fetchMock: ReturnType<typeof vi.fn>;
let myRole: 'Owner' | 'Member' | 'Viewer';

function renderPage() {
  render(
    <QueryClientProvider client={createQueryClient()}>
      <SecurityPage tenants={[{ id: tenantId, name: 'Contoso' }]} />
    </QueryClientProvider>,
  );
}

beforeEach(() => {
  localStorage.setItem(sessionStorageKeys.token, 'a-session-token');
  localStorage.setItem(sessionStorageKeys.email, 'sam@example.com');
  myRole = 'Member';
  setWindowWidth(1200);
  findingsAnswer = () => answer(200, { Data: [finding], Total: 1 });
  mute = null;
  fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
    const method = init?.method ?? 'GET';
    if (url === '/api/v1/security/summary') return answer(200, summary);
    if (url === '/api/v1/team') {
      return answer(200, [
        {
          EmailAddress: 'sam@example.com',
          FirstName: 'Sam',
          LastName: 'Lee',
          Status: 'Active',
          role: myRole,
        },
      ]);
    }
    if (url === '/api/v1/security/checks') return answer(200, { Data: [] });
    if (url.startsWith('/api/v1/security/finding?')) return findingsAnswer();
    if (url === `/api/v1/security/finding/${findingId}` && method === 'GET') {
      return answer(200, {
        ...finding,
        History: [{ Kind: 'opened', At: finding.FirstSeen, By: null, Note: null }],
      });
    }
    if (url === `/api/v1/security/finding/${findingId}/mute` && method === 'POST') {
      const body = JSON.parse(String(init!.body)) as { Reason: string; Until: string };
      mute = { Reason: body.Reason, Until: body.Until, By: 'sam@example.com', RuleId: null };
      const detail: SecurityFindingDetail = { ...finding, Status: 'muted', Mute: mute, History: [] };
      return answer(200, detail);
    }
    return answer(404, { message: 'unexpected call' });
  });
  vi.stubGlobal('fetch', fetchMock);
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('<SecurityPage>', () => {
  it('shows each score, Defender off where it is, counts and the findings', async () => {
    renderPage();
    expect(await screen.findByText('69%')).toBeTruthy();
    expect(screen.getByText('Defender for Cloud is off for this subscription')).toBeTruthy();
    expect(screen.getByText('Critical: 1')).toBeTruthy();
    const table = await screen.findByRole('table');
    expect(within(table).getByText('web-1')).toBeTruthy();
    expect(within(table).getByText('Contoso')).toBeTruthy();
  });

  it('filters and sorts through the query', async () => {
    renderPage();
    await screen.findByRole('table');
    fireEvent.change(screen.getByLabelText('Severity'), { target: { value: 'critical' } });
    await waitFor(() =>
      expect(fetchMock.mock.calls.some(([url]) => String(url).includes('Severity=critical'))).toBe(true),
    );
    fireEvent.click(screen.getByRole('button', { name: 'RESOURCE' }));
    await waitFor(() =>
      expect(fetchMock.mock.calls.some(([url]) => String(url).includes('Sort=ResourceName&Order=asc'))).toBe(
        true,
      ),
    );
  });

  it('opens a finding with its evidence and remediation, refuses a short reason and mutes', async () => {
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: finding.Title }));
    const dialog = await screen.findByRole('dialog');
    expect(await within(dialog).findByText(finding.Evidence)).toBeTruthy();
    expect(within(dialog).getByText('az network nsg rule update --access Deny')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Reason'), { target: { value: 'no' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'MUTE' }));
    expect(await within(dialog).findByText('Say why, in 3 to 500 characters.')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Reason'), {
      target: { value: 'Jump host, closing Friday' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'MUTE' }));
    await waitFor(() => expect(mute).not.toBeNull());
    expect(mute?.Reason).toBe('Jump host, closing Friday');
    expect(mute?.Until).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  }, 20_000);

  it('says so when nothing is found, and shows cards on a narrow screen', async () => {
    findingsAnswer = () => answer(200, { Data: [], Total: 0 });
    renderPage();
    expect(
      await screen.findByText('No findings match: nothing exposed here that the checks can see.'),
    ).toBeTruthy();
    cleanup();
    findingsAnswer = () => answer(200, { Data: [finding], Total: 1 });
    setWindowWidth(400);
    renderPage();
    expect(await screen.findByRole('button', { name: finding.Title })).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('shows an error when the findings cannot load', async () => {
    findingsAnswer = () => answer(500, { message: 'boom' });
    renderPage();
    expect(await screen.findByRole('alert')).toBeTruthy();
  });

  it('offers a Viewer no scan and no mute: a Viewer reads only', async () => {
    myRole = 'Viewer';
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: finding.Title }));
    const dialog = await screen.findByRole('dialog');
    expect(await within(dialog).findByText(`Not muted. ${viewerReadOnlyText}`)).toBeTruthy();
    expect(within(dialog).queryByRole('button', { name: 'MUTE' })).toBeNull();
    expect(within(dialog).queryByLabelText('Reason')).toBeNull();
    expect(screen.queryByRole('button', { name: 'SCAN NOW', hidden: false })).toBeNull();
  });
});
