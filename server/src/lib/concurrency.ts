import { waitForForeground } from './foreground';

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

// Runs pieces of work side by side and returns once every one has ended: unlike Promise.all, a
// failure does not leave the others running unawaited. The first failure (in the given order) is
// thrown once all have ended.
export async function settleAll(work: readonly Promise<unknown>[]): Promise<void> {
  const outcomes = await Promise.allSettled(work);
  const failure = outcomes.find((outcome) => outcome.status === 'rejected');
  if (failure) throw failure.reason;
}

// Gives the event loop a turn; long synchronous loops call it every few thousand items. On the job
// thread it first gives way to the API's requests in flight (lib/foreground.ts).
export async function yieldToEventLoop(): Promise<void> {
  await waitForForeground();
  await turnEventLoop();
}

// A turn of the event loop that never waits for the API: for a loop inside a transaction holding
// row locks, which the request it would wait for may be waiting on.
export function turnEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

// At most `limit` pieces of work at once across all its callers, the others waiting their turn in
// order: one kind of work (cost pages written by many tenants' syncs) given only part of a shared
// resource (the process's pool), so the rest stays free for other work. With a limit of one it is a
// lane for CPU-bound steps: answers that arrive together are processed one after another, with the
// event loop's turns in between, rather than back to back in one turn. A piece that fails hands its
// place on like one that succeeds.
export class Limiter {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly limit: number) {}

  async run<Result>(work: () => Promise<Result>): Promise<Result> {
    if (this.running < this.limit) this.running += 1;
    // A place is handed on by the piece that ends, so `running` counts it already.
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running -= 1;
    }
  }
}

// Work run in the background, at most `limit` pieces at a time, so a producer (a collection reading
// Azure) goes on while earlier pieces (its writes) are still running. `start` returns once the piece
// has begun: a producer faster than the work waits there. After a piece fails nothing more starts
// (`start` rethrows its error); `finish` waits for every piece begun and rethrows the first failure.
export class BoundedWork {
  private readonly running = new Set<Promise<void>>();
  private failure: { error: unknown } | undefined;

  constructor(private readonly limit: number) {}

  async start(work: () => Promise<void>): Promise<void> {
    while (this.running.size >= this.limit && !this.failure) await Promise.race(this.running);
    if (this.failure) throw this.failure.error;
    const piece: Promise<void> = work()
      .catch((error: unknown) => {
        this.failure ??= { error };
      })
      .finally(() => this.running.delete(piece));
    this.running.add(piece);
  }

  async finish(): Promise<void> {
    while (this.running.size > 0) await Promise.all(this.running);
    if (this.failure) throw this.failure.error;
  }
}

// Runs `work` until it succeeds, at most `attempts` times, waiting `delayMs` × the attempt number
// between tries; the last failure is thrown.
export async function retry<Result>(
  work: () => Promise<Result>,
  { attempts, delayMs }: { attempts: number; delayMs: number },
): Promise<Result> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await work();
    } catch (error) {
      if (attempt >= attempts) throw error;
      if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs * attempt));
    }
  }
}
