// @vitest-environment jsdom
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../lib/api-client';
import { clearSession, sessionStorageKeys } from '../../../lib/session';
import { getStatus401, setStatus401 } from '../../../lib/status-401';
import type { CloudResourcesWorkerMessage, CloudResourcesWorkerRequest } from './cloud-resources-answer';
import { getCloudResources } from './get-cloud-resources';

// The worker's module runs here on the test's own global scope: its onmessage is the worker's, and
// what it posts goes to the page side through a Worker stand-in, so both ends are the real code.
type WorkerHandler = (event: { data: CloudResourcesWorkerRequest }) => void;
const workerScope = globalThis as unknown as { onmessage: WorkerHandler | null };
let workerHandler: WorkerHandler;
let posted: CloudResourcesWorkerMessage[] = [];
const pageSides: FakeWorker[] = [];

class FakeWorker {
  onmessage: ((event: { data: CloudResourcesWorkerMessage }) => void) | null = null;
  onerror: ((event: { message: string }) => void) | null = null;
  isTerminated = false;

  constructor() {
    pageSides.push(this);
  }

  postMessage(request: CloudResourcesWorkerRequest) {
    workerHandler({ data: request });
  }

  terminate() {
    this.isTerminated = true;
  }
}

function createRow(name: string) {
  return {
    ResourceId: `/subscriptions/s/resourceGroups/rg/providers/Microsoft.Compute/virtualMachines/${name}`,
    ResourceType: 'Microsoft.Compute/virtualMachines',
    SubscriptionName: 'Production',
    ResourceGroup: 'rg',
    TenantId: '1',
    TenantName: 'Contoso',
    LastRead: null,
    Automated: 0,
    ActiveHoursStart: null,
    ActiveHoursEnd: null,
  };
}

const fetchMock = vi.fn<typeof fetch>();

beforeAll(async () => {
  await import('./cloud-resources.worker');
  workerHandler = workerScope.onmessage!;
  workerScope.onmessage = null;
});

beforeEach(() => {
  posted = [];
  pageSides.length = 0;
  localStorage.setItem(sessionStorageKeys.token, 'stored-token');
  vi.stubGlobal('fetch', fetchMock);
  vi.stubGlobal('Worker', FakeWorker);
  vi.stubGlobal('postMessage', (message: CloudResourcesWorkerMessage) => {
    posted.push(message);
    pageSides.at(-1)?.onmessage?.({ data: message });
  });
});

afterEach(() => {
  fetchMock.mockReset();
  vi.unstubAllGlobals();
  clearSession();
  setStatus401(false);
});

describe('the Cloud Resources worker', () => {
  it('makes the call as the API client would, and hands the page the sorted rows in batches', async () => {
    const names = Array.from({ length: 1200 }, (_, index) => `vm-${String(1200 - index).padStart(4, '0')}`);
    fetchMock.mockResolvedValue(new Response(JSON.stringify(names.map(createRow))));

    const resources = await getCloudResources();

    expect(resources.map((resource) => resource.ResourceId.split('/').at(-1))).toEqual([...names].reverse());
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(new URL(String(url)).pathname).toBe('/api/v1/resource');
    expect(init?.headers).toMatchObject({ Authorization: 'Bearer stored-token', Accept: 'application/json' });
    const batches = posted.filter((message) => message.kind === 'rows');
    expect(batches.length).toBeGreaterThan(1);
    expect(batches.every((message) => message.rows.length <= 500)).toBe(true);
    expect(posted.at(-1)).toEqual({ kind: 'end' });
    expect(pageSides.at(-1)?.isTerminated).toBe(true);
  });

  it('turns a 401 on the stored session into the API client’s error, setting Status401', async () => {
    fetchMock.mockResolvedValue(
      new Response(JSON.stringify({ message: 'Session expired.' }), {
        status: 401,
        statusText: 'Unauthorized',
      }),
    );
    const failure = await getCloudResources().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure).toMatchObject({ status: 401, message: 'Session expired.' });
    expect(getStatus401()).toBe(true);
  });

  it('reports a call that got no answer as a network failure', async () => {
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    await expect(getCloudResources()).rejects.toMatchObject({ status: null, message: 'Failed to fetch' });
  });

  it('refuses an answer whose rows have no sound sort fields', async () => {
    fetchMock.mockResolvedValue(new Response(JSON.stringify([createRow('a'), { ResourceId: 42 }])));
    await expect(getCloudResources()).rejects.toThrow('not a list of resources');
    expect(posted.map((message) => message.kind)).toEqual(['unreadable']);
  });

  it('stops the worker when the query is cancelled', async () => {
    fetchMock.mockReturnValue(new Promise<Response>(() => {}));
    const controller = new AbortController();
    const reading = getCloudResources({ signal: controller.signal });
    controller.abort(new DOMException('Left the page', 'AbortError'));
    await expect(reading).rejects.toThrow('Left the page');
    expect(pageSides.at(-1)?.isTerminated).toBe(true);
  });
});
