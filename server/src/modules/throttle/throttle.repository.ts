import { and, eq, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { rateLimitHits } from '../../db/schema';

export interface WindowPair {
  previous: Date;
  current: Date;
}

export interface WindowHits {
  previous: number;
  current: number;
}

export class ThrottleRepository {
  constructor(private readonly db: Db) {}

  // Adds one hit to the current window and answers both windows' hits, in one round trip.
  async addHit(bucketKey: string, windows: WindowPair): Promise<WindowHits> {
    const result = await this.db.execute<{ current: number; previous: number | null }>(sql`
      with added as (
        insert into ${rateLimitHits} (bucket_key, window_start, hits)
        values (${bucketKey}, ${windows.current.toISOString()}::timestamptz, 1)
        on conflict (bucket_key, window_start) do update set hits = ${rateLimitHits}.hits + 1
        returning hits
      )
      select (select hits from added) as current,
             (select hits from ${rateLimitHits}
               where bucket_key = ${bucketKey} and window_start = ${windows.previous.toISOString()}::timestamptz) as previous
    `);
    const [row] = result.rows;
    return { current: Number(row?.current ?? 1), previous: Number(row?.previous ?? 0) };
  }

  async removeHit(bucketKey: string, windows: WindowPair): Promise<void> {
    await this.db
      .update(rateLimitHits)
      .set({ hits: sql`greatest(${rateLimitHits.hits} - 1, 0)` })
      .where(and(eq(rateLimitHits.bucketKey, bucketKey), eq(rateLimitHits.windowStart, windows.current)));
  }

  async clear(bucketKey: string): Promise<void> {
    await this.db.delete(rateLimitHits).where(eq(rateLimitHits.bucketKey, bucketKey));
  }

  async deleteOlderThan(cutoff: Date): Promise<void> {
    await this.db.delete(rateLimitHits).where(lt(rateLimitHits.windowStart, cutoff));
  }
}
