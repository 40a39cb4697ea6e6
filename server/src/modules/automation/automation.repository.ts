// Scheduled changes: planning, the per-VM lock, claims, runs and their fencing, cancelling, and the
// schedule. Built on whichever Db it is given: the pool's, or a transaction's (see db/transaction.ts),
// so a change row and the job that carries it commit together. Beside it, on the same Db: the
// automation log (`log`), what a change does to other modules' rows (`effects`), the guard's watch
// (`guardWatch`), the changes the costs module measures (`savings`) and the recommendations to apply
// (`targets`).
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { resources, scheduledChanges, teams } from '../../db/schema';
import { hourMs, isoTimestampSql } from '../../lib/time';
import { AutomationLogRepository } from './automation-log.repository';
import { AutomationEffectsRepository } from './automation.effects.repository';
import { GuardWatchRepository } from './automation.guard.repository';
import type {
  ChangeKind,
  ChangeOrigin,
  ChangeRow,
  ChangeState,
  ChangeWithResource,
  RecommendationKind,
} from './automation.rows';
import { ChangeSavingsRepository } from './automation.savings.repository';
import { ApplyTargetRepository } from './automation.targets.repository';

export type { ChangeKind, ChangeOrigin, ChangeRow, ChangeState, ChangeWithResource, RecommendationKind };
export { logEntryOf, type LogRow, type NewLogEntry } from './automation-log.repository';
export type { ChangeToMeasure, PlannedSaving } from './automation.savings.repository';
export type { ApplyTarget } from './automation.targets.repository';

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

export interface ScheduleRow {
  id: number;
  resourceArmId: string;
  friendlyName: string;
  changeAt: string;
  newSize: string | null;
  kind: ChangeKind;
  version: number;
}

const isoText = isoTimestampSql;

const pendingStates: ChangeState[] = ['planned', 'claimed', 'submitted'];
const inFlightStates: ChangeState[] = ['claimed', 'submitted'];
// The origins whose changes carry out a recommendation (one planned slot per VM between them).
export const recommendationOrigins: readonly ChangeOrigin[] = ['now', 'window', 'automated'];
// A maintenance window is one hour (SPEC §9).
const windowMs = hourMs;

export class AutomationRepository {
  readonly log: AutomationLogRepository;
  readonly effects: AutomationEffectsRepository;
  readonly guardWatch: GuardWatchRepository;
  readonly savings: ChangeSavingsRepository;
  readonly targets: ApplyTargetRepository;

  constructor(private readonly db: Db) {
    this.log = new AutomationLogRepository(db);
    this.effects = new AutomationEffectsRepository(db);
    this.guardWatch = new GuardWatchRepository(db);
    this.savings = new ChangeSavingsRepository(db);
    this.targets = new ApplyTargetRepository(db);
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
}
