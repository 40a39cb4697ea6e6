// One metric's 1-minute values of a resource, for readers outside the collection (automation's guard
// watching a resized VM).
import { and, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/database';
import { metricPoints, metrics } from '../../db/schema';

// Oldest first.
export async function readMetricValuesSince(
  db: Executor,
  resourceId: string,
  metricName: string,
  since: Date,
): Promise<number[]> {
  const rows = await db
    .select({ value: metricPoints.value })
    .from(metricPoints)
    .innerJoin(metrics, eq(metrics.id, metricPoints.metricId))
    .where(
      and(
        eq(metrics.resourceId, resourceId),
        eq(metrics.name, metricName),
        sql`${metricPoints.time} >= ${since}`,
      ),
    )
    .orderBy(metricPoints.time);
  return rows.map((row) => row.value);
}
