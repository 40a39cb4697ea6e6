import { and, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { activityLogs } from '../../db/schema';
import { isResourceKnownToTeam } from '../../db/team-resource';
import { isoTimestampSql } from '../../lib/time';

// The first key of the per-team insert lock: any constant no other advisory lock of ours uses.
const activityLockClass = 4_713_202;

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
  private readonly teamVersion;

  constructor(private readonly db: Db) {
    this.teamVersion = db
      .select({ version: sql<string>`coalesce(max(${activityLogs.id}), 0)` })
      .from(activityLogs)
      .where(eq(activityLogs.teamId, sql.placeholder('teamId')))
      .prepare('activity_team_version');
    this.teamPage = preparePage(db, 'activity_team_page', undefined);
    this.resourcePage = preparePage(
      db,
      'activity_resource_page',
      sql`lower(${activityLogs.resourceArmId}) = ${sql.placeholder('resourceArmId')}`,
    );
  }

  // A team's entries commit one insert at a time (a lock per team for the transaction), so their
  // ids commit in order and the newest id names everything committed: readTeamVersion.
  async insertMany(entries: NewActivityEntry[]): Promise<void> {
    if (entries.length === 0) return;
    await this.db.transaction((transaction) => insertLocked(transaction, entries));
  }

  // insertMany inside the caller's transaction (a repository built on `Transaction.db`, where a
  // transaction of drizzle's own would commit the caller's): the lock is held until it commits.
  async insertManyInTransaction(entries: NewActivityEntry[]): Promise<void> {
    if (entries.length === 0) return;
    await insertLocked(this.db, entries);
  }

  // Changes with every entry added to the team's log (entries are never edited, and go only with
  // their team): one step back along the (team, id) index.
  async readTeamVersion(teamId: string): Promise<string> {
    const [row] = await this.teamVersion.execute({ teamId });
    return String(row?.version ?? 0);
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

async function insertLocked(db: Pick<Db, 'execute' | 'insert'>, entries: NewActivityEntry[]): Promise<void> {
  const teamIds = [...new Set(entries.map((entry) => entry.teamId))].sort();
  for (const teamId of teamIds) {
    await db.execute(sql`select pg_advisory_xact_lock(${activityLockClass}, hashtext(${teamId}))`);
  }
  await db.insert(activityLogs).values(entries);
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
      createdAt: isoTimestampSql(activityLogs.createdAt),
    })
    .from(activityLogs)
    .where(inArray(activityLogs.id, pageIds))
    .orderBy(desc(activityLogs.id))
    .prepare(name);
}
