import { automationValues } from '@cloudtrim/contracts/automation';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db, Executor } from '../../db/database';
import { resources, subscriptions, teams, tenants, vmPrices } from '../../db/schema';
import { isoTimestampSql } from '../../lib/time';
import { bumpResourcesVersion } from '../tenants/tenants.repository';

export interface ResourceSettingsRow {
  id: string;
  tenantId: string;
  armId: string;
  name: string;
  automated: number;
  maintenanceWindow: number | null;
  // The team's hour for resources without one of their own.
  defaultMaintenanceWindow: number;
}

export type TenantResourcesVersion = {
  tenantId: string;
  version: number;
};

export interface ResourceAutomationSettings {
  automated: number;
  maintenanceWindow: number | null;
}

export interface ResourceSearchRow {
  armId: string;
  name: string;
  category: string;
  subcategory: string;
  automated: number;
  maintenanceWindow: number | null;
  predictionMethod: string;
  tenantId: string;
  subscriptionName: string | null;
  resourceGroup: string;
}

// Which of the team's resources a pipeline's scope takes (its tags are matched by the caller), and,
// when given, only those whose maintenance window is this hour (UTC).
export interface ResourceScopeQuery {
  scope: { tenantIds?: string[]; subscriptionIds?: string[]; resourceGroups?: string[] };
  windowHour?: number;
}

const effectiveWindow = sql<number>`coalesce(${resources.maintenanceWindow}, ${teams.defaultMaintenanceWindow})`;

export class ResourcesRepository {
  constructor(private readonly db: Db) {}

  // The team's tenants in the Cloud Resources list's order (by name, then id), each with the version
  // of its resources: the list changes whenever one of them changes, or a tenant comes or goes.
  async readTeamTenantVersions(teamId: string): Promise<TenantResourcesVersion[]> {
    const result = await this.db.execute<TenantResourcesVersion>(sql`
      select id as "tenantId", resources_version as version
      from tenant where team_id = ${teamId}::uuid
      order by friendly_name, id
    `);
    return result.rows;
  }

  // One tenant's part of the Cloud Resources list: its resources as JSON objects in the contract's
  // field names, comma-separated, sorted by resource group and the name SPEC shows (the id's last
  // segment); the team's list is its tenants' parts in tenant order. PostgreSQL concatenates the
  // text (a third of the time row_to_json took): Node neither parses rows nor serialises objects.
  async readTenantResourcesJson(tenantId: string): Promise<string> {
    const text = (value: unknown) => sql`coalesce(to_json(${value})::text, 'null')`;
    const result = await this.db.execute<{ body: string }>(sql`
      select coalesce(string_agg(listed.json, ',' order by listed.group_order, listed.name_order, listed.id), '')
               as body
      from (
        select '{"ResourceId":' || ${text(sql`resource.arm_id`)}
               || ',"ResourceType":' || ${text(sql`resource.type`)}
               || ',"SubscriptionName":' || ${text(sql`subscription.display_name`)}
               || ',"ResourceGroup":' || ${text(sql`nullif(resource.resource_group, '')`)}
               || ',"TenantId":"' || tenant.id::text
               || '","TenantName":' || ${text(sql`tenant.friendly_name`)}
               || ',"LastRead":' || ${text(isoTimestampSql(sql`resource.last_read`))}
               || ',"Automated":' || case when resource.automated = ${automationValues.automated} then '1' else '0' end
               || ',"ActiveHoursStart":' || coalesce(resource.active_hours_start::text, 'null')
               || ',"ActiveHoursEnd":' || coalesce(resource.active_hours_end::text, 'null')
               || '}' as json,
               lower(resource.resource_group) as group_order,
               lower(split_part(resource.arm_id, '/', -1)) as name_order,
               resource.id
        from resource
        join tenant on tenant.id = resource.tenant_id
        left join subscription on subscription.id = resource.subscription_id
        where resource.tenant_id = ${tenantId}::uuid
      ) as listed
    `);
    return result.rows[0]?.body ?? '';
  }

