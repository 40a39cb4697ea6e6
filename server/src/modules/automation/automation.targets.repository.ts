// The recommendations automation applies: one a user or a pipeline asked for, with the resource,
// tenant and team facts the apply needs, and the open ones of Automated resources still to plan.
import { automationValues } from '@cloudtrim/contracts/automation';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { recommendations, resources, teams, tenants } from '../../db/schema';
import type { RecommendationKind } from './automation.rows';

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

export class ApplyTargetRepository {
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
