import { useEffect, useState } from 'react';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { cloudResourcesResponseSchema, type CloudResource } from '@cloudtrim/contracts/resources';
import { requestAnswer } from '../../../lib/api-client';
import { runInSlices, sliceMs, yieldToMain } from '../../../lib/work-in-slices';
import {
  orderCloudResourcesInSteps,
  type OrderedCloudResources,
  type SortableCloudResource,
} from '../utils/sort-cloud-resources';

// GET /api/v1/resource answers every resource of the team: 10,000 rows and more. zod takes over
// 100 ms to check that many in a page just loaded (its code still cold, and without its compiled
// parsers, which our content security policy forbids), most of SPEC's 150 ms from the answer's
// arrival to the first page painted. So the answer is checked in three steps: on arrival, that it is
// a list of rows whose sort fields are text (all the first page needs to be chosen, and checked by
// hand: zod's first pass over 10,000 rows costs 30 ms even for four fields); each page's rows by the
// contract before they are shown (parseCloudResourcePage); and the whole answer by the contract
// after the first paint, in small slices while the browser is idle, so it never holds a frame up
// (useCloudResources), turning an answer that fails it into the load error it is. The order (SPEC
// §2's) is worked out here too: the server answers the groups in order, which is checked in slices
// between which the browser may paint and answer input; the rows within each group are put in order
// when a page first reads them (utils/sort-cloud-resources.ts), so the first page waits for its own
// groups alone. With 10,000 VMs the answer holds 33,808 rows (their disks and IPs too, 15.8 MB):
// ordering them all first took 40 to 100 ms of the 150.
//
// A worker reading and sorting the answer was tried: it took every long task off the page, but the
// extra copy of 10,000 rows between the threads made the first page paint 60 to 80 ms later
// (median 204 ms against 127 on the same loaded machine), past SPEC's 150 ms.

/** A row of the answer whose sort fields are checked; the rest is checked before it is shown. */
export type ListedCloudResource = SortableCloudResource & Readonly<Record<string, unknown>>;

/** The query's list: the answer in SPEC §2's order, read a page at a time. */
export type ListedCloudResources = OrderedCloudResources<ListedCloudResource>;

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

function isOptionalText(value: unknown): boolean {
  return value === null || typeof value === 'string';
}

function isListedCloudResource(row: unknown): row is ListedCloudResource {
  if (typeof row !== 'object' || row === null) return false;
  const fields = row as Record<string, unknown>;
  return (
    typeof fields.ResourceId === 'string' &&
    isOptionalText(fields.TenantId) &&
    isOptionalText(fields.TenantName) &&
    isOptionalText(fields.ResourceGroup)
  );
}

function readListedCloudResources(answer: unknown): ListedCloudResource[] {
  if (!Array.isArray(answer) || !answer.every(isListedCloudResource)) {
    throw new Error('The Cloud Resources answer is not a list of resources.');
  }
  return answer;
}

export const cloudResourceQueryKeys = {
  all: ['cloud-resources'] as const,
  list: () => [...cloudResourceQueryKeys.all, 'list'] as const,
};

export async function getCloudResources({
  signal,
}: { signal?: AbortSignal } = {}): Promise<ListedCloudResources> {
  const resources = await requestAnswer('/api/v1/resource', readListedCloudResources, { signal });
  // Reading the answer was a task of its own; the order is worked out from the next.
  await yieldToMain();
  return runInSlices(orderCloudResourcesInSteps(resources), { signal });
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
  | { isPending: false; isError: false; error: null; data: ListedCloudResources };

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
