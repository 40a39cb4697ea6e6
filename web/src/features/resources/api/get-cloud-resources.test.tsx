// @vitest-environment jsdom
import { cleanup, renderHook, waitFor } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CloudResource } from '@cloudtrim/contracts/resources';
import { createQueryClient } from '../../../lib/query-client';
import { createCloudResource } from '../testing/cloud-resource.fixture';
import { getCloudResources, parseCloudResourcePage, useCloudResources } from './get-cloud-resources';

function createResource(index: number): CloudResource {
  return createCloudResource(`vm-${index}`);
}

let answer: unknown;

beforeEach(() => {
  localStorage.setItem('token', 'a-session-token');
  vi.stubGlobal(
    'fetch',
    vi.fn(
      async () => new Response(JSON.stringify(answer), { headers: { 'Content-Type': 'application/json' } }),
    ),
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
});

function wrapper({ children }: { children: ReactNode }) {
  return <QueryClientProvider client={createQueryClient()}>{children}</QueryClientProvider>;
}

describe('the Cloud Resources answer', () => {
  it('is refused on arrival when a row has no sound sort fields', async () => {
    answer = [createResource(1), { ...createResource(2), ResourceId: 42 }];
    await expect(getCloudResources()).rejects.toThrow();
  });

  it('has each page checked in full before it is shown', () => {
    expect(parseCloudResourcePage([createResource(1), createResource(2)])).toEqual([
      createResource(1),
      createResource(2),
    ]);
    expect(
      parseCloudResourcePage([createResource(1), { ...createResource(2), LastRead: 'yesterday' }]),
    ).toBeNull();
  });

  it('is checked in full once the first page is out: a row failing the contract turns it into a load error', async () => {
    // Beyond the first page and the first slices the check takes at a time.
    answer = [
      ...Array.from({ length: 140 }, (_, index) => createResource(index)),
      { ...createResource(140), Automated: 7 },
    ];
    const states: ReturnType<typeof useCloudResources>[] = [];
    const { result } = renderHook(
      () => {
        const state = useCloudResources();
        states.push(state);
        return state;
      },
      { wrapper },
    );
    await waitFor(() => expect(result.current.isError).toBe(true));
    // First the list as it arrived, so its first page could paint; then the whole answer's check refused it.
    expect(states.some((state) => state.data?.length === 141)).toBe(true);
    expect(result.current.data).toBeUndefined();
  });

  it('stays as it arrived when every row meets the contract', async () => {
    answer = Array.from({ length: 3 }, (_, index) => createResource(index));
    const { result } = renderHook(() => useCloudResources(), { wrapper });
    await waitFor(() => expect(result.current.data).toHaveLength(3));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(result.current.isError).toBe(false);
    expect(result.current.data?.slice()).toEqual(answer);
  });
});
