// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../../lib/query-client';
import { SignUpForm } from './sign-up-form';
import { refuseUnexpectedCall } from '../../../testing/unexpected-fetch';

const reminderText = 'Please check this box before you submit the form.';

function answer(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

let fetchMock: ReturnType<typeof vi.fn>;

function renderSignUp(onSignedUp = vi.fn()) {
  render(
    <QueryClientProvider client={createQueryClient()}>
      <MemoryRouter>
        <SignUpForm onSignedUp={onSignedUp} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return onSignedUp;
}

// Stands in for the widget telling the form it was ticked and solved.
async function solveCaptcha(payload: string) {
  await waitFor(() => expect(document.querySelector('altcha-widget')).not.toBeNull());
  const widget = document.querySelector('altcha-widget')!;
  await act(async () => {
    widget.dispatchEvent(new CustomEvent('statechange', { detail: { state: 'verified', payload } }));
  });
}

beforeEach(() => {
  fetchMock = vi.fn(async (url: string) => {
    if (url === '/api/v1/captcha/config') return answer(200, { provider: 'altcha' });
    if (url === '/api/v1/emailaddress') return answer(200, { message: 'sent' });
    return refuseUnexpectedCall(url);
  });
  vi.stubGlobal('fetch', fetchMock);
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('<SignUpForm>', () => {
  it('asks for the captcha box in a popover and sends nothing while it is not done', async () => {
    renderSignUp();
    fireEvent.input(screen.getByLabelText('Email'), { target: { value: 'new@example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'SIGN UP' }));
    expect(await screen.findByText(reminderText)).toBeTruthy();
    expect(fetchMock.mock.calls.some(([url]) => url === '/api/v1/emailaddress')).toBe(false);
  });

  it('also asks for the captcha when the email is missing', async () => {
    renderSignUp();
    fireEvent.click(screen.getByRole('button', { name: 'SIGN UP' }));
    expect(await screen.findByText(reminderText)).toBeTruthy();
  });

  it('sends the email and the captcha answer as ReCaptchaResponse once the box is done', async () => {
    const onSignedUp = renderSignUp();
    fireEvent.input(screen.getByLabelText('Email'), { target: { value: 'New@Example.com' } });
    await solveCaptcha('solved-payload');
    fireEvent.click(screen.getByRole('button', { name: 'SIGN UP' }));
    await waitFor(() => expect(onSignedUp).toHaveBeenCalled());
    const call = fetchMock.mock.calls.find(([url]) => url === '/api/v1/emailaddress');
    expect(JSON.parse(String(call?.[1]?.body))).toEqual({
      emailaddress: 'new@example.com',
      ReCaptchaResponse: 'solved-payload',
    });
  });

  it('offers to log in or recover when the address is in use, and asks for a fresh captcha', async () => {
    fetchMock.mockImplementation(async (url: string) =>
      url === '/api/v1/captcha/config'
        ? answer(200, { provider: 'altcha' })
        : answer(409, { message: 'That email is already in use.' }),
    );
    renderSignUp();
    fireEvent.input(screen.getByLabelText('Email'), { target: { value: 'used@example.com' } });
    await solveCaptcha('solved-payload');
    fireEvent.click(screen.getByRole('button', { name: 'SIGN UP' }));

    const banner = await screen.findByRole('alert');
    expect(banner.textContent).toContain('That email is already in use.');
    expect(within(banner).getByRole('link', { name: 'Log In' }).getAttribute('href')).toBe('/login');
    expect(
      within(banner)
        .getByRole('link', { name: /recover/ })
        .getAttribute('href'),
    ).toBe('/recover');

    fireEvent.click(screen.getByRole('button', { name: 'SIGN UP' }));
    expect(await screen.findByText(reminderText)).toBeTruthy();
  });
});
