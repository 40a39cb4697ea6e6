import { and, eq, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { rateLimitHits } from '../../db/schema';

export class ThrottleRepository {
  constructor(private readonly db: Db) {}

  async countHits(bucketKey: string, windowStart: Date): Promise<number> {
    const [row] = await this.db
      .select({ hits: rateLimitHits.hits })
      .from(rateLimitHits)
      .where(and(eq(rateLimitHits.bucketKey, bucketKey), eq(rateLimitHits.windowStart, windowStart)));
    return row?.hits ?? 0;
  }

  async addHit(bucketKey: string, windowStart: Date): Promise<number> {
    const [row] = await this.db
      .insert(rateLimitHits)
      .values({ bucketKey, windowStart, hits: 1 })
      .onConflictDoUpdate({
        target: [rateLimitHits.bucketKey, rateLimitHits.windowStart],
        set: { hits: sql`${rateLimitHits.hits} + 1` },
      })
      .returning({ hits: rateLimitHits.hits });
    return row?.hits ?? 1;
  }

  async clear(bucketKey: string): Promise<void> {
    await this.db.delete(rateLimitHits).where(eq(rateLimitHits.bucketKey, bucketKey));
  }

  async deleteOlderThan(cutoff: Date): Promise<void> {
    await this.db.delete(rateLimitHits).where(lt(rateLimitHits.windowStart, cutoff));
  }
}
