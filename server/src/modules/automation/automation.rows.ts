// The scheduled change's row types, shared by automation's repositories (kept apart so they import
// no repository).
import type { recommendations, scheduledChanges } from '../../db/schema';

export type ChangeKind = (typeof scheduledChanges.$inferSelect)['kind'];
export type ChangeOrigin = (typeof scheduledChanges.$inferSelect)['origin'];
export type ChangeState = (typeof scheduledChanges.$inferSelect)['state'];
export type ChangeRow = typeof scheduledChanges.$inferSelect;
export type RecommendationKind = (typeof recommendations.$inferSelect)['kind'];

export interface ChangeWithResource extends ChangeRow {
  resourceArmId: string;
  resourceName: string;
}
