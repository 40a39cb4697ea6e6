import { and, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { activityLogs } from '../../db/schema';
import { isResourceKnownToTeam } from '../../db/team-resource';

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
  // Every Recent Activity view runs one of these, so they are prepared: planned once per connection.
  private readonly teamPage;
  private readonly resourcePage;

  constructor(private readonly db: Db) {
    this.teamPage = preparePage(db, 'activity_team_page', undefined);
    this.resourcePage = preparePage(
      db,
      'activity_resource_page',
      sql`lower(${activityLogs.resourceArmId}) = ${sql.placeholder('resourceArmId')}`,
    );
  }

  async insertMany(entries: NewActivityEntry[]): Promise<void> {
    if (entries.length === 0) return;
    await this.db.insert(activityLogs).values(entries);
  }

  knowsResource(teamId: string, armId: string): Promise<boolean> {
    return isResourceKnownToTeam(this.db, teamId, armId, activityLogs);
  }

  // Newest first.
  listForTeam(
    teamId: string,
    page: { offset: number; limit: number; resourceArmId?: string },
  ): Promise<ActivityEntryRow[]> {
    const values = { teamId, offset: page.offset, limit: page.limit };
    return page.resourceArmId
      ? this.resourcePage.execute({ ...values, resourceArmId: page.resourceArmId.toLowerCase() })
      : this.teamPage.execute(values);
  }
}

// The page's ids are picked from the (team, id) or (team, lower(resource), id) index alone, so
// skipping thousands of entries for a deep page reads no table rows.
function preparePage(db: Db, name: string, resourceFilter: SQL | undefined) {
  const pageIds = db
    .select({ id: activityLogs.id })
    .from(activityLogs)
    .where(and(eq(activityLogs.teamId, sql.placeholder('teamId')), resourceFilter))
    .orderBy(desc(activityLogs.id))
    .offset(sql.placeholder('offset'))
    .limit(sql.placeholder('limit'));
  return db
    .select({
      serviceName: activityLogs.serviceName,
      resourceArmId: activityLogs.resourceArmId,
      logText: activityLogs.logText,
      createdAt: sql<string>`to_char(${activityLogs.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
    })
    .from(activityLogs)
    .where(inArray(activityLogs.id, pageIds))
    .orderBy(desc(activityLogs.id))
    .prepare(name);
}
