// Scheduled changes, the automation log and the reads the executor and the guard need. Built on
// whichever Db it is given: the pool's, or a transaction's (see db/transaction.ts), so a change row
// and the job that carries it commit together.
import { and, desc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import {
  automationLogs,
  metricPoints,
  metrics,
  recommendations,
  resources,
  scheduledChanges,
  teams,
  tenants,
} from '../../db/schema';
import { isResourceKnownToTeam } from '../../db/team-resource';

export type ChangeKind = (typeof scheduledChanges.$inferSelect)['kind'];
export type ChangeOrigin = (typeof scheduledChanges.$inferSelect)['origin'];
export type ChangeState = (typeof scheduledChanges.$inferSelect)['state'];
export type ChangeRow = typeof scheduledChanges.$inferSelect;

export interface ApplyTarget {
  recommendationId: number;
  teamId: string;
  tenantId: string;
  resourceId: string;
  kind: 'resize' | 'shutdown' | 'activeHours';
  status: string;
  predictionMethod: string;
  currentSize: string | null;
  targetSize: string | null;
  activeHoursStart: number | null;
  activeHoursEnd: number | null;
  resourceArmId: string;
  resourceName: string;
  resourceSize: string | null;
  maintenanceWindow: number;
  canWrite: boolean | null;
}

export interface NewChange {
  teamId: string;
  tenantId: string;
  resourceId: string;
  recommendationId: number | null;
  kind: ChangeKind;
  origin: ChangeOrigin;
  predictionMethod: string;
  previousSize: string | null;
  newSize: string | null;
  changeAt: Date;
}

// A change with what the executor needs about its resource.
export interface ChangeWithResource extends ChangeRow {
  resourceArmId: string;
  resourceName: string;
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

export interface NewLogEntry {
  teamId: string;
  resourceId: string | null;
  resourceArmId: string;
  friendlyName: string;
  predictionMethod: string;
  action: string;
  scheduledChangeId: number | null;
}

export interface ScheduleRow {
  id: number;
  resourceArmId: string;
  friendlyName: string;
  changeAt: string;
  newSize: string | null;
  kind: ChangeKind;
  version: number;
}

export interface LogRow {
  resourceArmId: string;
  friendlyName: string;
  predictionMethod: string;
  action: string;
  createdAt: string;
}

const isoText = (column: unknown) =>
  sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

const pendingStates: ChangeState[] = ['planned', 'claimed', 'submitted'];

export class AutomationRepository {
  constructor(private readonly db: Db) {}

  async findApplyTarget(teamId: string, recommendationId: number): Promise<ApplyTarget | undefined> {
    const [row] = await this.db
      .select({
        recommendationId: recommendations.id,
        teamId: recommendations.teamId,
        tenantId: recommendations.tenantId,
        resourceId: recommendations.resourceId,
        kind: recommendations.kind,
        status: recommendations.status,
        predictionMethod: recommendations.predictionMethod,
        currentSize: recommendations.currentSize,
        targetSize: recommendations.targetSize,
        activeHoursStart: recommendations.activeHoursStart,
        activeHoursEnd: recommendations.activeHoursEnd,
        resourceArmId: resources.armId,
        resourceName: resources.name,
        resourceSize: resources.sku,
        maintenanceWindow: sql<number>`coalesce(${resources.maintenanceWindow}, ${teams.defaultMaintenanceWindow})`,
        canWrite: tenants.canWrite,
      })
      .from(recommendations)
      .innerJoin(resources, eq(resources.id, recommendations.resourceId))
      .innerJoin(tenants, eq(tenants.id, recommendations.tenantId))
      .innerJoin(teams, eq(teams.id, recommendations.teamId))
      .where(and(eq(recommendations.id, recommendationId), eq(recommendations.teamId, teamId)));
    return row;
  }

  // The change a recommendation already led to, unless it failed or was replaced.
  async findLiveChangeOf(recommendationId: number): Promise<ChangeRow | undefined> {
    const [row] = await this.db
      .select()
      .from(scheduledChanges)
      .where(
        and(
          eq(scheduledChanges.recommendationId, recommendationId),
          inArray(scheduledChanges.state, ['planned', 'claimed', 'submitted', 'succeeded']),
        ),
      )
      .orderBy(desc(scheduledChanges.id))
      .limit(1);
    return row;
  }

  // The resource's one planned change: a new plan replaces it in place and bumps its version.
  async planChange(change: NewChange): Promise<{ id: number; version: number }> {
    const [row] = await this.db
      .insert(scheduledChanges)
      .values({ ...change, state: 'planned' })
      .onConflictDoUpdate({
        target: scheduledChanges.resourceId,
        targetWhere: sql`state = 'planned'`,
        set: {
          recommendationId: change.recommendationId,
          kind: change.kind,
          origin: change.origin,
          predictionMethod: change.predictionMethod,
          previousSize: change.previousSize,
          newSize: change.newSize,
          changeAt: change.changeAt,
          version: sql`${scheduledChanges.version} + 1`,
        },
      })
      .returning({ id: scheduledChanges.id, version: scheduledChanges.version });
    return row!;
  }

  async claimChange(id: number, at: Date): Promise<boolean> {
    const claimed = await this.db
      .update(scheduledChanges)
      .set({ state: 'claimed', claimedAt: at })
      .where(and(eq(scheduledChanges.id, id), eq(scheduledChanges.state, 'planned')))
      .returning({ id: scheduledChanges.id });
    return claimed.length > 0;
  }

  // Due planned changes, claimed by whichever dispatcher locks them first; the others skip them.
  async claimDueChanges(at: Date, limit: number): Promise<number[]> {
    const result = await this.db.execute<{ id: string }>(sql`
      update scheduled_change set state = 'claimed', claimed_at = ${at}
      where id in (
        select id from scheduled_change
        where state = 'planned' and change_at <= ${at}
        order by change_at, id
        limit ${limit}
        for update skip locked
      )
      returning id`);
    return result.rows.map((row) => Number(row.id));
  }

  async findChange(id: number): Promise<ChangeWithResource | undefined> {
    const [row] = await this.db
      .select({
        change: scheduledChanges,
        resourceArmId: resources.armId,
        resourceName: resources.name,
      })
      .from(scheduledChanges)
      .innerJoin(resources, eq(resources.id, scheduledChanges.resourceId))
      .where(eq(scheduledChanges.id, id));
    return row
      ? { ...row.change, resourceArmId: row.resourceArmId, resourceName: row.resourceName }
      : undefined;
  }

  // Writes only while the change is still in one of `fromStates`, so a stale worker changes nothing.
  async updateChange(
    id: number,
    fromStates: ChangeState[],
    fields: Partial<Omit<ChangeRow, 'id' | 'teamId' | 'tenantId' | 'resourceId'>>,
  ): Promise<boolean> {
    const updated = await this.db
      .update(scheduledChanges)
      .set(fields)
      .where(and(eq(scheduledChanges.id, id), inArray(scheduledChanges.state, fromStates)))
      .returning({ id: scheduledChanges.id });
    return updated.length > 0;
  }

  async countAttempt(id: number): Promise<number> {
    const [row] = await this.db
      .update(scheduledChanges)
      .set({ attempts: sql`${scheduledChanges.attempts} + 1` })
      .where(eq(scheduledChanges.id, id))
      .returning({ attempts: scheduledChanges.attempts });
    return row?.attempts ?? 0;
  }

  async insertLog(entry: NewLogEntry): Promise<void> {
    await this.db.insert(automationLogs).values(entry);
  }

  knowsResource(teamId: string, armId: string): Promise<boolean> {
    return isResourceKnownToTeam(this.db, teamId, armId, automationLogs);
  }

  async listSchedule(teamId: string, resourceArmId?: string): Promise<ScheduleRow[]> {
    return this.db
      .select({
        id: scheduledChanges.id,
        resourceArmId: resources.armId,
        friendlyName: resources.name,
        changeAt: isoText(scheduledChanges.changeAt),
        newSize: scheduledChanges.newSize,
        kind: scheduledChanges.kind,
        version: scheduledChanges.version,
      })
      .from(scheduledChanges)
      .innerJoin(resources, eq(resources.id, scheduledChanges.resourceId))
      .where(
        and(
          eq(scheduledChanges.teamId, teamId),
          inArray(scheduledChanges.state, pendingStates),
          resourceArmId ? sql`lower(${resources.armId}) = ${resourceArmId.toLowerCase()}` : undefined,
        ),
      )
      .orderBy(scheduledChanges.changeAt, scheduledChanges.id);
  }

  // Newest first.
  async listLog(teamId: string, resourceArmId?: string): Promise<LogRow[]> {
    return this.db
      .select({
        resourceArmId: automationLogs.resourceArmId,
        friendlyName: automationLogs.friendlyName,
        predictionMethod: automationLogs.predictionMethod,
        action: automationLogs.action,
        createdAt: isoText(automationLogs.createdAt),
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

  async setRecommendationStatus(id: number, status: 'applied' | 'held'): Promise<void> {
    await this.db.update(recommendations).set({ status }).where(eq(recommendations.id, id));
  }

  async holdRecommendations(resourceId: string, until: Date): Promise<void> {
    await this.db
      .update(resources)
      .set({ recommendationsHeldUntil: until })
      .where(eq(resources.id, resourceId));
  }

  async setActiveHours(resourceId: string, start: number | null, end: number | null): Promise<void> {
    await this.db
      .update(resources)
      .set({ activeHoursStart: start, activeHoursEnd: end })
      .where(eq(resources.id, resourceId));
    await this.bumpResourcesVersionOf(resourceId);
  }

  // What Azure now says of the VM, so Cloud Resources shows it before the next sync.
  async recordResourceState(
    resourceId: string,
    size: string | null,
    powerState: string | null,
  ): Promise<void> {
    await this.db
      .update(resources)
      .set({ sku: size, powerState, lastRead: new Date() })
      .where(eq(resources.id, resourceId));
    await this.bumpResourcesVersionOf(resourceId);
  }

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

  async endGuard(id: number): Promise<void> {
    await this.db.update(scheduledChanges).set({ guardUntil: null }).where(eq(scheduledChanges.id, id));
  }

  // 1-minute values of one metric since a time, oldest first.
  async readMetricValues(resourceId: string, metricName: string, since: Date): Promise<number[]> {
    const rows = await this.db
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

  // True when `next` has fewer vCPUs or less memory than `previous` in the resource's region; undefined
  // when the size catalogue does not know both.
  async isSmallerSize(resourceId: string, previous: string, next: string): Promise<boolean | undefined> {
    const result = await this.db.execute<{ name: string; vcpus: number; memory_gib: number }>(sql`
      select lower(s.name) as name, s.vcpus, s.memory_gib from vm_size s join resource r on r.region = s.region
      where r.id = ${resourceId} and lower(s.name) in (${previous.toLowerCase()}, ${next.toLowerCase()})`);
    const before = result.rows.find((row) => row.name === previous.toLowerCase());
    const after = result.rows.find((row) => row.name === next.toLowerCase());
    if (!before || !after) return undefined;
    return after.vcpus < before.vcpus || after.memory_gib < before.memory_gib;
  }

  async readSizeMemoryGiB(resourceId: string, sizeName: string): Promise<number | undefined> {
    const result = await this.db.execute<{ memory_gib: number }>(sql`
      select s.memory_gib from vm_size s join resource r on r.region = s.region
      where r.id = ${resourceId} and lower(s.name) = ${sizeName.toLowerCase()}
      limit 1`);
    return result.rows[0]?.memory_gib;
  }

  // Open recommendations of Automated resources that have led to no change yet and are not held.
  async listAutomatedRecommendationIds(
    tenantId: string,
    at: Date,
  ): Promise<{ id: number; teamId: string }[]> {
    const result = await this.db.execute<{ id: string; team_id: string }>(sql`
      select rec.id, rec.team_id from recommendation rec
      join resource r on r.id = rec.resource_id
      where rec.tenant_id = ${tenantId} and rec.status = 'open' and r.automated = 1
        and (r.recommendations_held_until is null or r.recommendations_held_until <= ${at})
        and not exists (
          select 1 from scheduled_change c
          where c.recommendation_id = rec.id and c.state <> 'cancelled' and c.state <> 'failed'
        )
      order by rec.id`);
    return result.rows.map((row) => ({ id: Number(row.id), teamId: row.team_id }));
  }

  private async bumpResourcesVersionOf(resourceId: string): Promise<void> {
    await this.db.execute(sql`
      update tenant set resources_version = resources_version + 1
      where id = (select tenant_id from resource where id = ${resourceId})`);
  }
}
