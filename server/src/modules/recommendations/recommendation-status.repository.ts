// A recommendation's status as automation moves it (applied, held), in the caller's transaction: the
// recommendation table's rows are written in modules/recommendations only.
import { and, eq } from 'drizzle-orm';
import type { Executor } from '../../db/database';
import { recommendations } from '../../db/schema';

// Marked applied only while open: one superseded meanwhile stays superseded.
export async function setRecommendationStatus(
  db: Executor,
  id: number,
  status: 'applied' | 'held',
): Promise<void> {
  await db
    .update(recommendations)
    .set({ status })
    .where(
      and(eq(recommendations.id, id), status === 'applied' ? eq(recommendations.status, 'open') : undefined),
    );
}
