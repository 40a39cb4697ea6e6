// Pipelines, their versions, runs, items, streaks and approvals, and the reads a run makes of the
// team's resources, open recommendations and costs. Built on whichever Db it is given: the pool's, or a
// transaction's (db/transaction.ts), so a run's claim, items, streaks, approval and changes commit together.
import type { PipelineDefinition, PipelineScope } from '@cloudtrim/contracts/pipelines';
import { and, asc, count, desc, eq, gte, inArray, lt, lte, sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import {
  costDays,
  pipelineApprovals,
  pipelineRunItems,
  pipelineRuns,
  pipelines,
  pipelineStreaks,
  pipelineVersions,
  recommendations,
  resources,
  subscriptions,
  teams,
  tenants,
  users,
  vmPrices,
} from '../../db/schema';
import type { PipelineCandidate } from './pipelines.match';

export type PipelineRow = typeof pipelines.$inferSelect;
export type PipelineRunRow = typeof pipelineRuns.$inferSelect;
export type PipelineRunItemRow = typeof pipelineRunItems.$inferSelect;
export type NewPipelineRunItem = Omit<typeof pipelineRunItems.$inferInsert, 'id'>;
export type PipelineApprovalRow = typeof pipelineApprovals.$inferSelect;
export type NewPipelineRun = Omit<typeof pipelineRuns.$inferInsert, 'id'>;

export interface PipelineWithDefinition extends PipelineRow {
  definition: PipelineDefinition;
  // Who saved the current version: the proposer of its scheduled runs.
  versionCreatedBy: string | null;
}

export interface RunCounts {
  matched: number;
  acted: number;
  skipped: number;
  failed: number;
  annualSaving: number;
}

export interface CandidateQuery {
  scope: PipelineScope;
  // Only the resources whose maintenance window is this hour (UTC).
  windowHour?: number;
  // The last 30 days' cost from this day on, when the condition asks for it.
  costFrom?: string;
}

const effectiveWindow = sql<number>`coalesce(${resources.maintenanceWindow}, ${teams.defaultMaintenanceWindow})`;

export class PipelinesRepository {
  constructor(private readonly db: Db) {}

  async listForTeam(
    teamId: string,
    page: { offset: number; limit: number },
  ): Promise<PipelineWithDefinition[]> {
    const rows = await this.selectWithDefinition()
      .where(eq(pipelines.teamId, teamId))
      .orderBy(desc(pipelines.updatedAt), asc(pipelines.id))
      .offset(page.offset)
      .limit(page.limit);
    return rows.map(toPipeline);
  }

  async countForTeam(teamId: string): Promise<number> {
    const [row] = await this.db
      .select({ total: count() })
      .from(pipelines)
      .where(eq(pipelines.teamId, teamId));
    return row?.total ?? 0;
  }

  async findForTeam(teamId: string, id: string): Promise<PipelineWithDefinition | undefined> {
    const [row] = await this.selectWithDefinition().where(
      and(eq(pipelines.teamId, teamId), eq(pipelines.id, id)),
    );
    return row ? toPipeline(row) : undefined;
  }

  // Every active pipeline of every team, for the tick.
  async listActive(): Promise<PipelineWithDefinition[]> {
    const rows = await this.selectWithDefinition()
      .where(eq(pipelines.state, 'active'))
      .orderBy(asc(pipelines.id));
    return rows.map(toPipeline);
  }

  async insert(teamId: string, userId: string, definition: PipelineDefinition, at: Date): Promise<string> {
    const [row] = await this.db
      .insert(pipelines)
      .values({
        teamId,
        name: definition.name,
        activeSince: at,
        createdBy: userId,
        updatedBy: userId,
        createdAt: at,
        updatedAt: at,
      })
      .returning({ id: pipelines.id });
    await this.db
      .insert(pipelineVersions)
      .values({ pipelineId: row!.id, version: 1, definition, createdBy: userId, createdAt: at });
    return row!.id;
  }

  // An edit: the next version, the runs made with the earlier ones keep theirs. False when the team
  // has no such pipeline.
  async addVersion(
    teamId: string,
    id: string,
    userId: string,
    definition: PipelineDefinition,
    at: Date,
  ): Promise<boolean> {
    const [row] = await this.db
      .update(pipelines)
      .set({
        name: definition.name,
        version: sql`${pipelines.version} + 1`,
        updatedBy: userId,
        updatedAt: at,
      })
      .where(and(eq(pipelines.teamId, teamId), eq(pipelines.id, id)))
      .returning({ version: pipelines.version });
    if (!row) return false;
    await this.db
      .insert(pipelineVersions)
      .values({ pipelineId: id, version: row.version, definition, createdBy: userId, createdAt: at });
    return true;
  }

  // Resuming starts the schedule afresh: no tick from before it fires.
  async setState(
    teamId: string,
    id: string,
    state: 'active' | 'paused',
    userId: string,
    at: Date,
  ): Promise<boolean> {
    const rows = await this.db
      .update(pipelines)
      .set({
        state,
        updatedBy: userId,
        updatedAt: at,
        ...(state === 'active'
          ? {
              activeSince: sql`case when ${pipelines.state} = 'paused' then ${at} else ${pipelines.activeSince} end`,
            }
          : {}),
      })
      .where(and(eq(pipelines.teamId, teamId), eq(pipelines.id, id)))
      .returning({ id: pipelines.id });
    return rows.length > 0;
  }

  // Deletes the team's pipeline with its versions, runs and approvals; answers the ids of the
  // approvals that were still waiting, or undefined when the team has no such pipeline.
  async delete(teamId: string, id: string): Promise<string[] | undefined> {
    const waiting = await this.db
      .select({ id: pipelineApprovals.id })
      .from(pipelineApprovals)
      .where(
        and(
          eq(pipelineApprovals.teamId, teamId),
          eq(pipelineApprovals.pipelineId, id),
          eq(pipelineApprovals.state, 'waiting'),
        ),
      );
    const rows = await this.db
      .delete(pipelines)
      .where(and(eq(pipelines.teamId, teamId), eq(pipelines.id, id)))
      .returning({ id: pipelines.id });
    return rows.length > 0 ? waiting.map((approval) => approval.id) : undefined;
  }

  async findVersion(pipelineId: string, version: number): Promise<PipelineDefinition | undefined> {
    const [row] = await this.db
      .select({ definition: pipelineVersions.definition })
      .from(pipelineVersions)
      .where(and(eq(pipelineVersions.pipelineId, pipelineId), eq(pipelineVersions.version, version)));
    return row?.definition;
  }

  // Serialises the runs of one pipeline (a scheduled one and a run now), for the transaction: each
  // reads the streaks the other wrote.
  async lockPipeline(pipelineId: string): Promise<void> {
    await this.db.execute(sql`select pg_advisory_xact_lock(hashtext(${`pipeline:${pipelineId}`}))`);
  }

  // The claim of a scheduled tick: undefined when another worker (or an earlier attempt) has it. The
  // unique key makes a second insert wait for the first to commit, then find it.
  async insertScheduledRun(run: NewPipelineRun): Promise<string | undefined> {
    const [row] = await this.db
      .insert(pipelineRuns)
      .values(run)
      .onConflictDoNothing({
        target: [pipelineRuns.pipelineId, pipelineRuns.scheduledFor],
        where: sql`"trigger" = 'schedule'`,
      })
      .returning({ id: pipelineRuns.id });
    return row?.id;
  }

  async insertRun(run: NewPipelineRun): Promise<string> {
    const [row] = await this.db.insert(pipelineRuns).values(run).returning({ id: pipelineRuns.id });
    return row!.id;
  }

  async finishRun(
    runId: string,
    counts: RunCounts,
    state: PipelineRunRow['state'],
    finishedAt: Date | null,
  ): Promise<void> {
    await this.db
      .update(pipelineRuns)
      .set({ ...counts, state, finishedAt })
      .where(eq(pipelineRuns.id, runId));
  }

  // Locked for the transaction: the end of a run and a change of it settling never race.
  async lockRun(runId: string): Promise<PipelineRunRow | undefined> {
    const [row] = await this.db.select().from(pipelineRuns).where(eq(pipelineRuns.id, runId)).for('update');
    return row;
  }

  async findRun(teamId: string, runId: string): Promise<PipelineRunRow | undefined> {
    const [row] = await this.db
      .select()
      .from(pipelineRuns)
      .where(and(eq(pipelineRuns.teamId, teamId), eq(pipelineRuns.id, runId)));
    return row;
  }

  listRuns(pipelineId: string, page: { offset: number; limit: number }): Promise<PipelineRunRow[]> {
    return this.db
      .select()
      .from(pipelineRuns)
      .where(eq(pipelineRuns.pipelineId, pipelineId))
      .orderBy(desc(pipelineRuns.startedAt), desc(pipelineRuns.id))
      .offset(page.offset)
      .limit(page.limit);
  }

  async countRuns(pipelineId: string): Promise<number> {
    const [row] = await this.db
      .select({ total: count() })
      .from(pipelineRuns)
      .where(eq(pipelineRuns.pipelineId, pipelineId));
    return row?.total ?? 0;
  }

  // Each pipeline's newest run.
  async listLastRuns(pipelineIds: readonly string[]): Promise<PipelineRunRow[]> {
    if (pipelineIds.length === 0) return [];
    const rows = await this.db.execute<{ id: string }>(sql`
      select distinct on (pipeline_id) id from ${pipelineRuns}
       where pipeline_id in (${sql.join(
         pipelineIds.map((id) => sql`${id}::uuid`),
         sql`, `,
       )})
       order by pipeline_id, started_at desc, id desc`);
    const ids = rows.rows.map((row) => row.id);
    if (ids.length === 0) return [];
    return this.db.select().from(pipelineRuns).where(inArray(pipelineRuns.id, ids));
  }

  async insertItems(items: NewPipelineRunItem[]): Promise<PipelineRunItemRow[]> {
    if (items.length === 0) return [];
    return this.db.insert(pipelineRunItems).values(items).returning();
  }

  async updateItem(
    id: number,
    fields: Partial<Pick<PipelineRunItemRow, 'outcome' | 'reason' | 'detail'>>,
  ): Promise<void> {
    await this.db.update(pipelineRunItems).set(fields).where(eq(pipelineRunItems.id, id));
  }

  // The item's outcome, only while it is still matched (not acted on yet): false when another pass
  // got to it first. The row's lock holds a second pass until this one commits.
  async updateMatchedItem(
    id: number,
    fields: Partial<Pick<PipelineRunItemRow, 'outcome' | 'reason' | 'detail'>>,
  ): Promise<boolean> {
    const rows = await this.db
      .update(pipelineRunItems)
      .set(fields)
      .where(and(eq(pipelineRunItems.id, id), eq(pipelineRunItems.outcome, 'matched')))
      .returning({ id: pipelineRunItems.id });
    return rows.length > 0;
  }

  // The run's item of the resource, only while it is acted (its change asked for): false when it was
  // settled already.
  async updateActedItem(
    runId: string,
    resourceId: string,
    fields: Pick<PipelineRunItemRow, 'outcome' | 'reason' | 'detail'>,
  ): Promise<boolean> {
    const rows = await this.db
      .update(pipelineRunItems)
      .set(fields)
      .where(
        and(
          eq(pipelineRunItems.runId, runId),
          eq(pipelineRunItems.resourceId, resourceId),
          eq(pipelineRunItems.outcome, 'acted'),
        ),
      )
      .returning({ id: pipelineRunItems.id });
    return rows.length > 0;
  }

  // Runs for real still 'running' that started before `startedBefore`.
  listStalledRuns(startedBefore: Date): Promise<PipelineRunRow[]> {
    return this.db
      .select()
      .from(pipelineRuns)
      .where(
        and(
          eq(pipelineRuns.state, 'running'),
          eq(pipelineRuns.dryRun, false),
          lt(pipelineRuns.startedAt, startedBefore),
        ),
      )
      .orderBy(asc(pipelineRuns.startedAt));
  }

  listItems(runId: string): Promise<PipelineRunItemRow[]> {
    return this.db
      .select()
      .from(pipelineRunItems)
      .where(eq(pipelineRunItems.runId, runId))
      .orderBy(asc(pipelineRunItems.id));
  }

  listApprovalItems(approvalIds: readonly string[]): Promise<PipelineRunItemRow[]> {
    if (approvalIds.length === 0) return Promise.resolve([]);
    return this.db
      .select()
      .from(pipelineRunItems)
      .where(inArray(pipelineRunItems.approvalId, [...approvalIds]))
      .orderBy(asc(pipelineRunItems.id));
  }

  async readRunCounts(runId: string): Promise<RunCounts & { waiting: number }> {
    const [row] = await this.db
      .select({
        matched: count(),
        acted: sql<number>`count(*) filter (where ${pipelineRunItems.outcome} = 'acted')::int`,
        skipped: sql<number>`count(*) filter (where ${pipelineRunItems.outcome} = 'skipped')::int`,
        failed: sql<number>`count(*) filter (where ${pipelineRunItems.outcome} = 'failed')::int`,
        waiting: sql<number>`count(*) filter (where ${pipelineRunItems.reason} = 'awaitingApproval')::int`,
        annualSaving: sql<number>`coalesce(sum(${pipelineRunItems.annualSaving}) filter (where ${pipelineRunItems.outcome} in ('acted', 'matched')), 0)::float8`,
      })
      .from(pipelineRunItems)
      .where(eq(pipelineRunItems.runId, runId));
    return row!;
  }

  async listStreaks(pipelineId: string): Promise<Map<string, number>> {
    const rows = await this.db
      .select({ resourceId: pipelineStreaks.resourceId, count: pipelineStreaks.count })
      .from(pipelineStreaks)
      .where(eq(pipelineStreaks.pipelineId, pipelineId));
    return new Map(rows.map((row) => [row.resourceId, row.count]));
  }

  // After an evaluation: the resources it matched count one more in a row, those it evaluated and
  // did not match start again from none.
  async recordEvaluation(
    pipelineId: string,
    evaluatedIds: readonly string[],
    matchedIds: readonly string[],
    at: Date,
  ): Promise<void> {
    const unmatched = evaluatedIds.filter((id) => !matchedIds.includes(id));
    if (unmatched.length > 0) {
      await this.db
        .delete(pipelineStreaks)
        .where(
          and(eq(pipelineStreaks.pipelineId, pipelineId), inArray(pipelineStreaks.resourceId, unmatched)),
        );
    }
    if (matchedIds.length === 0) return;
    await this.db
      .insert(pipelineStreaks)
      .values(matchedIds.map((resourceId) => ({ pipelineId, resourceId, count: 1, lastMatchedAt: at })))
      .onConflictDoUpdate({
        target: [pipelineStreaks.pipelineId, pipelineStreaks.resourceId],
        set: { count: sql`${pipelineStreaks.count} + 1`, lastMatchedAt: at },
      });
  }

  async insertApproval(approval: Omit<typeof pipelineApprovals.$inferInsert, 'id'>): Promise<string> {
    const [row] = await this.db
      .insert(pipelineApprovals)
      .values(approval)
      .returning({ id: pipelineApprovals.id });
    return row!.id;
  }

  // The team's approvals still waiting for someone other than `userId`, oldest first.
  listWaitingApprovals(teamId: string, userId: string): Promise<PipelineApprovalRow[]> {
    return this.db
      .select()
      .from(pipelineApprovals)
      .where(
        and(
          eq(pipelineApprovals.teamId, teamId),
          eq(pipelineApprovals.state, 'waiting'),
          sql`${pipelineApprovals.proposedBy} is distinct from ${userId}`,
        ),
      )
      .orderBy(asc(pipelineApprovals.proposedAt), asc(pipelineApprovals.id));
  }

  async findApproval(teamId: string, id: string): Promise<PipelineApprovalRow | undefined> {
    const [row] = await this.db
      .select()
      .from(pipelineApprovals)
      .where(and(eq(pipelineApprovals.teamId, teamId), eq(pipelineApprovals.id, id)));
    return row;
  }

  // Locked for the transaction: a decision and the tick's carrying out never race.
  async lockApproval(teamId: string, id: string): Promise<PipelineApprovalRow | undefined> {
    const [row] = await this.db
      .select()
      .from(pipelineApprovals)
      .where(and(eq(pipelineApprovals.teamId, teamId), eq(pipelineApprovals.id, id)))
      .for('update');
    return row;
  }

  // Approved approvals whose grace period is over, one a transaction, skipping those another worker holds.
  async lockDueApproval(at: Date): Promise<PipelineApprovalRow | undefined> {
    const [row] = await this.db
      .select()
      .from(pipelineApprovals)
      .where(and(eq(pipelineApprovals.state, 'approved'), lte(pipelineApprovals.runsAfter, at)))
      .orderBy(asc(pipelineApprovals.runsAfter))
      .limit(1)
      .for('update', { skipLocked: true });
    return row;
  }

  async updateApproval(
    id: string,
    fields: Partial<Pick<PipelineApprovalRow, 'state' | 'decidedBy' | 'decidedAt' | 'carriedOutAt'>>,
  ): Promise<void> {
    await this.db.update(pipelineApprovals).set(fields).where(eq(pipelineApprovals.id, id));
  }

  async findPipelineName(pipelineId: string): Promise<string | undefined> {
    const [row] = await this.db
      .select({ name: pipelines.name })
      .from(pipelines)
      .where(eq(pipelines.id, pipelineId));
    return row?.name;
  }

  // The team's resources in the scope's tenants, subscriptions and resource groups (its tags are
  // matched by the caller), with their open recommendations and, when asked, their last 30 days' cost.
  async listCandidates(teamId: string, query: CandidateQuery): Promise<PipelineCandidate[]> {
    const { scope } = query;
    const rows = await this.db
      .select({
        resourceId: resources.id,
        tenantId: resources.tenantId,
        canWrite: tenants.canWrite,
        armId: resources.armId,
        name: resources.name,
        type: resources.type,
        subcategory: resources.subcategory,
        subscriptionId: subscriptions.subscriptionId,
        resourceGroup: resources.resourceGroup,
        powerState: resources.powerState,
        tags: resources.tags,
        details: resources.details,
        stateSince: resources.stateSince,
        maintenanceWindow: effectiveWindow,
        heldUntil: resources.recommendationsHeldUntil,
      })
      .from(resources)
      .innerJoin(tenants, eq(tenants.id, resources.tenantId))
      .innerJoin(teams, eq(teams.id, tenants.teamId))
      .innerJoin(subscriptions, eq(subscriptions.id, resources.subscriptionId))
      .where(
        and(
          eq(tenants.teamId, teamId),
          eq(tenants.isActive, true),
          scope.tenantIds?.length ? inArray(resources.tenantId, scope.tenantIds) : undefined,
          scope.subscriptionIds?.length
            ? inArray(sql`lower(${subscriptions.subscriptionId})`, scope.subscriptionIds)
            : undefined,
          scope.resourceGroups?.length
            ? inArray(
                sql`lower(${resources.resourceGroup})`,
                scope.resourceGroups.map((group) => group.toLowerCase()),
              )
            : undefined,
          query.windowHour === undefined ? undefined : sql`${effectiveWindow} = ${query.windowHour}`,
        ),
      )
      .orderBy(asc(resources.name), asc(resources.id));
    if (rows.length === 0) return [];
    const openRecommendations = await this.db
      .select({
        id: recommendations.id,
        resourceId: recommendations.resourceId,
        kind: recommendations.kind,
        confidence: recommendations.confidence,
        annualSaving: recommendations.annualCostSavings,
        text: recommendations.recommendation,
      })
      .from(recommendations)
      .where(and(eq(recommendations.teamId, teamId), eq(recommendations.status, 'open')));
    const byResource = new Map<string, PipelineCandidate['recommendations']>();
    for (const { resourceId, ...recommendation } of openRecommendations) {
      byResource.set(resourceId, [...(byResource.get(resourceId) ?? []), recommendation]);
    }
    const costs = query.costFrom ? await this.sumCosts(teamId, query.costFrom) : undefined;
    return rows.map((row) => ({
      ...row,
      maintenanceWindow: Number(row.maintenanceWindow),
      monthlyCost: costs ? (costs.get(`${row.tenantId} ${row.armId.toLowerCase()}`) ?? 0) : null,
      recommendations: byResource.get(row.resourceId) ?? [],
    }));
  }

  // The team's active pipelines that start VMs: what ends the off hours of a stop's VMs.
  async listStartPipelines(teamId: string): Promise<PipelineWithDefinition[]> {
    const rows = await this.selectWithDefinition()
      .where(
        and(
          eq(pipelines.teamId, teamId),
          eq(pipelines.state, 'active'),
          sql`${pipelineVersions.definition}->'action'->>'type' = 'start'`,
        ),
      )
      .orderBy(asc(pipelines.name), asc(pipelines.id));
    return rows.map(toPipeline);
  }

  // The list price an hour of each VM's size in its region (as costs' list-price column reads it), in
  // one read whatever the number of VMs; a VM whose size has no price read is absent.
  async listVmListPrices(resourceIds: readonly string[]): Promise<Map<string, number>> {
    if (resourceIds.length === 0) return new Map();
    const rows = await this.db
      .select({ resourceId: resources.id, hourlyPrice: vmPrices.hourlyPrice })
      .from(resources)
      .innerJoin(
        vmPrices,
        and(
          eq(vmPrices.region, resources.region),
          eq(vmPrices.sizeName, resources.sku),
          eq(vmPrices.osType, sql`coalesce(${resources.osType}, 'Linux')`),
        ),
      )
      .where(sql`${resources.id} = any(${sql.param([...resourceIds])}::uuid[])`);
    return new Map(rows.map((row) => [row.resourceId, row.hourlyPrice]));
  }

  // The hours (UTC) the team's resources have their maintenance window.
  async listWindowHours(teamId: string): Promise<number[]> {
    const rows = await this.db
      .selectDistinct({ hour: effectiveWindow })
      .from(resources)
      .innerJoin(tenants, eq(tenants.id, resources.tenantId))
      .innerJoin(teams, eq(teams.id, tenants.teamId))
      .where(eq(tenants.teamId, teamId));
    return rows.map((row) => Number(row.hour));
  }

  // The tenant and tags of each resource still there.
  async readResourceStates(
    resourceIds: readonly string[],
  ): Promise<Map<string, { tenantId: string; tags: Record<string, string> }>> {
    if (resourceIds.length === 0) return new Map();
    const rows = await this.db
      .select({ id: resources.id, tenantId: resources.tenantId, tags: resources.tags })
      .from(resources)
      .where(inArray(resources.id, [...resourceIds]));
    return new Map(rows.map(({ id, ...state }) => [id, state]));
  }

  async listTenantIds(teamId: string): Promise<string[]> {
    const rows = await this.db.select({ id: tenants.id }).from(tenants).where(eq(tenants.teamId, teamId));
    return rows.map((row) => row.id);
  }

  listMembers(teamId: string): Promise<{ id: string; email: string }[]> {
    return this.db
      .select({ id: users.id, email: users.email })
      .from(users)
      .where(eq(users.teamId, teamId))
      .orderBy(asc(users.email));
  }

  async readEmails(userIds: readonly (string | null)[]): Promise<Map<string, string>> {
    const ids = [...new Set(userIds.filter((id): id is string => id !== null))];
    if (ids.length === 0) return new Map();
    const rows = await this.db
      .select({ id: users.id, email: users.email })
      .from(users)
      .where(inArray(users.id, ids));
    return new Map(rows.map((row) => [row.id, row.email]));
  }

  private async sumCosts(teamId: string, from: string): Promise<Map<string, number>> {
    const rows = await this.db
      .select({
        tenantId: costDays.tenantId,
        resourceId: costDays.resourceId,
        cost: sql<number>`sum(${costDays.actualCost})::float8`,
      })
      .from(costDays)
      .innerJoin(tenants, eq(tenants.id, costDays.tenantId))
      .where(and(eq(tenants.teamId, teamId), gte(costDays.day, from)))
      .groupBy(costDays.tenantId, costDays.resourceId);
    return new Map(rows.map((row) => [`${row.tenantId} ${row.resourceId.toLowerCase()}`, row.cost]));
  }

  private selectWithDefinition() {
    return this.db
      .select({
        pipeline: pipelines,
        definition: pipelineVersions.definition,
        versionCreatedBy: pipelineVersions.createdBy,
      })
      .from(pipelines)
      .innerJoin(
        pipelineVersions,
        and(eq(pipelineVersions.pipelineId, pipelines.id), eq(pipelineVersions.version, pipelines.version)),
      )
      .$dynamic();
  }
}

function toPipeline(row: {
  pipeline: PipelineRow;
  definition: PipelineDefinition;
  versionCreatedBy: string | null;
}): PipelineWithDefinition {
  return { ...row.pipeline, definition: row.definition, versionCreatedBy: row.versionCreatedBy };
}
