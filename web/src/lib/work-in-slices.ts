// Work on thousands of rows, done in one go, holds the page's main thread for tens of milliseconds:
// a long task (over 50 ms) delays any click or key press made meanwhile, which is what Lighthouse's
// Total Blocking Time counts. Such work is written as a generator that yields between small steps;
// runInSlices hands the thread back to the browser whenever a slice has run for sliceMs.

/** A slice stays well under the 50 ms of a long task, even on a slow or busy machine. */
export const sliceMs = 8;

interface PrioritisedScheduler {
  yield?: () => Promise<void>;
}

/**
 * Resolves in a later task, once the browser has had the chance to paint and handle input.
 * scheduler.yield (Chromium) resumes before other queued work; elsewhere a message posted to
 * ourselves runs as the next task, without the 4 ms floor nested timeouts get.
 */
export function yieldToMain(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: PrioritisedScheduler }).scheduler;
  if (typeof scheduler?.yield === 'function') return scheduler.yield();
  if (typeof MessageChannel === 'function') {
    return new Promise((resolve) => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => {
        channel.port1.close();
        resolve();
      };
      channel.port2.postMessage(null);
    });
  }
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** Runs the steps to their end at once, for callers that need the result now. */
export function runToEnd<Result>(steps: Generator<void, Result>): Result {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/**
 * Runs the steps to their end, yielding to the browser whenever a slice has taken sliceMs. An
 * aborted signal stops the work at the next step (the promise rejects with its reason).
 */
export async function runInSlices<Result>(
  steps: Generator<void, Result>,
  { signal }: { signal?: AbortSignal } = {},
): Promise<Result> {
  let sliceStart = performance.now();
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    if (performance.now() - sliceStart >= sliceMs) {
      await yieldToMain();
      signal?.throwIfAborted();
      sliceStart = performance.now();
    }
  }
}
