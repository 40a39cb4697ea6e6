// Scheduled changes, the automation log and the reads the executor and the guard need. Built on
// whichever Db it is given: the pool's, or a transaction's (see db/transaction.ts), so a change row
// and the job that carries it commit together.
import { automationValues } from '@cloudtrim/contracts/automation';
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
import { hourMs, isoTimestampSql } from '../../lib/time';
import {
  holdResourceRecommendations,
  mergeResourceTags,
  recordResourceState,
  setResourceActiveHours,
  setResourceAutomated,
} from '../resources/resource-writes.repository';
import { setRecommendationStatus } from '../recommendations/recommendation-status.repository';

export type ChangeKind = (typeof scheduledChanges.$inferSelect)['kind'];
export type ChangeOrigin = (typeof scheduledChanges.$inferSelect)['origin'];
export type ChangeState = (typeof scheduledChanges.$inferSelect)['state'];
export type ChangeRow = typeof scheduledChanges.$inferSelect;
export type RecommendationKind = (typeof recommendations.$inferSelect)['kind'];

export interface ApplyTarget {
  recommendationId: number;
  teamId: string;
  tenantId: string;
  resourceId: string;
  kind: RecommendationKind;
  status: string;
  predictionMethod: string;
  currentSize: string | null;
  targetSize: string | null;
  activeHoursStart: number | null;
  activeHoursEnd: number | null;
  resourceArmId: string;
  resourceName: string;
  resourceSize: string | null;
  resourcePowerState: string | null;
  heldUntil: Date | null;
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
  // What the VM must still be when the change acts (null: not checked).
  expectedSize?: string | null;
  expectedPowerState?: string | null;
  // The pipeline run that asked for it (origin 'pipeline', or a run's applied recommendation).
  pipelineRunId?: string | null;
  // What a 'tag' change merges into the resource's tags.
  tags?: Record<string, string> | null;
}

// What must still hold when a change acts, read under the VM's lock.
export interface ChangeReasons {
  automated: number;
  heldUntil: Date | null;
  isTenantActive: boolean;
  recommendationStatus: string | null;
  // The resource's tags as the last inventory stored them (what a pipeline planned from).
  tags: Record<string, string>;
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

export type ChangeToMeasure = {
  id: number;
  teamId: string;
  resourceId: string;
  resourceArmId: string;
  resourceName: string;
  kind: 'resize' | 'deallocate';
  completedAt: Date;
  predictionMethod: string;
  expectedAnnual: number;
};

// A planned resize or shutdown and what its recommendation promised a year, for the forecast.
export type PlannedSaving = {
  resourceArmId: string;
  tags: Record<string, string>;
  changeAt: Date;
  annualSavings: number;
};

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

const isoText = isoTimestampSql;

const pendingStates: ChangeState[] = ['planned', 'claimed', 'submitted'];
const inFlightStates: ChangeState[] = ['claimed', 'submitted'];
// The origins whose changes carry out a recommendation (one planned slot per VM between them).
export const recommendationOrigins: readonly ChangeOrigin[] = ['now', 'window', 'automated'];
// A maintenance window is one hour (SPEC §9).
const windowMs = hourMs;

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
        resourcePowerState: resources.powerState,
        heldUntil: resources.recommendationsHeldUntil,
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

  // The change a recommendation already led to, unless it was cancelled. A failed one is answered
  // too, so a retried GET of a failed apply says it failed instead of planning again.
  async findLiveChangeOf(recommendationId: number): Promise<ChangeRow | undefined> {
    const [row] = await this.db
      .select()
      .from(scheduledChanges)
      .where(
        and(
          eq(scheduledChanges.recommendationId, recommendationId),
          inArray(scheduledChanges.state, ['planned', 'claimed', 'submitted', 'succeeded', 'failed']),
        ),
      )
      .orderBy(desc(scheduledChanges.id))
      .limit(1);
    return row;
  }

