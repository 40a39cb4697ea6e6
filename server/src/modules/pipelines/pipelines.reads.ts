// What pipelines read of other modules' tables, each answered by its owning module's repository on
// the Db given (the pool's, or a run's transaction's, so a run reads what its transaction sees): the
// team's resources in a scope with their open recommendations and last 30 days' cost (a run's
// candidates), window hours, list prices, tenants and members.
import type { PipelineScope } from '@cloudtrim/contracts/pipelines';
import type { Db } from '../../db/database';
import { CostsRepository } from '../costs/costs.repository';
import { RecommendationsRepository } from '../recommendations/recommendations.repository';
import { ResourcesRepository } from '../resources/resources.repository';
import { TeamRepository } from '../team/team.repository';
import { TenantsRepository } from '../tenants/tenants.repository';
import type { Decider } from './pipelines.approvals';
import type { PipelineCandidate } from './pipelines.match';

export interface CandidateQuery {
  scope: PipelineScope;
  // Only the resources whose maintenance window is this hour (UTC).
  windowHour?: number;
  // The last 30 days' cost from this day on, when the condition asks for it.
  costFrom?: string;
}

export class PipelineReads {
  private readonly resources: ResourcesRepository;
  private readonly team: TeamRepository;

  constructor(private readonly db: Db) {
    this.resources = new ResourcesRepository(db);
    this.team = new TeamRepository(db);
  }

  // The team's resources in the scope's tenants, subscriptions and resource groups (its tags are
  // matched by the caller), with their open recommendations and, when asked, their last 30 days' cost.
  async listCandidates(teamId: string, query: CandidateQuery): Promise<PipelineCandidate[]> {
    const rows = await this.resources.listInScope(teamId, query);
    if (rows.length === 0) return [];
    const openRecommendations = await new RecommendationsRepository(this.db).listOpenForTeam(teamId);
    const byResource = new Map<string, PipelineCandidate['recommendations']>();
    for (const { resourceId, ...recommendation } of openRecommendations) {
      byResource.set(resourceId, [...(byResource.get(resourceId) ?? []), recommendation]);
    }
    const costs = query.costFrom
      ? await new CostsRepository(this.db).sumResourceCostsSince(teamId, query.costFrom)
      : undefined;
    return rows.map((row) => ({
      ...row,
      monthlyCost: costs ? (costs.get(`${row.tenantId} ${row.armId.toLowerCase()}`) ?? 0) : null,
      recommendations: byResource.get(row.resourceId) ?? [],
    }));
  }

  listWindowHours(teamId: string): Promise<number[]> {
    return this.resources.listWindowHours(teamId);
  }

  listVmListPrices(resourceIds: readonly string[]): Promise<Map<string, number>> {
    return this.resources.listVmListPrices(resourceIds);
  }

  // The tenant and tags of each resource still there.
  readResourceStates(
    resourceIds: readonly string[],
  ): Promise<Map<string, { tenantId: string; tags: Record<string, string> }>> {
    return this.resources.readTenantsAndTags(resourceIds);
  }

  listTenantIds(teamId: string): Promise<string[]> {
    return new TenantsRepository(this.db).listIdsForTeam(teamId);
  }

  listMembers(teamId: string): Promise<{ id: string; email: string }[]> {
    return this.team.listMemberEmails(teamId);
  }

  readEmails(userIds: readonly (string | null)[]): Promise<Map<string, string>> {
    return this.team.readEmails(userIds);
  }

  // The user as a member of the team; undefined when they are in another team.
  findDecider(teamId: string, userId: string): Promise<Decider | undefined> {
    return this.team.findDecider(teamId, userId);
  }
}
