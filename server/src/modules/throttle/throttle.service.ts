// Sliding-window limits kept in PostgreSQL, so every API process sees the same counts.
// Hits are stored per fixed window; a bucket's count is its current window's hits plus the
// previous window's, weighted by how much of that window still lies inside the sliding one.
// A plain fixed window would let twice the limit through on either side of a boundary.
import type { ThrottleRepository } from './throttle.repository';

export interface ThrottleRule {
  limit: number;
  windowSeconds: number;
}

export class ThrottleService {
  constructor(
    private readonly repository: ThrottleRepository,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async isOverLimit(bucketKey: string, rule: ThrottleRule): Promise<boolean> {
    const window = this.window(rule);
    const current = await this.repository.countHits(bucketKey, window.start);
    return (await this.slidingCount(bucketKey, window, current)) >= rule.limit;
  }

  // Records one hit and tells whether the bucket is now over its limit.
  async hit(bucketKey: string, rule: ThrottleRule): Promise<boolean> {
    const window = this.window(rule);
    const current = await this.repository.addHit(bucketKey, window.start);
    return (await this.slidingCount(bucketKey, window, current)) > rule.limit;
  }

  clear(bucketKey: string): Promise<void> {
    return this.repository.clear(bucketKey);
  }

  purgeExpired(): Promise<void> {
    return this.repository.deleteOlderThan(new Date(this.now().getTime() - 2 * 86_400_000));
  }

  private async slidingCount(bucketKey: string, window: Window, current: number): Promise<number> {
    const previous = await this.repository.countHits(
      bucketKey,
      new Date(window.start.getTime() - window.lengthMs),
    );
    // Rounded up, so the estimate errs on the side of refusing.
    return current + Math.ceil(previous * (1 - window.elapsedFraction));
  }

  private window(rule: ThrottleRule): Window {
    const lengthMs = rule.windowSeconds * 1000;
    const nowMs = this.now().getTime();
    const startMs = Math.floor(nowMs / lengthMs) * lengthMs;
    return { start: new Date(startMs), lengthMs, elapsedFraction: (nowMs - startMs) / lengthMs };
  }
}

interface Window {
  start: Date;
  lengthMs: number;
  elapsedFraction: number;
}
