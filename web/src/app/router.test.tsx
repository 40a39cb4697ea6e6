// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearSession, sessionStorageKeys } from '../lib/session';
import { AppProvider } from './provider';
import { routes } from './router';

function encodeSegment(value: object): string {
  return btoa(JSON.stringify(value)).replace(/=+$/, '');
}

function storeTestSession(exp: number) {
  const token = `${encodeSegment({ alg: 'HS256' })}.${encodeSegment({ email: 'demo@cloudtrim.dev', given_name: 'Demo', exp, sid: 's' })}.sig`;
  localStorage.setItem(sessionStorageKeys.token, token);
  localStorage.setItem(sessionStorageKeys.email, 'demo@cloudtrim.dev');
  localStorage.setItem(sessionStorageKeys.name, 'Demo');
  localStorage.setItem(sessionStorageKeys.exp, String(exp));
}

const inOneHour = () => Math.floor(Date.now() / 1000) + 3600;

function renderAt(path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  render(
    <AppProvider>
      <RouterProvider router={router} />
    </AppProvider>,
  );
  return router;
}

beforeEach(() => {
  vi.stubGlobal('scrollTo', vi.fn());
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response('[]', { status: 200, headers: { 'Content-Type': 'application/json' } })),
  );
});

afterEach(() => {
  cleanup();
  clearSession();
  vi.unstubAllGlobals();
});

describe('routes', () => {
  it('sends a visitor without a token from a signed-in route to /login, keeping returnTo', async () => {
    const router = renderAt('/tenants?view=all');
    // The file's first test also waits for Vite to compile the lazy screens, over a second on a busy machine.
    await screen.findByRole('heading', { name: 'Log In' }, { timeout: 5000 });
    expect(router.state.location.pathname).toBe('/login');
    expect(router.state.location.state).toEqual({ returnTo: '/tenants?view=all' });
  });

  it('clears an expired session before sending the user to /login', async () => {
    storeTestSession(1000);
    const router = renderAt('/home');
    await screen.findByRole('heading', { name: 'Log In' });
    expect(router.state.location.pathname).toBe('/login');
    expect(localStorage.length).toBe(0);
  });

  it('sends a signed-in visitor of the sign-in area to /home', async () => {
    storeTestSession(inOneHour());
    const router = renderAt('/login');
    await screen.findByRole('heading', { name: 'Recent Activity' });
    expect(router.state.location.pathname).toBe('/home');
    expect(screen.getByRole('button', { name: 'Hi, Demo' })).toBeTruthy();
  });

  // Eleven screens, each a chunk Vite compiles on first use: seconds on a busy machine.
  it('opens each signed-in screen on its heading', { timeout: 20_000 }, async () => {
    storeTestSession(inOneHour());
    const router = renderAt('/home');
    const headings: [string, string][] = [
      ['/logs', 'Recent Activity'],
      ['/resources', 'Cloud Resources'],
      ['/pending', 'Pending Automation'],
      ['/team', 'Invite Colleagues'],
      ['/tenants', 'Manage Your Tenants'],
      ['/profile', 'Profile'],
      ['/recommendations', 'Recommendations'],
      ['/automation', 'Automation Pipelines'],
      ['/analysis', 'Cost Analysis & Budget'],
      ['/security', 'Security'],
      ['/sidebar', 'Recent Activity'],
    ];
    for (const [path, heading] of headings) {
      await router.navigate(path);
      expect(await screen.findByRole('heading', { name: heading })).toBeTruthy();
    }
  });

  it('lists Cost Analysis & Budget in the side menu, leading to /analysis', async () => {
    storeTestSession(inOneHour());
    const router = renderAt('/home');
    const link = (await screen.findAllByRole('link', { name: 'Cost Analysis & Budget' }))[0]!;
    fireEvent.click(link);
    expect(await screen.findByRole('heading', { name: 'Cost Analysis & Budget', level: 1 })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/analysis');
    expect(screen.queryByText('COMING SOON')).toBeNull();
  });

  it('lists Security in the side menu, leading to /security', async () => {
    storeTestSession(inOneHour());
    const router = renderAt('/home');
    const link = (await screen.findAllByRole('link', { name: 'Security' }))[0]!;
    fireEvent.click(link);
    expect(await screen.findByRole('heading', { name: 'Security', level: 1 })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/security');
    expect(screen.queryByText('COMING SOON')).toBeNull();
  });

  it('lists Automation Pipelines in the side menu, leading to /automation', async () => {
    storeTestSession(inOneHour());
    const router = renderAt('/home');
    const link = (await screen.findAllByRole('link', { name: 'Automation Pipelines' }))[0]!;
    fireEvent.click(link);
    expect(await screen.findByRole('heading', { name: 'Automation Pipelines', level: 1 })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/automation');
    expect(screen.queryByText('COMING SOON')).toBeNull();
  });

  it('shows the login header for the query', async () => {
    renderAt('/login?expired');
    expect(await screen.findByText('Your session has expired, please login to continue.')).toBeTruthy();
  });

  it('answers an unknown path, signed-in paths with extra segments included, as not valid', async () => {
    const router = renderAt('/nowhere');
    expect(await screen.findByText('This url is not valid.')).toBeTruthy();
    await router.navigate('/home/extra');
    expect(await screen.findByText('This url is not valid.')).toBeTruthy();
  });
});
