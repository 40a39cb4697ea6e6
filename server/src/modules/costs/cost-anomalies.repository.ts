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

  // Amortized: a reservation's purchase is a commitment, not an anomaly of use, and it spreads over
  // the days it covers. Rows costing nothing (a re-read zeroed them) are left out.
  async listResourceDays(tenantId: string, from: string, to: string): Promise<ResourceDayRow[]> {
    const result = await this.db.execute<ResourceDayRow>(sql`
      select subscription_id as "subscriptionId", resource_group as "resourceGroup",
             service_name as "serviceName", resource_id as "resourceId",
             to_char(day, 'YYYY-MM-DD') as "day", amortized_cost as "cost", currency
      from cost_day
      where tenant_id = ${tenantId}::uuid and day between ${from}::date and ${to}::date
        and amortized_cost <> 0
    `);
    return result.rows;
  }
}
