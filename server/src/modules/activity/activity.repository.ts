import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { activityLogs } from '../../db/schema';

export interface NewActivityEntry {
  teamId: string;
  tenantId: string | null;
  serviceName: string;
  resourceArmId: string | null;
  logText: string;
}

export interface ActivityEntryRow {
  serviceName: string;
  resourceArmId: string | null;
  logText: string;
  createdAt: Date;
}

export class ActivityRepository {
  constructor(private readonly db: Db) {}

  async insertMany(entries: NewActivityEntry[]): Promise<void> {
    if (entries.length === 0) return;
    await this.db.insert(activityLogs).values(entries);
  }

  // Newest first; both filters ride the (team, id) and (team, lower(resource), id) indexes.
  async listForTeam(
    teamId: string,
    page: { offset: number; limit: number; resourceArmId?: string },
  ): Promise<ActivityEntryRow[]> {
    const byResource = page.resourceArmId
      ? eq(sql`lower(${activityLogs.resourceArmId})`, page.resourceArmId.toLowerCase())
      : undefined;
    return this.db
      .select({
        serviceName: activityLogs.serviceName,
        resourceArmId: activityLogs.resourceArmId,
        logText: activityLogs.logText,
        createdAt: activityLogs.createdAt,
      })
      .from(activityLogs)
      .where(and(eq(activityLogs.teamId, teamId), byResource))
      .orderBy(desc(activityLogs.id))
      .offset(page.offset)
      .limit(page.limit);
  }
}
