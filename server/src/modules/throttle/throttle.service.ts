// Sliding-window limits kept in PostgreSQL, so every API process sees the same counts.
// Hits are stored per fixed window; a bucket's count is its current window's hits plus the
// previous window's, weighted by how much of that window still lies inside the sliding one.
// A plain fixed window would let twice the limit through on either side of a boundary.
import type { ThrottleRepository, WindowHits, WindowPair } from './throttle.repository';
import { dayMs } from '../../lib/time';

export interface ThrottleRule {
  limit: number;
  windowSeconds: number;
}

export class ThrottleService {
  constructor(
    private readonly repository: ThrottleRepository,
    private readonly now: () => Date = () => new Date(),
  ) {}

  // Records one attempt and tells whether the bucket is now over its limit. The attempt is counted
  // before it is made, in one statement, so parallel attempts cannot all pass a check that each
  // ran before the others counted: call this first, and refuse when it answers true.
  async hit(bucketKey: string, rule: ThrottleRule): Promise<boolean> {
    const window = this.window(rule);
    return slidingCount(await this.repository.addHit(bucketKey, window), window) > rule.limit;
  }

  // Takes back one attempt counted by hit that turned out to be legitimate (a successful login
  // must not use up its network's allowance).
  giveBack(bucketKey: string, rule: ThrottleRule): Promise<void> {
    return this.repository.removeHit(bucketKey, this.window(rule));
  }

  clear(bucketKey: string): Promise<void> {
    return this.repository.clear(bucketKey);
  }

  purgeExpired(): Promise<void> {
    return this.repository.deleteOlderThan(new Date(this.now().getTime() - 2 * dayMs));
  }

  private window(rule: ThrottleRule): Window {
    const lengthMs = rule.windowSeconds * 1000;
    const nowMs = this.now().getTime();
    const startMs = Math.floor(nowMs / lengthMs) * lengthMs;
    return {
      current: new Date(startMs),
      previous: new Date(startMs - lengthMs),
      elapsedFraction: (nowMs - startMs) / lengthMs,
    };
  }
}

interface Window extends WindowPair {
  elapsedFraction: number;
}

// Rounded up, so the estimate errs on the side of refusing.
function slidingCount(hits: WindowHits, window: Window): number {
  return hits.current + Math.ceil(hits.previous * (1 - window.elapsedFraction));
}
