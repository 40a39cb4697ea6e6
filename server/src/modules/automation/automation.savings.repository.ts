// The changes the costs module measures and forecasts from: applied resizes and shutdowns whose
// saving is not measured yet, and planned ones with what their recommendation promised.
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/database';

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

export class ChangeSavingsRepository {
  constructor(private readonly db: Db) {}

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
}
