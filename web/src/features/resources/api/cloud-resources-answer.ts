import { parseAnswerText } from '../../../lib/answer-text';
import type { SortableCloudResource } from '../utils/sort-cloud-resources';

// What both readers of GET /api/v1/resource share: the main thread's (get-cloud-resources.ts) and
// the worker's (cloud-resources.worker.ts). Nothing here imports zod or the app's state, so the
// worker stays small.

/**
 * A row of the answer whose sort fields are checked; the rest is checked before it is shown. The
 * query's list holds them in SPEC §2's order.
 */
export type ListedCloudResource = SortableCloudResource & Readonly<Record<string, unknown>>;

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

export function readListedCloudResources(answer: unknown): ListedCloudResource[] {
  if (!Array.isArray(answer) || !answer.every(isListedCloudResource)) {
    throw new Error('The Cloud Resources answer is not a list of resources.');
  }
  return answer;
}

/** What the page asks the worker: the call as the API client would make it. */
export interface CloudResourcesWorkerRequest {
  url: string;
  headers: Record<string, string>;
}

/** What the worker answers: the sorted rows in batches, then 'end'; or why there are none. */
export type CloudResourcesWorkerMessage =
  | { kind: 'rows'; rows: ListedCloudResource[] }
  | { kind: 'end' }
  | { kind: 'refused'; status: number; statusText: string; body: unknown }
  | { kind: 'no-answer'; message: string }
  | { kind: 'unreadable'; message: string };

/** The rows of an answer's text checked for their sort fields, or why they cannot be listed. */
export function readCloudResourcesText(text: string): ListedCloudResource[] {
  return readListedCloudResources(parseAnswerText(text));
}
