import { sql, type SQL } from 'drizzle-orm';
import type { ScopeItem, ScopeRequest } from '@cloudtrim/contracts/scope';
import type { Db } from '../../db/database';

export interface ScopePage {
  items: ScopeItem[];
  totalCount: number;
}

type ScopeRow = {
  value: string;
  label: string;
  tenantId: string | null;
  subscriptionId: string | null;
  total: number;
};

// The team's estate as inventory holds it, one kind a query, a page at a time (with the count of
// all that match). Everything hangs from the team: another team's tenant narrows to nothing.
export class ScopeRepository {
  constructor(private readonly db: Db) {}

  async listPage(teamId: string, request: ScopeRequest, limit: number): Promise<ScopePage> {
    const offset = (request.page - 1) * limit;
    const search = request.search ? `%${escapeLike(request.search.toLowerCase())}%` : undefined;
    const tenant = request.tenantId ? sql`and tenant.id = ${request.tenantId}::uuid` : sql``;
    const subscriptionOfResource = request.subscriptionId
      ? sql`and lower(resource.arm_id) like ${`/subscriptions/${request.subscriptionId.toLowerCase()}/%`}`
      : sql``;
    const matches = (column: SQL) => (search ? sql`and lower(${column}) like ${search}` : sql``);
    let query: SQL;
    if (request.kind === 'tenants') {
      query = sql`
        select tenant.id::text as value, tenant.friendly_name as label, tenant.id::text as "tenantId",
               null as "subscriptionId"
        from tenant where tenant.team_id = ${teamId}::uuid ${tenant} ${matches(sql`tenant.friendly_name`)}`;
    } else if (request.kind === 'subscriptions') {
      query = sql`
        select lower(subscription.subscription_id) as value, subscription.display_name as label,
               tenant.id::text as "tenantId", lower(subscription.subscription_id) as "subscriptionId"
        from subscription join tenant on tenant.id = subscription.tenant_id
        where tenant.team_id = ${teamId}::uuid ${tenant}
          ${request.subscriptionId ? sql`and lower(subscription.subscription_id) = ${request.subscriptionId.toLowerCase()}` : sql``}
          ${search ? sql`and (lower(subscription.display_name) like ${search} or lower(subscription.subscription_id) like ${search})` : sql``}`;
    } else if (request.kind === 'resourceGroups') {
      query = sql`
        select min(resource.resource_group) as value, min(resource.resource_group) as label,
               min(tenant.id::text) as "tenantId",
               split_part(lower(resource.arm_id), '/', 3) as "subscriptionId"
        from resource join tenant on tenant.id = resource.tenant_id
        where tenant.team_id = ${teamId}::uuid ${tenant} ${subscriptionOfResource}
          ${matches(sql`resource.resource_group`)}
        group by lower(resource.resource_group), split_part(lower(resource.arm_id), '/', 3)`;
    } else if (request.kind === 'tagKeys') {
      query = sql`
        select tag.key as value, tag.key as label, null as "tenantId", null as "subscriptionId"
        from resource join tenant on tenant.id = resource.tenant_id
        cross join lateral jsonb_object_keys(resource.tags) as tag(key)
        where tenant.team_id = ${teamId}::uuid ${tenant} ${subscriptionOfResource} ${matches(sql`tag.key`)}
        group by tag.key`;
    } else {
      query = sql`
        select tag.value, tag.value as label, null as "tenantId", null as "subscriptionId"
        from resource join tenant on tenant.id = resource.tenant_id
        cross join lateral (select resource.tags ->> ${request.tagKey!} as value) as tag
        where tenant.team_id = ${teamId}::uuid ${tenant} ${subscriptionOfResource}
          and tag.value is not null ${matches(sql`tag.value`)}
        group by tag.value`;
    }
    const result = await this.db.execute<ScopeRow>(sql`
      select listed.*, count(*) over ()::int as total
      from (${query}) as listed
      order by lower(listed.label), listed.value
      limit ${limit} offset ${offset}`);
    return {
      items: result.rows.map((row) => ({
        Value: row.value,
        Label: row.label,
        ...(row.tenantId ? { TenantId: row.tenantId } : {}),
        ...(row.subscriptionId ? { SubscriptionId: row.subscriptionId } : {}),
      })),
      totalCount: result.rows[0]?.total ?? (offset > 0 ? await this.count(query) : 0),
    };
  }

  // A page past the end still says how many there are.
  private async count(query: SQL): Promise<number> {
    const result = await this.db.execute<{ total: number }>(
      sql`select count(*)::int as total from (${query}) as listed`,
    );
    return result.rows[0]?.total ?? 0;
  }
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}
