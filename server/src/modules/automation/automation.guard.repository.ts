// The guard's watch of resized-down VMs: the changes it watches, the end of a watch, the rollbacks it
// made before.
import { and, eq, isNotNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { resources, scheduledChanges } from '../../db/schema';
import type { ChangeWithResource } from './automation.rows';

export class GuardWatchRepository {
  constructor(private readonly db: Db) {}

  // Resized-down VMs still watched by the guard.
  async listGuardedChanges(at: Date): Promise<ChangeWithResource[]> {
    const rows = await this.db
      .select({ change: scheduledChanges, resourceArmId: resources.armId, resourceName: resources.name })
      .from(scheduledChanges)
      .innerJoin(resources, eq(resources.id, scheduledChanges.resourceId))
      .where(
        and(
          isNotNull(scheduledChanges.guardUntil),
          sql`${scheduledChanges.guardUntil} > ${at}`,
          eq(scheduledChanges.state, 'succeeded'),
        ),
      );
    return rows.map((row) => ({
      ...row.change,
      resourceArmId: row.resourceArmId,
      resourceName: row.resourceName,
    }));
  }

  // Ends the guard's watch of a resize; false when it had ended already (another guard run).
  async endGuard(id: number): Promise<boolean> {
    const ended = await this.db
      .update(scheduledChanges)
      .set({ guardUntil: null })
      .where(and(eq(scheduledChanges.id, id), isNotNull(scheduledChanges.guardUntil)))
      .returning({ id: scheduledChanges.id });
    return ended.length > 0;
  }

  // Rollbacks the guard has made of this VM before (a second one hardens the hold).
  async countRollbacks(resourceId: string): Promise<number> {
    const [row] = await this.db
      .select({ count: sql<number>`count(*)::int` })
      .from(scheduledChanges)
      .where(
        and(
          eq(scheduledChanges.resourceId, resourceId),
          eq(scheduledChanges.kind, 'rollback'),
          sql`${scheduledChanges.state} <> 'cancelled'`,
        ),
      );
    return row?.count ?? 0;
  }
}
