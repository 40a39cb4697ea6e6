import { useEffect, useState } from 'react';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { cloudResourcesResponseSchema, type CloudResource } from '@cloudtrim/contracts/resources';
import {
  createAnswerError,
  createNetworkError,
  prepareRequest,
  requestAnswer,
} from '../../../lib/api-client';
import { runInSlices, sliceMs, yieldToMain } from '../../../lib/work-in-slices';
import { sortCloudResourcesInSteps } from '../utils/sort-cloud-resources';
import {
  readListedCloudResources,
  type CloudResourcesWorkerMessage,
  type CloudResourcesWorkerRequest,
  type ListedCloudResource,
} from './cloud-resources-answer';

export type { ListedCloudResource } from './cloud-resources-answer';

// GET /api/v1/resource answers every resource of the team: 10,000 rows and more, megabytes of JSON.
// A worker takes the answer in, parses it, checks that it is a list of rows whose sort fields are
// text (all the first page needs to be chosen, checked by hand: zod's first pass over 10,000 rows
// costs 30 ms even for four fields) and sorts it in SPEC §2's order; the page gets the sorted rows
// in batches, so none of it is a long task on the page's thread. zod takes over 100 ms to check that
// many rows in a page just loaded (its code still cold, and without its compiled parsers, which our
// content security policy forbids), so the contract is checked in two more steps: each page's rows
// before they are shown (parseCloudResourcePage), and the whole answer after the first paint, in
// small slices while the browser is idle, so it never holds a frame up (useCloudResources), turning
// an answer that fails it into the load error it is.

// A slice takes a millisecond or two even while zod's code is still cold; an idle period checks as
// many as fit in the time the browser says it has left, and no more than sliceMs: an idle period
// lasts up to 50 ms, and filling it would make each one a long task that delays a click.
const rowsPerCheckSlice = 50;
const idleMarginMs = 4;

// When the browser has nothing else to do (requestIdleCallback, with the time it has left), or as
// the next task, with time for one slice, where it lacks it.
function whenIdle(run: (hasTimeLeft: () => boolean) => void): () => void {
  if (typeof requestIdleCallback === 'function') {
    const handle = requestIdleCallback((deadline) => {
      const sliceEnd = performance.now() + sliceMs;
      run(() => deadline.timeRemaining() > idleMarginMs && performance.now() < sliceEnd);
    });
    return () => cancelIdleCallback(handle);
  }
  const timer = setTimeout(() => run(() => false));
  return () => clearTimeout(timer);
}

export const cloudResourceQueryKeys = {
  all: ['cloud-resources'] as const,
  list: () => [...cloudResourceQueryKeys.all, 'list'] as const,
};

// The main thread's way, where a page has no workers (or a test runs without them): the answer is
// read in one task, then sorted in slices that yield.
async function readOnMainThread(signal: AbortSignal | undefined): Promise<readonly ListedCloudResource[]> {
  const resources = await requestAnswer('/api/v1/resource', readListedCloudResources, { signal });
  // Reading the answer was a task of its own; the sort starts in the next.
  await yieldToMain();
  return runInSlices(sortCloudResourcesInSteps(resources), { signal });
}

// A worker makes the call, reads the answer and sorts it (cloud-resources.worker.ts); the page only
// takes the sorted rows in, a batch a task.
function readInWorker(signal: AbortSignal | undefined): Promise<readonly ListedCloudResource[]> {
  signal?.throwIfAborted();
  const request = prepareRequest('/api/v1/resource');
  const worker = new Worker(new URL('./cloud-resources.worker.ts', import.meta.url), {
    type: 'module',
    name: 'cloud-resources',
  });
  return new Promise((resolve, reject) => {
    const rows: ListedCloudResource[] = [];
    const settle = (settleWith: () => void) => {
      worker.terminate();
      signal?.removeEventListener('abort', onAbort);
      settleWith();
    };
    const onAbort = () => settle(() => reject(signal?.reason));
    signal?.addEventListener('abort', onAbort, { once: true });
    worker.onmessage = ({ data: message }: MessageEvent<CloudResourcesWorkerMessage>) => {
      switch (message.kind) {
        case 'rows':
          for (const row of message.rows) rows.push(row);
          return;
        case 'end':
          return settle(() => resolve(rows));
        case 'refused':
          return settle(() => reject(createAnswerError(request, message)));
        case 'no-answer':
          return settle(() => reject(createNetworkError(new Error(message.message))));
        case 'unreadable':
          return settle(() => reject(new Error(message.message)));
      }
    };
    worker.onerror = (event) =>
      settle(() => reject(new Error(event.message || 'The Cloud Resources list could not be read.')));
    worker.postMessage({
      url: new URL(request.url, window.location.href).href,
      headers: request.headers,
    } satisfies CloudResourcesWorkerRequest);
  });
}

export function getCloudResources({ signal }: { signal?: AbortSignal } = {}): Promise<
  readonly ListedCloudResource[]
> {
  return typeof Worker === 'function' ? readInWorker(signal) : readOnMainThread(signal);
}

/** The rows of one page checked in full, or null when one fails the contract. */
export function parseCloudResourcePage(rows: readonly ListedCloudResource[]): CloudResource[] | null {
  const result = cloudResourcesResponseSchema.safeParse(rows);
  return result.success ? result.data : null;
}

export function getCloudResourcesQueryOptions() {
  return queryOptions({
    queryKey: cloudResourceQueryKeys.list(),
    queryFn: ({ signal }) => getCloudResources({ signal }),
    // Tenants come and go on another screen and the inventory syncs in the background: re-read on
    // every visit, showing the last list meanwhile.
    staleTime: 0,
  });
}

type CloudResourcesState =
  | { isPending: true; isError: false; error: null; data: undefined }
  | { isPending: false; isError: true; error: Error; data: undefined }
  | { isPending: false; isError: false; error: null; data: readonly ListedCloudResource[] };

export function useCloudResources(): CloudResourcesState {
  const query = useQuery(getCloudResourcesQueryOptions());
  const [failedAnswer, setFailedAnswer] = useState<{ data: unknown; error: Error } | null>(null);
  const { data } = query;

  useEffect(() => {
    if (!data) return;
    let cancelNext = () => {};
    let start = 0;
    const checkWhileIdle = (hasTimeLeft: () => boolean) => {
      do {
        const result = cloudResourcesResponseSchema.safeParse(data.slice(start, start + rowsPerCheckSlice));
        if (!result.success) {
          setFailedAnswer({ data, error: result.error });
          return;
        }
        start += rowsPerCheckSlice;
      } while (start < data.length && hasTimeLeft());
      if (start < data.length) cancelNext = whenIdle(checkWhileIdle);
    };
    // The first slice waits for the frame this render paints in.
    const frame = requestAnimationFrame(() => {
      cancelNext = whenIdle(checkWhileIdle);
    });
    return () => {
      cancelAnimationFrame(frame);
      cancelNext();
    };
  }, [data]);

  if (query.isError) return { isPending: false, isError: true, error: query.error, data: undefined };
  if (query.isPending) return { isPending: true, isError: false, error: null, data: undefined };
  if (failedAnswer?.data === query.data) {
    return { isPending: false, isError: true, error: failedAnswer.error, data: undefined };
  }
  return { isPending: false, isError: false, error: null, data: query.data };
}
