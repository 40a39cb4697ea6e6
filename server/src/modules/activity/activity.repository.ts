import { sql } from 'drizzle-orm';
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
  // ISO 8601, UTC.
  createdAt: string;
}

export class ActivityRepository {
  constructor(private readonly db: Db) {}

  async insertMany(entries: NewActivityEntry[]): Promise<void> {
    if (entries.length === 0) return;
    await this.db.insert(activityLogs).values(entries);
  }

  // Newest first. The page's ids are picked from the (team, id) or (team, lower(resource), id) index
  // alone, so skipping thousands of entries for a deep page reads no table rows.
  async listForTeam(
    teamId: string,
    page: { offset: number; limit: number; resourceArmId?: string },
  ): Promise<ActivityEntryRow[]> {
    const byResource = page.resourceArmId
      ? sql`and lower(resource_arm_id) = ${page.resourceArmId.toLowerCase()}`
      : sql``;
    const result = await this.db.execute<{
      serviceName: string;
      resourceArmId: string | null;
      logText: string;
      createdAt: string;
    }>(sql`
      select service_name as "serviceName", resource_arm_id as "resourceArmId", log_text as "logText",
             to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "createdAt"
      from activity_log
      where id in (
        select id from activity_log
        where team_id = ${teamId}::uuid ${byResource}
        order by id desc
        offset ${page.offset} limit ${page.limit}
      )
      order by id desc
    `);
    return result.rows;
  }
}
