import { parseAnswerText } from '../../../lib/answer-text';
import { runToEnd } from '../../../lib/work-in-slices';
import { sortCloudResourcesInSteps } from '../utils/sort-cloud-resources';
import {
  readCloudResourcesText,
  type CloudResourcesWorkerMessage,
  type CloudResourcesWorkerRequest,
  type ListedCloudResource,
} from './cloud-resources-answer';

// Reads GET /api/v1/resource off the page's thread. The answer is megabytes of JSON for 10,000
// rows: taking it in, parsing it and sorting it cost the page 100 ms and more of long tasks, during
// which no click or key press was handled. Here it costs the page nothing; the sorted rows reach it
// in batches small enough that taking each in is a millisecond or two.

// The worker's own global scope, typed by hand: the app's TypeScript lib is the DOM's.
interface WorkerScope {
  onmessage: ((event: MessageEvent<CloudResourcesWorkerRequest>) => void) | null;
  postMessage(message: CloudResourcesWorkerMessage): void;
}

const rowsPerMessage = 500;
const scope = globalThis as unknown as WorkerScope;

async function readCloudResources({ url, headers }: CloudResourcesWorkerRequest): Promise<void> {
  let response: Response;
  try {
    response = await fetch(url, { headers });
  } catch (error) {
    scope.postMessage({
      kind: 'no-answer',
      message: error instanceof Error ? error.message : 'Failed to fetch',
    });
    return;
  }
  const text = await response.text();
  if (!response.ok) {
    const { status, statusText } = response;
    scope.postMessage({ kind: 'refused', status, statusText, body: parseAnswerText(text) });
    return;
  }
  let rows: readonly ListedCloudResource[];
  try {
    rows = runToEnd(sortCloudResourcesInSteps(readCloudResourcesText(text)));
  } catch (error) {
    scope.postMessage({
      kind: 'unreadable',
      message: error instanceof Error ? error.message : String(error),
    });
    return;
  }
  for (let start = 0; start < rows.length; start += rowsPerMessage) {
    scope.postMessage({ kind: 'rows', rows: rows.slice(start, start + rowsPerMessage) });
  }
  scope.postMessage({ kind: 'end' });
}

scope.onmessage = (event) => void readCloudResources(event.data);