  // Every path that plans, claims or cancels a VM's changes takes this lock first (in its
  // transaction), and so does the executor when it decides to act: one of them at a time per VM.
  async lockResource(resourceId: string): Promise<void> {
    await this.db.execute(sql`select pg_advisory_xact_lock(hashtext(${`change:${resourceId}`}))`);
  }

  // The VM's change under way in Azure, if any (at most one: scheduled_change_in_flight_key).
  async findInFlight(resourceId: string): Promise<ChangeRow | undefined> {
    const [row] = await this.db
      .select()
      .from(scheduledChanges)
      .where(
        and(eq(scheduledChanges.resourceId, resourceId), inArray(scheduledChanges.state, inFlightStates)),
      );
    return row;
  }

  // A recommendation's plan takes the VM's one planned slot for recommendations: a new plan
  // replaces it in place and bumps its version. The guard's and active hours' changes queue beside.
  async planChange(change: NewChange): Promise<{ id: number; version: number }> {
    const values = { ...change, state: 'planned' as const };
    if (!recommendationOrigins.includes(change.origin)) {
      const [row] = await this.db
        .insert(scheduledChanges)
        .values(values)
        .returning({ id: scheduledChanges.id, version: scheduledChanges.version });
      return row!;
    }
    const [row] = await this.db
      .insert(scheduledChanges)
      .values(values)
      .onConflictDoUpdate({
        target: scheduledChanges.resourceId,
        targetWhere: sql`state = 'planned' and origin in ('now', 'window', 'automated')`,
        set: {
          recommendationId: change.recommendationId,
          kind: change.kind,
          origin: change.origin,
          predictionMethod: change.predictionMethod,
          previousSize: change.previousSize,
          newSize: change.newSize,
          changeAt: change.changeAt,
          expectedSize: change.expectedSize ?? null,
          expectedPowerState: change.expectedPowerState ?? null,
          // The plan replaced is now this apply's: a pipeline run's, or nobody's.
          pipelineRunId: change.pipelineRunId ?? null,
          version: sql`${scheduledChanges.version} + 1`,
        },
      })
      .returning({ id: scheduledChanges.id, version: scheduledChanges.version });
    return row!;
  }

  // The job sent with the claim has until `leaseUntil` to start its run; past it the dispatcher
  // sends the change again.
  async claimChange(id: number, at: Date, leaseUntil: Date): Promise<boolean> {
    const claimed = await this.db
      .update(scheduledChanges)
      .set({ state: 'claimed', claimedAt: at, claimToken: null, leaseUntil })
      .where(and(eq(scheduledChanges.id, id), eq(scheduledChanges.state, 'planned')))
      .returning({ id: scheduledChanges.id });
    return claimed.length > 0;
  }

  // Due planned changes, the oldest of each VM that has nothing in flight (a guard's rollback
  // first), claimed by whichever dispatcher locks them first; the others skip them, and so does a
  // VM whose lock an apply holds.
  async claimDueChanges(at: Date, limit: number, leaseUntil: Date): Promise<number[]> {
    const result = await this.db.execute<{ id: string }>(sql`
      with due as (
        select distinct on (c.resource_id) c.id
        from scheduled_change c
        where c.state = 'planned' and c.change_at <= ${at}
          and not exists (
            select 1 from scheduled_change f
            where f.resource_id = c.resource_id and f.state in ('claimed', 'submitted'))
        order by c.resource_id, (c.origin = 'guard') desc, c.change_at, c.id
      ), claimable as (
        select c.id from scheduled_change c
        where c.id in (select id from due) and c.state = 'planned'
          and pg_try_advisory_xact_lock(hashtext('change:' || c.resource_id::text))
        order by c.change_at, c.id
        limit ${limit}
        for update of c skip locked
      )
      update scheduled_change set state = 'claimed', claimed_at = ${at}, claim_token = null,
        lease_until = ${leaseUntil}
      where id in (select id from claimable)
      returning id`);
    return result.rows.map((row) => Number(row.id));
  }

