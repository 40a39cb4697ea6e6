// With ROLE=all the API and the job thread share one process's cores. The API counts the requests
// it is serving in memory both threads see (a SharedArrayBuffer); the job thread gives way while
// that count is above zero, at the points where it would pause anyway: before it takes a database
// connection, and where its long loops yield to the event loop (lib/concurrency.ts). So a request
// does not wait for a core behind a collection's next batch or the analysis's next chunk. The waits
// are bounded (BackgroundYield): under a steady stream of requests the jobs slow down, at most by
// half, and never stop.
export class ForegroundGauge {
  private readonly inFlight: Int32Array;

  constructor(readonly buffer = new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT)) {
    this.inFlight = new Int32Array(buffer);
  }

  // The API thread: a request began.
  enter(): void {
    Atomics.add(this.inFlight, 0, 1);
  }

  // The API thread: a request's response finished or its connection closed.
  leave(): void {
    if (Atomics.sub(this.inFlight, 0, 1) === 1) Atomics.notify(this.inFlight, 0);
  }

  // The job thread: resolves once no request is in flight, or after maxWaitMs.
  async giveWay(maxWaitMs: number): Promise<void> {
    const deadline = performance.now() + maxWaitMs;
    for (;;) {
      const count = Atomics.load(this.inFlight, 0);
      const remaining = deadline - performance.now();
      if (count <= 0 || remaining <= 0) return;
      const wait = Atomics.waitAsync(this.inFlight, 0, count, remaining);
      if (wait.async) await wait.value;
    }
  }
}

// The job thread's way of giving way (set in that thread only; every other thread, the API's or a
// worker process's, never waits). Each wait is bounded, and so is their sum: waiting earns no credit,
// running earns it at the same pace, so under a steady stream of requests the jobs still get half
// the time they would have had (a 10,000-VM analysis yields once a VM: without the bound, 10,000
// waits of 20 ms). A quiet API leaves the credit full, so an occasional request is always given way.
class BackgroundYield {
  private creditMs: number;
  private lastAt = performance.now();

  constructor(
    private readonly gauge: ForegroundGauge,
    private readonly maxWaitMs: number,
    private readonly maxCreditMs: number,
  ) {
    this.creditMs = maxCreditMs;
  }

  async wait(): Promise<void> {
    const startedAt = performance.now();
    this.creditMs = Math.min(this.maxCreditMs, this.creditMs + (startedAt - this.lastAt));
    const bound = Math.min(this.maxWaitMs, this.creditMs);
    if (bound > 0) await this.gauge.giveWay(bound);
    this.lastAt = performance.now();
    this.creditMs -= this.lastAt - startedAt;
  }
}

let backgroundYield: BackgroundYield | undefined;

// The job thread, once at its start: its yields and connections give way to this gauge's requests,
// `maxWaitMs` at most each time and with `maxCreditMs` of waits in hand.
export function giveWayTo(gauge: ForegroundGauge, maxWaitMs: number, maxCreditMs: number): void {
  backgroundYield = new BackgroundYield(gauge, maxWaitMs, maxCreditMs);
}

export function waitForForeground(): Promise<void> {
  return backgroundYield ? backgroundYield.wait() : Promise.resolve();
}
