export interface BucketDecision {
  readonly isAllowed: boolean;
  /** Whole tokens left after this request. */
  readonly remaining: number;
  /** Seconds until a token is available again, as ARM's Retry-After; 0 when allowed. */
  readonly retryAfterSeconds: number;
}

/** A token bucket that refills continuously, as Azure Resource Manager's throttling does. */
export class TokenBucket {
  private tokens: number;
  private lastRefillMs: number;

  constructor(
    readonly capacity: number,
    readonly refillPerSecond: number,
    private readonly readClockMs: () => number = () => performance.now(),
  ) {
    this.tokens = capacity;
    this.lastRefillMs = readClockMs();
  }

  tryTake(count = 1): BucketDecision {
    this.refill();
    if (this.tokens >= count) {
      this.tokens -= count;
      return { isAllowed: true, remaining: Math.floor(this.tokens), retryAfterSeconds: 0 };
    }
    const missing = count - this.tokens;
    const waitSeconds = this.refillPerSecond > 0 ? missing / this.refillPerSecond : Number.POSITIVE_INFINITY;
    return {
      isAllowed: false,
      remaining: Math.floor(this.tokens),
      retryAfterSeconds: Math.max(1, Math.ceil(waitSeconds)),
    };
  }

  /** Whole tokens available now, without taking any. */
  readRemaining(): number {
    this.refill();
    return Math.floor(this.tokens);
  }

  isFull(): boolean {
    this.refill();
    return this.tokens >= this.capacity;
  }

  private refill(): void {
    const nowMs = this.readClockMs();
    const elapsedSeconds = Math.max(0, nowMs - this.lastRefillMs) / 1000;
    this.lastRefillMs = nowMs;
    this.tokens = Math.min(this.capacity, this.tokens + elapsedSeconds * this.refillPerSecond);
  }
}
