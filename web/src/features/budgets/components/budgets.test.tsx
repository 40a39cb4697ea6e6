// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  budgetBillReadingText,
  type AzureBudget,
  type Budget,
  type BudgetListResponse,
} from '@cloudtrim/contracts/budgets';
import { createQueryClient } from '../../../lib/query-client';
import { Budgets } from './budgets';
import { refuseUnexpectedCall } from '../../../testing/unexpected-fetch';
import { setWindowWidth } from '../../../testing/window-width';

const tenantId = '0b2f5e4c-8a3d-4f61-9c7e-2d1a6b9e0f34';
const subscriptionId = '11111111-2222-3333-4444-555555555555';

function createBudget(index: number, overrides: Partial<Budget> = {}): Budget {
  return {
    Id: `7c9e6679-7425-40de-944b-e07fc1f90a${String(index).padStart(2, '0')}`,
    Name: `Budget ${index}`,
    Scope: { TenantId: tenantId, ResourceGroup: 'web-rg' },
    Amount: 500,
    Period: 'monthly',
    StartDate: '2026-01-01',
    CostType: 'actual',
    Thresholds: [{ Percent: 80, Basis: 'actual', Recipients: { AllTeam: true, Emails: [] } }],
    Currency: 'USD',
    PeriodStart: '2026-11-01',
    PeriodEnd: '2026-11-30',
    Spent: 420,
    Forecast: 610,
    ForecastLow: 560,
    ForecastHigh: 650,
    Days: [
      { Date: '2026-11-01', Actual: 20, Forecast: null },
      { Date: '2026-11-02', Actual: 420, Forecast: null },
      { Date: '2026-11-30', Actual: null, Forecast: 610 },
    ],
    Crossed: [{ Percent: 80, Basis: 'actual', CrossedAt: '2026-11-02T06:00:00.000Z' }],
    Complete: true,
    ...overrides,
  };
}

const azureBudget: AzureBudget = {
  Name: 'contoso-production-monthly',
  TenantId: tenantId,
  SubscriptionId: subscriptionId,
  Amount: 9000,
  TimeGrain: 'Monthly',
  StartDate: '2025-01-01',
  EndDate: null,
  CurrentSpend: 7108.02,
  ForecastSpend: null,
  Currency: 'USD',
};

function answer(status: number, body?: unknown, statusText = ''): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    statusText,
    headers: { 'Content-Type': 'application/json' },
  });
}

let list: BudgetListResponse;
let listAnswer: () => Response;
let saveAnswer: (body: unknown) => Response;
let fetchMock: ReturnType<typeof vi.fn>;

function renderBudgets() {
  render(
    <QueryClientProvider client={createQueryClient()}>
      <Budgets
        tenants={[{ id: tenantId, name: 'Contoso' }]}
        members={[
          { email: 'olga@example.com', name: 'Olga Owner' },
          { email: 'ann@example.com', name: 'Ann Analyst' },
        ]}
      />
    </QueryClientProvider>,
  );
}

function calls(method: string): { url: string; body: unknown }[] {
  return fetchMock.mock.calls
    .filter(([, init]) => ((init as RequestInit | undefined)?.method ?? 'GET') === method)
    .map(([url, init]) => ({
      url: String(url),
      body: JSON.parse(String((init as RequestInit).body ?? 'null')),
    }));
}

let team: { EmailAddress: string; FirstName: string; LastName: string; Status: 'Active'; role: string }[];

