// Fixed-window limits kept in PostgreSQL, so every API process sees the same counts.
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
    return (await this.repository.countHits(bucketKey, this.windowStart(rule))) >= rule.limit;
  }

  // Records one hit and tells whether the bucket is now over its limit.
  async hit(bucketKey: string, rule: ThrottleRule): Promise<boolean> {
    return (await this.repository.addHit(bucketKey, this.windowStart(rule))) > rule.limit;
  }

  clear(bucketKey: string): Promise<void> {
    return this.repository.clear(bucketKey);
  }

  purgeExpired(): Promise<void> {
    return this.repository.deleteOlderThan(new Date(this.now().getTime() - 2 * 86_400_000));
  }

  private windowStart(rule: ThrottleRule): Date {
    const windowMs = rule.windowSeconds * 1000;
    return new Date(Math.floor(this.now().getTime() / windowMs) * windowMs);
  }
}
