// A pipeline's runs and their items: the claim of a scheduled tick, the items a run writes, their
// outcomes as they are acted on and settled, and the counts a run ends with. Built on whichever Db it
// is given, as pipelines.repository.ts is.
import { and, asc, count, desc, eq, inArray, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { pipelineRunItems, pipelineRuns } from '../../db/schema';

export type PipelineRunRow = typeof pipelineRuns.$inferSelect;
export type PipelineRunItemRow = typeof pipelineRunItems.$inferSelect;
export type NewPipelineRunItem = Omit<typeof pipelineRunItems.$inferInsert, 'id'>;
export type NewPipelineRun = Omit<typeof pipelineRuns.$inferInsert, 'id'>;

export interface RunCounts {
  matched: number;
  acted: number;
  skipped: number;
  failed: number;
  annualSaving: number;
}

export class RunsRepository {
  constructor(private readonly db: Db) {}

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
}