  async findForTeam(teamId: string, armId: string): Promise<ResourceSettingsRow | undefined> {
    const [row] = await this.db
      .select({
        id: resources.id,
        tenantId: resources.tenantId,
        armId: resources.armId,
        name: resources.name,
        automated: resources.automated,
        maintenanceWindow: resources.maintenanceWindow,
        defaultMaintenanceWindow: teams.defaultMaintenanceWindow,
      })
      .from(resources)
      .innerJoin(tenants, eq(tenants.id, resources.tenantId))
      .innerJoin(teams, eq(teams.id, tenants.teamId))
      .where(and(eq(tenants.teamId, teamId), eq(sql`lower(${resources.armId})`, armId.toLowerCase())))
      .limit(1);
    return row;
  }

  // Setting new active hours marks the boundaries before `at` as handled: hours set at noon act
  // from their next boundary, never on one that passed before they existed.
  async updateSettings(
    resource: ResourceSettingsRow,
    settings: { automated: number; activeHoursStart: number; activeHoursEnd: number },
    at: Date,
  ): Promise<void> {
    await this.db.transaction(async (transaction) => {
      await transaction
        .update(resources)
        .set({
          ...settings,
          activeHoursBoundaryAt: sql`case
            when ${resources.activeHoursStart} is distinct from ${settings.activeHoursStart}
              or ${resources.activeHoursEnd} is distinct from ${settings.activeHoursEnd}
            then ${at.toISOString()}::timestamptz else ${resources.activeHoursBoundaryAt} end`,
        })
        .where(eq(resources.id, resource.id));
      await bumpResourcesVersion(transaction, resource.tenantId);
    });
  }

  // The settings, and the list version when the Cloud Resources list shows the change (it shows
  // Automated as 1 or 0, not the window). The changes they affect are automation's to follow.
  async updateAutomation(
    resource: ResourceSettingsRow,
    settings: ResourceAutomationSettings,
  ): Promise<{ previousWindow: number | null } | undefined> {
    return this.db.transaction(async (transaction) => {
      const [previous] = await transaction
        .select({ automated: resources.automated, maintenanceWindow: resources.maintenanceWindow })
        .from(resources)
        .where(eq(resources.id, resource.id))
        .for('update');
      if (!previous) return undefined;
      await transaction
        .update(resources)
        .set({
          automated: settings.automated,
          maintenanceWindow: settings.maintenanceWindow,
          // Leaving No Change makes the resource due for analysis again.
          ...(previous.automated === automationValues.noChange &&
          settings.automated !== automationValues.noChange
            ? { analysedUntil: null }
            : {}),
        })
        .where(eq(resources.id, resource.id));
      if (
        (previous.automated === automationValues.automated) !==
        (settings.automated === automationValues.automated)
      ) {
        await bumpResourcesVersion(transaction, resource.tenantId);
      }
      return { previousWindow: previous.maintenanceWindow };
    });
  }

