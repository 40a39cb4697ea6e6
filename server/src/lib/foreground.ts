// With ROLE=all the API and the job thread share one process's cores. The API counts the requests
// it is serving in memory both threads see (a SharedArrayBuffer); the job thread gives way while
// that count is above zero, at the points where it would pause anyway: before it takes a database
// connection, and where its long loops yield to the event loop (lib/concurrency.ts). So a request
// does not wait for a core behind a collection's next batch or the analysis's next chunk. Each wait
// is bounded: under a steady stream of requests the jobs slow down, they never stop.
export class ForegroundGauge {
  readonly buffer: SharedArrayBuffer;
  private readonly inFlight: Int32Array;

  constructor(buffer: SharedArrayBuffer = new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT)) {
    this.buffer = buffer;
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

// Set in the job thread only; every other thread (the API's, a worker process's) never waits.
let foreground: { gauge: ForegroundGauge; maxWaitMs: number } | undefined;

// The job thread, once at its start: its yields and connections give way to this gauge's requests.
export function giveWayTo(gauge: ForegroundGauge, maxWaitMs: number): void {
  foreground = { gauge, maxWaitMs };
}

export function waitForForeground(): Promise<void> {
  return foreground ? foreground.gauge.giveWay(foreground.maxWaitMs) : Promise.resolve();
}
