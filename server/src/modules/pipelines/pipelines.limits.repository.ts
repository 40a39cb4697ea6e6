// The queries behind a team's pipeline limits (pipelines.limits.ts): the team's lock for counting,
// the count of its pipelines and of what it acted on in the hour, and the purge of old run items.
import { and, eq, gte, inArray, isNull, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import {
  pipelineApprovals,
  pipelineRunItems,
  pipelineRuns,
  pipelines,
  pipelineVersions,
  teamPipelineLimits,
} from '../../db/schema';
import { defaultTeamBlastRadius } from './pipelines.limits';

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

  async readBlastRadius(teamId: string): Promise<number> {
    const [row] = await this.db
      .select({ blastRadiusPerHour: teamPipelineLimits.blastRadiusPerHour })
      .from(teamPipelineLimits)
      .where(eq(teamPipelineLimits.teamId, teamId));
    return row?.blastRadiusPerHour ?? defaultTeamBlastRadius;
  }

  async setBlastRadius(teamId: string, blastRadiusPerHour: number, at: Date): Promise<void> {
    await this.db
      .insert(teamPipelineLimits)
      .values({ teamId, blastRadiusPerHour, updatedAt: at })
      .onConflictDoUpdate({ target: teamPipelineLimits.teamId, set: { blastRadiusPerHour, updatedAt: at } });
  }

  // The resources the team's pipelines acted on (or are applying a recommendation to) in the hour
  // since `since`: what counts against the team's blast radius an hour (a notice changes nothing, and
  // does not count). An item a run acted on counts from the run's start; an approved item from when
  // its approval was carried out, however long ago the run proposed it.
  async countActedSince(teamId: string, since: Date): Promise<number> {
    const isActing = sql`(${pipelineRunItems.outcome} = 'acted' or (${pipelineRunItems.outcome} = 'matched' and not ${pipelineRuns.dryRun}))`;
    const [byRuns] = await this.db
      .select({ count: sql<number>`count(*)::int` })
      .from(pipelineRunItems)
      .innerJoin(pipelineRuns, eq(pipelineRuns.id, pipelineRunItems.runId))
      .innerJoin(
        pipelineVersions,
        and(
          eq(pipelineVersions.pipelineId, pipelineRuns.pipelineId),
          eq(pipelineVersions.version, pipelineRuns.version),
        ),
      )
      .where(
        and(
          eq(pipelineRuns.teamId, teamId),
          gte(pipelineRuns.startedAt, since),
          isNull(pipelineRunItems.approvalId),
          sql`${pipelineVersions.definition}->'action'->>'type' <> 'notify'`,
          isActing,
        ),
      );
    const [byApprovals] = await this.db
      .select({ count: sql<number>`count(*)::int` })
      .from(pipelineRunItems)
      .innerJoin(pipelineApprovals, eq(pipelineApprovals.id, pipelineRunItems.approvalId))
      .innerJoin(pipelineRuns, eq(pipelineRuns.id, pipelineRunItems.runId))
      .where(
        and(
          eq(pipelineApprovals.teamId, teamId),
          gte(pipelineApprovals.carriedOutAt, since),
          sql`${pipelineApprovals.action}->>'type' <> 'notify'`,
          isActing,
        ),
      );
    return byRuns!.count + byApprovals!.count;
  }

  // The scheduled ticks these pipelines have runs for since `since`, as `pipelineId:tick` (ISO).
  async listClaimedTicks(pipelineIds: readonly string[], since: Date): Promise<Set<string>> {
    if (pipelineIds.length === 0) return new Set();
    const rows = await this.db
      .select({ pipelineId: pipelineRuns.pipelineId, scheduledFor: pipelineRuns.scheduledFor })
      .from(pipelineRuns)
      .where(
        and(
          inArray(pipelineRuns.pipelineId, [...pipelineIds]),
          eq(pipelineRuns.trigger, 'schedule'),
          gte(pipelineRuns.scheduledFor, since),
        ),
      );
    return new Set(rows.map((row) => `${row.pipelineId}:${row.scheduledFor.toISOString()}`));
  }

  // The items of runs started before `before`; answers how many went.
  async purgeRunItems(before: Date): Promise<number> {
    const result = await this.db
      .delete(pipelineRunItems)
      .where(
        sql`${pipelineRunItems.runId} in (select ${pipelineRuns.id} from ${pipelineRuns} where ${lt(pipelineRuns.startedAt, before)})`,
      );
    return result.rowCount ?? 0;
  }
}