  // Case-insensitive substring of the name or the ARM id.
  async search(teamId: string, text: string, limit: number): Promise<ResourceSearchRow[]> {
    const pattern = `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
    const result = await this.db.execute<{ [Key in keyof ResourceSearchRow]: ResourceSearchRow[Key] }>(sql`
      select resource.arm_id as "armId", resource.name, resource.category, resource.subcategory,
             resource.automated, resource.maintenance_window as "maintenanceWindow",
             resource.prediction_method as "predictionMethod", resource.tenant_id as "tenantId",
             subscription.display_name as "subscriptionName", resource.resource_group as "resourceGroup"
      from resource
      join tenant on tenant.id = resource.tenant_id
      left join subscription on subscription.id = resource.subscription_id
      where tenant.team_id = ${teamId}::uuid
        and (resource.name ilike ${pattern} or resource.arm_id ilike ${pattern})
      order by lower(resource.name), resource.id
      limit ${limit}
    `);
    return result.rows;
  }

  // The team's resources of active tenants in the scope's tenants, subscriptions and resource groups
  // (a pipeline's candidates; its tags are matched by the caller), with each one's maintenance window
  // (its own hour, else its team's), by name. One read: tenant, team and subscription are joined in.
  async listInScope(teamId: string, query: ResourceScopeQuery) {
    const { scope } = query;
    const rows = await this.db
      .select({
        resourceId: resources.id,
        tenantId: resources.tenantId,
        canWrite: tenants.canWrite,
        armId: resources.armId,
        name: resources.name,
        type: resources.type,
        subcategory: resources.subcategory,
        subscriptionId: subscriptions.subscriptionId,
        resourceGroup: resources.resourceGroup,
        powerState: resources.powerState,
        tags: resources.tags,
        details: resources.details,
        stateSince: resources.stateSince,
        maintenanceWindow: effectiveWindow,
        heldUntil: resources.recommendationsHeldUntil,
      })
      .from(resources)
      .innerJoin(tenants, eq(tenants.id, resources.tenantId))
      .innerJoin(teams, eq(teams.id, tenants.teamId))
      .innerJoin(subscriptions, eq(subscriptions.id, resources.subscriptionId))
      .where(
        and(
          eq(tenants.teamId, teamId),
          eq(tenants.isActive, true),
          scope.tenantIds?.length ? inArray(resources.tenantId, scope.tenantIds) : undefined,
          scope.subscriptionIds?.length
            ? inArray(sql`lower(${subscriptions.subscriptionId})`, scope.subscriptionIds)
            : undefined,
          scope.resourceGroups?.length
            ? inArray(
                sql`lower(${resources.resourceGroup})`,
                scope.resourceGroups.map((group) => group.toLowerCase()),
              )
            : undefined,
          query.windowHour === undefined ? undefined : sql`${effectiveWindow} = ${query.windowHour}`,
        ),
      )
      .orderBy(asc(resources.name), asc(resources.id));
    return rows.map((row) => ({ ...row, maintenanceWindow: Number(row.maintenanceWindow) }));
  }

  // The hours (UTC) the team's resources have their maintenance window.
  async listWindowHours(teamId: string): Promise<number[]> {
    const rows = await this.db
      .selectDistinct({ hour: effectiveWindow })
      .from(resources)
      .innerJoin(tenants, eq(tenants.id, resources.tenantId))
      .innerJoin(teams, eq(teams.id, tenants.teamId))
      .where(eq(tenants.teamId, teamId));
    return rows.map((row) => Number(row.hour));
  }

  // The tenant and tags of each resource still there.
  async readTenantsAndTags(
    resourceIds: readonly string[],
  ): Promise<Map<string, { tenantId: string; tags: Record<string, string> }>> {
    if (resourceIds.length === 0) return new Map();
    const rows = await this.db
      .select({ id: resources.id, tenantId: resources.tenantId, tags: resources.tags })
      .from(resources)
      .where(inArray(resources.id, [...resourceIds]));
    return new Map(rows.map(({ id, ...state }) => [id, state]));
  }

  // The list price an hour of each VM's size in its region (as costs' list-price column reads it), in
  // one read whatever the number of VMs: pricing's vm_price is joined in, by region, size and OS. A VM
  // whose size has no price read is absent.
  async listVmListPrices(resourceIds: readonly string[]): Promise<Map<string, number>> {
    if (resourceIds.length === 0) return new Map();
    const rows = await this.db
      .select({ resourceId: resources.id, hourlyPrice: vmPrices.hourlyPrice })
      .from(resources)
      .innerJoin(
        vmPrices,
        and(
          eq(vmPrices.region, resources.region),
          eq(vmPrices.sizeName, resources.sku),
          eq(vmPrices.osType, sql`coalesce(${resources.osType}, 'Linux')`),
        ),
      )
      .where(sql`${resources.id} = any(${sql.param([...resourceIds])}::uuid[])`);
    return new Map(rows.map((row) => [row.resourceId, row.hourlyPrice]));
  }
}

export async function readResourceRegion(db: Executor, resourceId: string): Promise<string | undefined> {
  const [row] = await db
    .select({ region: resources.region })
    .from(resources)
    .where(eq(resources.id, resourceId));
  return row?.region;
}