  // Changes in flight whose run stopped answering (its lease lapsed: a worker killed, a job lost):
  // given a fresh start lease, to be sent again; the next run resumes from the saved step.
  async reclaimLapsedChanges(at: Date, limit: number, leaseUntil: Date): Promise<number[]> {
    const result = await this.db.execute<{ id: string }>(sql`
      update scheduled_change set claim_token = null, lease_until = ${leaseUntil}
      where id in (
        select id from scheduled_change
        where state in ('claimed', 'submitted') and lease_until < ${at}
        order by lease_until
        limit ${limit}
        for update skip locked
      )
      returning id`);
    return result.rows.map((row) => Number(row.id));
  }

  // Changes planned at a maintenance window whose hour passed unclaimed (workers down over it).
  async listMissedWindowChanges(at: Date): Promise<(ChangeWithResource & { maintenanceWindow: number })[]> {
    const rows = await this.db
      .select({
        change: scheduledChanges,
        resourceArmId: resources.armId,
        resourceName: resources.name,
        maintenanceWindow: sql<number>`coalesce(${resources.maintenanceWindow}, ${teams.defaultMaintenanceWindow})`,
      })
      .from(scheduledChanges)
      .innerJoin(resources, eq(resources.id, scheduledChanges.resourceId))
      .innerJoin(teams, eq(teams.id, scheduledChanges.teamId))
      .where(
        and(
          eq(scheduledChanges.state, 'planned'),
          inArray(scheduledChanges.origin, ['window', 'automated']),
          sql`${scheduledChanges.changeAt} <= ${new Date(at.getTime() - windowMs)}`,
        ),
      );
    return rows.map((row) => ({
      ...row.change,
      resourceArmId: row.resourceArmId,
      resourceName: row.resourceName,
      maintenanceWindow: row.maintenanceWindow,
    }));
  }

  async listPlannedChanges(resourceId: string, origins: ChangeOrigin[]): Promise<ChangeRow[]> {
    return this.db
      .select()
      .from(scheduledChanges)
      .where(
        and(
          eq(scheduledChanges.resourceId, resourceId),
          eq(scheduledChanges.state, 'planned'),
          inArray(scheduledChanges.origin, origins),
        ),
      );
  }

  // Planned changes of a VM moved to a new time, each as a new version.
  async movePlannedChanges(ids: number[], changeAt: Date): Promise<number> {
    if (ids.length === 0) return 0;
    const moved = await this.db
      .update(scheduledChanges)
      .set({ changeAt, version: sql`${scheduledChanges.version} + 1`, updatedAt: sql`now()` })
      .where(and(inArray(scheduledChanges.id, ids), eq(scheduledChanges.state, 'planned')))
      .returning({ id: scheduledChanges.id });
    return moved.length;
  }

  // A VM's changes from the given origins that have not begun in Azure (planned, or claimed with no
  // step taken), cancelled with the reason.
  async cancelUnstartedChanges(
    where: { resourceId?: string; recommendationIds?: number[] },
    origins: ChangeOrigin[],
    reason: string,
  ): Promise<ChangeRow[]> {
    if (where.recommendationIds?.length === 0) return [];
    return this.db
      .update(scheduledChanges)
      .set({ state: 'cancelled', error: reason, completedAt: sql`now()`, leaseUntil: null, claimToken: null })
      .where(
        and(
          where.resourceId ? eq(scheduledChanges.resourceId, where.resourceId) : undefined,
          where.recommendationIds
            ? inArray(scheduledChanges.recommendationId, where.recommendationIds)
            : undefined,
          inArray(scheduledChanges.origin, origins),
          sql`(${scheduledChanges.state} = 'planned' or (${scheduledChanges.state} = 'claimed' and ${scheduledChanges.wasRunning} is null))`,
        ),
      )
      .returning();
  }

