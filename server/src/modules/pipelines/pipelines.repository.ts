// Pipelines and their versions (the definitions), and the in-a-row streaks a scheduled run counts.
// Built on whichever Db it is given: the pool's, or a transaction's (db/transaction.ts), so a run's
// claim, items, streaks, approval and changes commit together. Runs and items are in
// pipelines.runs.repository.ts, approvals in pipelines.approvals.repository.ts; what a run reads of
// other modules' tables (resources, recommendations, costs, tenants, members) their repositories answer.
import type { PipelineDefinition } from '@cloudtrim/contracts/pipelines';
import { and, asc, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { pipelineApprovals, pipelines, pipelineStreaks, pipelineVersions } from '../../db/schema';

export type PipelineRow = typeof pipelines.$inferSelect;

export interface PipelineWithDefinition extends PipelineRow {
  definition: PipelineDefinition;
  // Who saved the current version: the proposer of its scheduled runs.
  versionCreatedBy: string | null;
}

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

  async findPipelineName(pipelineId: string): Promise<string | undefined> {
    const [row] = await this.db
      .select({ name: pipelines.name })
      .from(pipelines)
      .where(eq(pipelines.id, pipelineId));
    return row?.name;
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
