// What the anomaly search reads of a tenant's bill: each resource's daily amortized cost with its
// subscription, resource group and service (cost_day), and the names an alert shows.
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/database';

export type ResourceDayRow = {
  subscriptionId: string;
  resourceGroup: string;
  serviceName: string;
  resourceId: string;
  day: string;
  cost: number;
  currency: string;
};

export type AnomalyTenant = {
  teamId: string;
  friendlyName: string;
  isActive: boolean;
};

export class CostAnomaliesRepository {
  constructor(private readonly db: Db) {}

  async findTenant(tenantId: string): Promise<AnomalyTenant | undefined> {
    const result = await this.db.execute<AnomalyTenant>(sql`
      select team_id as "teamId", friendly_name as "friendlyName", is_active as "isActive"
      from tenant where id = ${tenantId}::uuid
    `);
    return result.rows[0];
  }

  // Display names by Azure subscription id, lower case as the bill spells it.
  async listSubscriptionNames(tenantId: string): Promise<Map<string, string>> {
    const result = await this.db.execute<{ subscriptionId: string; displayName: string }>(sql`
      select lower(subscription_id) as "subscriptionId", display_name as "displayName"
      from subscription where tenant_id = ${tenantId}::uuid
    `);
    return new Map(result.rows.map((row) => [row.subscriptionId, row.displayName]));
  }

  // Each scope's daily cost (subscription, resource group, service), less the resources named:
  // summed here, so a tenant of thousands of resources sends a few thousand rows, not millions.
  // Amortized: a reservation's purchase is a commitment, not an anomaly of use, and it spreads over
  // the days it covers.
  async listScopeDays(
    tenantId: string,
    from: string,
    to: string,
    excludedResourceIds: readonly string[],
  ): Promise<ResourceDayRow[]> {
    const result = await this.db.execute<ResourceDayRow>(sql`
      select subscription_id as "subscriptionId", resource_group as "resourceGroup",
             service_name as "serviceName", '' as "resourceId", to_char(day, 'YYYY-MM-DD') as "day",
             sum(amortized_cost)::float8 as "cost", min(currency) as currency
      from cost_day
      where tenant_id = ${tenantId}::uuid and day between ${from}::date and ${to}::date
        and amortized_cost <> 0
        and resource_id <> all(${sql.param([...excludedResourceIds])}::text[])
      group by subscription_id, resource_group, service_name, day
    `);
    return result.rows;
  }

  // Each resource's daily cost, of one scope or of the resources named.
  async listResourceDays(
    tenantId: string,
    from: string,
    to: string,
    only:
      | { resourceIds: readonly string[] }
      | { subscriptionId: string; resourceGroup: string; serviceName: string },
  ): Promise<ResourceDayRow[]> {
    const condition =
      'resourceIds' in only
        ? sql`resource_id = any(${sql.param([...only.resourceIds])}::text[])`
        : sql`subscription_id = ${only.subscriptionId} and lower(resource_group) = lower(${only.resourceGroup})
              and service_name = ${only.serviceName}`;
    const result = await this.db.execute<ResourceDayRow>(sql`
      select subscription_id as "subscriptionId", resource_group as "resourceGroup",
             service_name as "serviceName", resource_id as "resourceId",
             to_char(day, 'YYYY-MM-DD') as "day", amortized_cost as "cost", currency
      from cost_day
      where tenant_id = ${tenantId}::uuid and day between ${from}::date and ${to}::date
        and amortized_cost <> 0 and ${condition}
    `);
    return result.rows;
  }
}