  // Starts a run of a change in flight: the run's token fences every later write, and the lease
  // keeps other runs out until it lapses. Undefined when the change is over or another run holds it.
  async startRun(
    id: number,
    at: Date,
    leaseUntil: Date,
  ): Promise<{ attempts: number; token: string } | undefined> {
    const result = await this.db.execute<{ attempts: number; claim_token: string }>(sql`
      update scheduled_change
      set claim_token = gen_random_uuid(), lease_until = ${leaseUntil}, attempts = attempts + 1
      where id = ${id} and state in ('claimed', 'submitted')
        and (claim_token is null or lease_until is null or lease_until < ${at})
      returning attempts, claim_token`);
    const row = result.rows[0];
    return row ? { attempts: row.attempts, token: row.claim_token } : undefined;
  }

  // A run's write: only while the change is in one of `fromStates` AND still held by that run.
  async updateRun(
    id: number,
    token: string,
    fromStates: ChangeState[],
    fields: Partial<Omit<ChangeRow, 'id' | 'teamId' | 'tenantId' | 'resourceId'>>,
  ): Promise<boolean> {
    const updated = await this.db
      .update(scheduledChanges)
      .set({ ...fields, updatedAt: sql`now()` })
      .where(
        and(
          eq(scheduledChanges.id, id),
          eq(scheduledChanges.claimToken, token),
          inArray(scheduledChanges.state, fromStates),
        ),
      )
      .returning({ id: scheduledChanges.id });
    return updated.length > 0;
  }