beforeEach(() => {
  localStorage.setItem('token', 'a-session-token');
  localStorage.setItem('email', 'demo@cloudtrim.dev');
  team = [];
  list = { Budgets: [createBudget(1)], AzureBudgets: [azureBudget] };
  listAnswer = () => answer(200, list);
  saveAnswer = () => answer(201, createBudget(2));
  fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
    const method = init?.method ?? 'GET';
    if (url === '/api/v1/budget' && method === 'GET') return listAnswer();
    if (url === '/api/v1/budget' && method === 'POST') return saveAnswer(JSON.parse(String(init!.body)));
    if (url.startsWith('/api/v1/budget/') && method === 'PUT')
      return saveAnswer(JSON.parse(String(init!.body)));
    if (url.startsWith('/api/v1/budget/') && method === 'DELETE') return answer(204);
    if (url === '/api/v1/team') return answer(200, team);
    // The scope fields' suggestions: none unless a test answers some.
    if (url.startsWith('/api/v1/scope?')) return answer(200, { Items: [], Page: 0, TotalCount: 0 });
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

describe('<Budgets> list', () => {
  it('lists the team’s budgets with their burn-down, and Azure’s as read-only', async () => {
    renderBudgets();
    const table = await screen.findByRole('table', { name: 'Budgets' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => [...row.querySelectorAll('th, td')].map((cell) => cell.textContent))).toEqual([
      [
        'Budget 1Crossed 80% (actual)',
        'Tenant Contoso · resource group web-rg',
        'Monthly: Nov 1, 2026 to Nov 30, 2026',
        '$500.00',
        '$420.00',
        '$610.00',
        expect.stringContaining('Burn-down of Budget 1'),
        'EDITDELETE',
      ],
      [
        'contoso-production-monthly In Azure',
        `Tenant Contoso · subscription ${subscriptionId}`,
        'Monthly from Jan 1, 2025',
        '$9,000.00',
        '$7,108.02',
        'N/A',
        '79% spent',
        'Read-only',
      ],
    ]);
    expect(
      within(rows[0]!).getByRole('img', {
        name: 'Burn-down of Budget 1: $420.00 spent of $500.00, forecast $610.00 ($560.00 to $650.00) by Nov 30, 2026',
      }),
    ).toBeTruthy();
  });

  it('offers a Viewer no ADD BUDGET, EDIT or DELETE: a Viewer reads only', async () => {
    team = [
      { EmailAddress: 'demo@cloudtrim.dev', FirstName: 'D', LastName: 'U', Status: 'Active', role: 'Viewer' },
    ];
    renderBudgets();
    const table = await screen.findByRole('table', { name: 'Budgets' });
    await waitFor(() => expect(within(table).queryByRole('button', { name: 'Edit Budget 1' })).toBeNull());
    expect(within(table).queryByRole('button', { name: 'Delete Budget 1' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'ADD BUDGET' })).toBeNull();
  });

  it('shows cards on narrow screens', async () => {
    setWindowWidth(865);
    renderBudgets();
    const cards = within(await screen.findByRole('list', { name: 'Budgets' })).getAllByRole('listitem');
    expect(cards).toHaveLength(2);
    expect(within(cards[0]!).getByRole('heading', { name: 'Budget 1 Crossed 80% (actual)' })).toBeTruthy();
    expect(within(cards[1]!).getByText('In Azure')).toBeTruthy();
    expect(
      within(cards[1]!).getByRole('meter', { name: 'contoso-production-monthly: 79% of the budget spent' }),
    ).toBeTruthy();
  });

  it('says on a budget while the bill is still being read', async () => {
    list = { Budgets: [createBudget(1, { Complete: false, Crossed: [] })], AzureBudgets: [] };
    renderBudgets();
    const table = await screen.findByRole('table', { name: 'Budgets' });
    expect(within(table).getAllByRole('row')[1]!.querySelector('th')!.textContent).toBe(
      `Budget 1${budgetBillReadingText}`,
    );
  });

  it('pages more than 30 budgets', async () => {
    list = { Budgets: Array.from({ length: 31 }, (_, index) => createBudget(index + 1)), AzureBudgets: [] };
    renderBudgets();
    const table = await screen.findByRole('table', { name: 'Budgets' });
    expect(within(table).getAllByRole('row')).toHaveLength(31);
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(within(table).getAllByRole('row')).toHaveLength(2);
  });

  it('says so when there are none, and shows a failed load as Error: and its status text', async () => {
    list = { Budgets: [], AzureBudgets: [] };
    renderBudgets();
    expect(
      await screen.findByText('No budgets right now: add one to hear about overspend before the bill does.'),
    ).toBeTruthy();
    cleanup();
    listAnswer = () => answer(500, { message: 'boom' }, 'Internal Server Error');
    renderBudgets();
    expect((await screen.findByRole('alert', {}, { timeout: 5000 })).textContent).toBe(
      'Error: Internal Server Error',
    );
  });
});

describe('<Budgets> form', () => {
  it('names the refused fields, then sends the budget and shows the server’s refusal by its field', async () => {
    renderBudgets();
    fireEvent.click(await screen.findByRole('button', { name: 'ADD BUDGET' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add budget' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'SAVE BUDGET' }));
    expect(within(dialog).getByText('Name is required.')).toBeTruthy();
    expect(within(dialog).getByText('Amount must be a number.')).toBeTruthy();
    expect(calls('POST')).toEqual([]);

    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'Web' } });
    fireEvent.change(within(dialog).getByLabelText('Amount'), { target: { value: '250' } });
    fireEvent.change(within(dialog).getByLabelText('Tenant'), { target: { value: tenantId } });
    fireEvent.click(within(dialog).getByLabelText('Chosen members'));
    fireEvent.click(within(dialog).getByLabelText('Ann Analyst (ann@example.com)'));
    saveAnswer = () =>
      answer(400, {
        statusCode: 400,
        error: 'Bad Request',
        message: 'Not a member of the team: ann@example.com.',
        field: 'Thresholds.0.Recipients.Emails',
      });
    fireEvent.click(within(dialog).getByRole('button', { name: 'SAVE BUDGET' }));
    expect(await within(dialog).findByText('Not a member of the team: ann@example.com.')).toBeTruthy();
    expect(calls('POST')[0]!.body).toMatchObject({
      Name: 'Web',
      Scope: { TenantId: tenantId },
      Amount: 250,
      Period: 'monthly',
      CostType: 'actual',
      Thresholds: [
        { Percent: 100, Basis: 'actual', Recipients: { AllTeam: false, Emails: ['ann@example.com'] } },
      ],
    });

    saveAnswer = () => answer(201, createBudget(2));
    fireEvent.click(within(dialog).getByRole('button', { name: 'SAVE BUDGET' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls('GET').filter((call) => call.url === '/api/v1/budget').length).toBeGreaterThanOrEqual(2);
  });

  it('offers the tenant’s subscriptions by display name, its resource groups and tag values, a typed value kept', async () => {
    const scopeCalls: URLSearchParams[] = [];
    const base = fetchMock.getMockImplementation()!;
    fetchMock.mockImplementation(async (url: string, init?: RequestInit) => {
      if (!url.startsWith('/api/v1/scope?')) return base(url, init);
      const params = new URLSearchParams(url.slice('/api/v1/scope?'.length));
      scopeCalls.push(params);
      const items = {
        subscriptions: [{ Value: subscriptionId, Label: 'Production', TenantId: tenantId }],
        resourceGroups: [{ Value: 'web-rg', Label: 'web-rg' }],
        tagKeys: [{ Value: 'team', Label: 'team' }],
        tagValues: [{ Value: 'data', Label: 'data' }],
        tenants: [],
      }[params.get('kind') as 'tenants'];
      return answer(200, { Items: items, Page: 1, TotalCount: items.length });
    });
    renderBudgets();
    fireEvent.click(await screen.findByRole('button', { name: 'ADD BUDGET' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add budget' });
    fireEvent.change(within(dialog).getByLabelText('Tenant'), { target: { value: tenantId } });
    const subscription = within(dialog).getByLabelText('Subscription') as HTMLInputElement;
    const options = (input: HTMLInputElement) =>
      [...document.getElementById(input.getAttribute('list')!)!.querySelectorAll('option')].map((option) => [
        option.value,
        option.label,
      ]);
    await waitFor(() =>
      expect(options(subscription)).toEqual([[subscriptionId, `Production (${subscriptionId})`]]),
    );
    expect(
      scopeCalls.some(
        (params) => params.get('kind') === 'subscriptions' && params.get('tenantId') === tenantId,
      ),
    ).toBe(true);
    fireEvent.change(subscription, { target: { value: subscriptionId } });
    const group = within(dialog).getByLabelText('Resource group') as HTMLInputElement;
    await waitFor(() => expect(options(group)).toEqual([['web-rg', 'web-rg']]));
    await waitFor(() =>
      expect(
        scopeCalls.some(
          (params) =>
            params.get('kind') === 'resourceGroups' && params.get('subscriptionId') === subscriptionId,
        ),
      ).toBe(true),
    );
    const tag = within(dialog).getByLabelText('Tag (NAME=VALUE)') as HTMLInputElement;
    fireEvent.change(tag, { target: { value: 'team=' } });
    await waitFor(() => expect(options(tag)).toEqual([['team=data', 'data']]));
    // Not yet inventoried: typed as it is.
    fireEvent.change(group, { target: { value: 'rg-not-seen-yet' } });
    expect(group.value).toBe('rg-not-seen-yet');
  });

  it('edits a budget as saved, and deletes one after a confirmation', async () => {
    renderBudgets();
    fireEvent.click(await screen.findByRole('button', { name: 'Edit Budget 1' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit budget Budget 1' });
    expect((within(dialog).getByLabelText('Amount') as HTMLInputElement).value).toBe('500');
    expect((within(dialog).getByLabelText('Resource group') as HTMLInputElement).value).toBe('web-rg');
    fireEvent.change(within(dialog).getByLabelText('Amount'), { target: { value: '900' } });
    saveAnswer = (body) => answer(200, { ...createBudget(1), ...(body as object) });
    fireEvent.click(within(dialog).getByRole('button', { name: 'SAVE BUDGET' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls('PUT')[0]).toMatchObject({
      url: `/api/v1/budget/${createBudget(1).Id}`,
      body: { Amount: 900 },
    });

    fireEvent.click(screen.getByRole('button', { name: 'Delete Budget 1' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete budget' });
    list = { Budgets: [], AzureBudgets: [azureBudget] };
    fireEvent.click(within(confirm).getByRole('button', { name: 'DELETE BUDGET' }));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Edit Budget 1' })).toBeNull());
    expect(calls('DELETE').map((call) => call.url)).toEqual([`/api/v1/budget/${createBudget(1).Id}`]);
  });
});
