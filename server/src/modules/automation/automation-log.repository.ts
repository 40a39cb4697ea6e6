// The automation log: what automation did, step by step, to which resource (its one writer; active
// hours log their skipped boundaries through AutomationService.writeLogs).
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { automationLogs } from '../../db/schema';
import { isResourceKnownToTeam } from '../../db/team-resource';
import { isoTimestampSql } from '../../lib/time';
import type { ChangeWithResource } from './automation.rows';

export interface NewLogEntry {
  teamId: string;
  resourceId: string | null;
  resourceArmId: string;
  friendlyName: string;
  predictionMethod: string;
  action: string;
  scheduledChangeId: number | null;
}

export interface LogRow {
  resourceArmId: string;
  friendlyName: string;
  predictionMethod: string;
  action: string;
  createdAt: string;
}

// The automation log entry for a step of `change` (by default about the change itself).
export function logEntryOf(change: ChangeWithResource, action: string, scheduledChangeId = change.id) {
  return {
    teamId: change.teamId,
    resourceId: change.resourceId,
    resourceArmId: change.resourceArmId,
    friendlyName: change.resourceName,
    predictionMethod: change.predictionMethod ?? '',
    action,
    scheduledChangeId,
  };
}

export class AutomationLogRepository {
  constructor(private readonly db: Db) {}

  async insertLog(entry: NewLogEntry): Promise<void> {
    await this.db.insert(automationLogs).values(entry);
  }

  async insertLogs(entries: NewLogEntry[]): Promise<void> {
    if (entries.length === 0) return;
    await this.db.insert(automationLogs).values(entries);
  }

  knowsResource(teamId: string, armId: string): Promise<boolean> {
    return isResourceKnownToTeam(this.db, teamId, armId, automationLogs);
  }

  // Newest first.
  async listLog(teamId: string, resourceArmId?: string): Promise<LogRow[]> {
    return this.db
      .select({
        resourceArmId: automationLogs.resourceArmId,
        friendlyName: automationLogs.friendlyName,
        predictionMethod: automationLogs.predictionMethod,
        action: automationLogs.action,
        createdAt: isoTimestampSql(automationLogs.createdAt),
      })
      .from(automationLogs)
      .where(
        and(
          eq(automationLogs.teamId, teamId),
          resourceArmId
            ? sql`lower(${automationLogs.resourceArmId}) = ${resourceArmId.toLowerCase()}`
            : undefined,
        ),
      )
      .orderBy(desc(automationLogs.id))
      .limit(1000);
  }
}