  async readChangeReasons(id: number): Promise<ChangeReasons | undefined> {
    const result = await this.db.execute<{
      automated: number;
      held_until: string | Date | null;
      is_active: boolean;
      recommendation_status: string | null;
      tags: Record<string, string> | null;
    }>(sql`
      select r.automated, r.recommendations_held_until as held_until, t.is_active,
             rec.status as recommendation_status, r.tags
      from scheduled_change c
      join resource r on r.id = c.resource_id
      join tenant t on t.id = c.tenant_id
      left join recommendation rec on rec.id = c.recommendation_id
      where c.id = ${id}`);
    const row = result.rows[0];
    if (!row) return undefined;
    return {
      automated: Number(row.automated),
      heldUntil: row.held_until === null ? null : new Date(row.held_until),
      isTenantActive: row.is_active,
      recommendationStatus: row.recommendation_status,
      tags: row.tags ?? {},
    };
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

  async setAutomated(resourceId: string, automated: number): Promise<void> {
    await setResourceAutomated(this.db, resourceId, automated);
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

  // Applied recommendations (a resize or a shutdown that succeeded) completed between two instants
  // whose saving on the bill has not been measured yet.
  async listChangesToMeasure(tenantId: string, from: Date, to: Date): Promise<ChangeToMeasure[]> {
    const result = await this.db.execute<Omit<ChangeToMeasure, 'completedAt'> & { completedAt: string }>(sql`
      select change.id, change.team_id as "teamId", change.resource_id as "resourceId",
             resource.arm_id as "resourceArmId", resource.name as "resourceName", change.kind,
             change.completed_at as "completedAt", recommendation.prediction_method as "predictionMethod",
             recommendation.annual_cost_savings as "expectedAnnual"
      from scheduled_change as change
      join resource on resource.id = change.resource_id
      join recommendation on recommendation.id = change.recommendation_id
      where resource.tenant_id = ${tenantId}::uuid and change.state = 'succeeded'
        and change.kind in ('resize', 'deallocate')
        and change.completed_at between ${from.toISOString()}::timestamptz and ${to.toISOString()}::timestamptz
        and not exists (select 1 from realized_saving where realized_saving.scheduled_change_id = change.id)
      order by change.completed_at`);
    return result.rows.map((row) => ({ ...row, completedAt: new Date(row.completedAt) }));
  }

  // The team's planned resizes, shutdowns and tier changes with a saving, one per recommendation
  // (active hours plan a shutdown a day for one saving): the first of each. Deletions are never
  // planned ahead.
  async listPlannedSavings(teamId: string, tenantId?: string): Promise<PlannedSaving[]> {
    const result = await this.db.execute<Omit<PlannedSaving, 'changeAt'> & { changeAt: string }>(sql`
      select distinct on (change.recommendation_id)
             resource.arm_id as "resourceArmId", coalesce(resource.tags, '{}'::jsonb) as tags,
             change.change_at as "changeAt", recommendation.annual_cost_savings as "annualSavings"
      from scheduled_change as change
      join resource on resource.id = change.resource_id
      join recommendation on recommendation.id = change.recommendation_id
      where change.team_id = ${teamId}::uuid and change.state = 'planned'
        and change.kind in ('resize', 'deallocate', 'diskTier', 'planTier', 'databaseObjective')
        and recommendation.annual_cost_savings > 0
        ${tenantId ? sql`and change.tenant_id = ${tenantId}::uuid` : sql``}
      order by change.recommendation_id, change.change_at`);
    return result.rows.map((row) => ({ ...row, changeAt: new Date(row.changeAt) }));
  }

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

  // A recommendation is marked applied only while open: one superseded meanwhile stays superseded.
  async setRecommendationStatus(id: number, status: 'applied' | 'held'): Promise<void> {
    await setRecommendationStatus(this.db, id, status);
  }

  async holdRecommendations(resourceId: string, until: Date): Promise<void> {
    await holdResourceRecommendations(this.db, resourceId, until);
  }

  // Boundaries before `at` count as handled: new hours act from their next boundary.
  async setActiveHours(
    resourceId: string,
    start: number | null,
    end: number | null,
    at: Date,
  ): Promise<void> {
    await setResourceActiveHours(this.db, resourceId, start, end, at);
  }

  // What Azure now says of the resource, so Cloud Resources shows it before the next sync.
  async recordResourceState(
    resourceId: string,
    size: string | null,
    powerState: string | null,
    at: Date,
  ): Promise<void> {
    await recordResourceState(this.db, resourceId, size, powerState, at);
  }

  // The tags a tag change merged in Azure, merged into ours too (before the next sync reads them).
  async mergeResourceTags(resourceId: string, tags: Record<string, string>): Promise<void> {
    await mergeResourceTags(this.db, resourceId, tags);
  }

  async readResourceRegion(resourceId: string): Promise<string | undefined> {
    const [row] = await this.db
      .select({ region: resources.region })
      .from(resources)
      .where(eq(resources.id, resourceId));
    return row?.region;
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

  // Ends the guard's watch of a resize; false when it had ended already (another guard run).
  async endGuard(id: number): Promise<boolean> {
    const ended = await this.db
      .update(scheduledChanges)
      .set({ guardUntil: null })
      .where(and(eq(scheduledChanges.id, id), isNotNull(scheduledChanges.guardUntil)))
      .returning({ id: scheduledChanges.id });
    return ended.length > 0;
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

  // Open recommendations of Automated resources that have led to no change yet and are not held,
  // deletions left out.
  async listAutomatedRecommendationIds(
    tenantId: string,
    at: Date,
  ): Promise<{ id: number; teamId: string }[]> {
    const result = await this.db.execute<{ id: string; team_id: string }>(sql`
      select rec.id, rec.team_id from recommendation rec
      join resource r on r.id = rec.resource_id
      where rec.tenant_id = ${tenantId} and rec.status = 'open' and r.automated = ${automationValues.automated}
        -- A deletion cannot be undone: only a user's APPLY NOW starts one.
        and rec.kind not in ('deleteDisk', 'deletePublicIp', 'deletePlan')
        and (r.recommendations_held_until is null or r.recommendations_held_until <= ${at})
        and not exists (
          select 1 from scheduled_change c
          where c.recommendation_id = rec.id and c.state <> 'cancelled' and c.state <> 'failed'
        )
      order by rec.id`);
    return result.rows.map((row) => ({ id: Number(row.id), teamId: row.team_id }));
  }
}
