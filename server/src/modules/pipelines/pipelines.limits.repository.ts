// The queries behind a team's pipeline limits (pipelines.limits.ts): the team's lock for counting,
// the count of its pipelines, and the purge of old run items.
import { and, eq, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { pipelineRunItems, pipelineRuns, pipelines } from '../../db/schema';

export class PipelineLimitsRepository {
  constructor(private readonly db: Db) {}

  // Serialises, for the transaction, what counts against one team's limits.
  async lockTeam(teamId: string): Promise<void> {
    await this.db.execute(sql`select pg_advisory_xact_lock(hashtext(${`pipeline-limits:${teamId}`}))`);
  }

  async countPipelines(teamId: string): Promise<number> {
    const [row] = await this.db
      .select({ count: sql<number>`count(*)::int` })
      .from(pipelines)
      .where(eq(pipelines.teamId, teamId));
    return row!.count;
  }

  // The items of runs started before `before`; answers how many went.
  async purgeRunItems(before: Date): Promise<number> {
    const result = await this.db
      .delete(pipelineRunItems)
      .where(
        and(
          sql`${pipelineRunItems.runId} in (select ${pipelineRuns.id} from ${pipelineRuns} where ${lt(pipelineRuns.startedAt, before)})`,
        ),
      );
    return result.rowCount ?? 0;
  }
}
