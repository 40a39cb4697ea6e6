// A resize applied at once as a user's APPLY NOW would: the recommendation an analysis would write,
// its change planned, and the executor run on it. For tests whose subject comes after the resize
// (the guard, the bill, anomalies).
import { eq } from 'drizzle-orm';
import type { Container } from '../../../container';
import type { Db } from '../../../db/database';
import { recommendations, scheduledChanges } from '../../../db/schema';

export interface ResizeToApply {
  teamId: string;
  tenantId: string;
  resourceId: string;
  currentSize: string;
  targetSize: string;
  annualCostSavings: number;
}

// Returns the change's row after the executor ran it.
export async function applyResizeNow(container: Container, db: Db, resize: ResizeToApply) {
  const [recommendation] = await db
    .insert(recommendations)
    .values({
      teamId: resize.teamId,
      tenantId: resize.tenantId,
      resourceId: resize.resourceId,
      kind: 'resize',
      predictionMethod: 'cloudtrim-forecast',
      currentSize: resize.currentSize,
      targetSize: resize.targetSize,
      recommendation: `Resize to ${resize.targetSize}`,
      annualCostSavings: resize.annualCostSavings,
    })
    .returning({ id: recommendations.id });
  await container.automation.service.applyRecommendation(resize.teamId, recommendation!.id, 'now');
  const [change] = await db
    .select()
    .from(scheduledChanges)
    .where(eq(scheduledChanges.recommendationId, recommendation!.id));
  await container.automation.executor.execute(change!.id);
  const [executed] = await db.select().from(scheduledChanges).where(eq(scheduledChanges.id, change!.id));
  return executed!;
}
