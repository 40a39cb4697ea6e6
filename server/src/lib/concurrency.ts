// Runs `work` over `items` with at most `limit` in flight, in order of the items. Each await lets
// the event loop serve other requests between items.
export async function runWithConcurrency<Item>(
  items: readonly Item[],
  limit: number,
  work: (item: Item) => Promise<void>,
): Promise<void> {
  let next = 0;
  const runNext = async (): Promise<void> => {
    while (next < items.length) {
      const item = items[next]!;
      next += 1;
      await work(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, runNext));
}

// Gives the event loop a turn; long synchronous loops call it every few thousand items.
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

// One lane for CPU-bound steps: work queued here runs one piece at a time, in order, so answers that
// arrive together are processed one after another, with the event loop's turns in between, rather
// than back to back in one turn.
export class Lane {
  private tail: Promise<unknown> = Promise.resolve();

  run<Result>(work: () => Promise<Result>): Promise<Result> {
    const result = this.tail.then(work);
    this.tail = result.catch(() => {});
    return result;
  }
}
