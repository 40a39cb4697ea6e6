// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AlertPreferences } from '@cloudtrim/contracts/alerts';
import { createQueryClient } from '../../../lib/query-client';
import { MailPreferences } from './mail-preferences';
import { refuseUnexpectedCall } from '../../../testing/unexpected-fetch';

function answer(status: number, body: unknown, statusText = ''): Response {
  return new Response(JSON.stringify(body), {
    status,
    statusText,
    headers: { 'Content-Type': 'application/json' },
  });
}

let saved: AlertPreferences;
let putAnswer: (body: AlertPreferences) => Response;
let fetchMock: ReturnType<typeof vi.fn>;

beforeEach(() => {
  localStorage.setItem('token', 'a-session-token');
  saved = { BudgetMails: true, AnomalyMails: true };
  putAnswer = (body) => {
    saved = body;
    return answer(200, saved);
  };
  fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
    if (url !== '/api/v1/alert/preferences') return refuseUnexpectedCall(url, init);
    if (init?.method === 'PUT') return putAnswer(JSON.parse(String(init.body)) as AlertPreferences);
    return answer(200, saved);
  });
  vi.stubGlobal('fetch', fetchMock);
  render(
    <QueryClientProvider client={createQueryClient()}>
      <MailPreferences />
    </QueryClientProvider>,
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('<MailPreferences>', () => {
  it('saves each switch as it is switched', async () => {
    const anomalies = (await screen.findByRole('checkbox', {
      name: 'A cost anomaly is found',
    })) as HTMLInputElement;
    const budgets = screen.getByRole('checkbox', {
      name: 'A budget threshold is crossed',
    }) as HTMLInputElement;
    expect([budgets.checked, anomalies.checked]).toEqual([true, true]);
    fireEvent.click(anomalies);
    await waitFor(() => expect(anomalies.disabled).toBe(false));
    expect(anomalies.checked).toBe(false);
    expect(saved).toEqual({ BudgetMails: true, AnomalyMails: false });
  });

  it('puts a switch back and says why when the save fails', async () => {
    putAnswer = () => answer(500, { message: 'down' }, 'Internal Server Error');
    const budgets = (await screen.findByRole('checkbox', {
      name: 'A budget threshold is crossed',
    })) as HTMLInputElement;
    fireEvent.click(budgets);
    expect((await screen.findByRole('alert')).textContent).toBe('Error: Internal Server Error');
    expect(budgets.checked).toBe(true);
  });
});
