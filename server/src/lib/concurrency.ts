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
