// The inventory side of PostgreSQL: subscriptions and resources as the last sync saw them, and the
// metric rows each resource gets. Bulk statements pass whole columns as arrays (unnest), so a sync
// of thousands of resources is a handful of round trips.
import { and, eq, notInArray, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { subscriptions } from '../../db/schema';

export interface InventoryResource {
  armId: string;
  name: string;
  type: string;
  category: string;
  subcategory: string;
  resourceGroup: string;
  region: string;
  sku: string | null;
  powerState: string | null;
  tags: Record<string, string>;
  // Virtual machines only (null otherwise, or where Azure does not say): what sizing must respect.
  osType: 'Linux' | 'Windows' | null;
  dataDiskCount: number | null;
  nicCount: number | null;
  hasPremiumDisk: boolean | null;
  hasAcceleratedNetworking: boolean | null;
  // Disks, public IPs, plans and databases: their type's facts (CloudResource.details); {} otherwise.
  details: Record<string, unknown>;
}

export interface SubscriptionRow {
  id: string;
  subscriptionId: string;
  displayName: string;
}

export interface RemovedResource {
  armId: string;
  name: string;
}

export interface MetricDefinitionRow {
  type: string;
  name: string;
  unit: string;
  // Only for resources whose lower-cased SKU matches (a DTU database's DTU metric).
  skuPattern?: string;
}

const upsertChunkSize = 2000;

export class InventoryRepository {
  constructor(private readonly db: Db) {}

  // Subscriptions the principal no longer reads go, and their resources with them.
  async replaceSubscriptions(
    tenantId: string,
    seen: { subscriptionId: string; displayName: string; state: string }[],
  ): Promise<{ rows: SubscriptionRow[]; removed: SubscriptionRow[] }> {
    return this.db.transaction(async (transaction) => {
      const removed = await transaction
        .delete(subscriptions)
        .where(
          and(
            eq(subscriptions.tenantId, tenantId),
            seen.length > 0
              ? notInArray(
                  subscriptions.subscriptionId,
                  seen.map((subscription) => subscription.subscriptionId),
                )
              : undefined,
          ),
        )
        .returning({
          id: subscriptions.id,
          subscriptionId: subscriptions.subscriptionId,
          displayName: subscriptions.displayName,
        });
      const rows: SubscriptionRow[] = [];
      for (const subscription of seen) {
        const [row] = await transaction
          .insert(subscriptions)
          .values({ tenantId, ...subscription })
          .onConflictDoUpdate({
            target: [subscriptions.tenantId, subscriptions.subscriptionId],
            set: { displayName: subscription.displayName, state: subscription.state },
          })
          .returning({
            id: subscriptions.id,
            subscriptionId: subscriptions.subscriptionId,
            displayName: subscriptions.displayName,
          });
        rows.push(row!);
      }
      if (removed.length > 0) await transaction.execute(recountTenantResources(tenantId));
      return { rows, removed };
    });
  }

  // Upserts what Azure listed and deletes what it no longer lists, in one transaction, so the
  // resource list never shows half a sync. User settings (automation, active hours) are untouched.
  async replaceSubscriptionResources(
    tenantId: string,
    subscriptionRowId: string,
    listed: InventoryResource[],
    readAt: Date,
  ): Promise<{ insertedCount: number; removed: RemovedResource[] }> {
    return this.db.transaction(async (transaction) => {
      let insertedCount = 0;
      for (let start = 0; start < listed.length; start += upsertChunkSize) {
        const chunk = listed.slice(start, start + upsertChunkSize);
        const result = await transaction.execute<{ inserted: number }>(sql`
          with upserted as (
            insert into resource (tenant_id, subscription_id, arm_id, name, type, category, subcategory,
                                  resource_group, region, sku, power_state, os_type, data_disk_count,
                                  nic_count, has_premium_disk, has_accelerated_networking, tags, details,
                                  last_read, state_since)
            select ${tenantId}::uuid, ${subscriptionRowId}::uuid, listed.*, ${readAt.toISOString()}::timestamptz,
                   case when ${stateOf(sql`listed`)} is not null
                     then coalesce((listed.details->>'lastOwnershipUpdateTime')::timestamptz,
                                   ${readAt.toISOString()}::timestamptz)
                   end
            from unnest(
              ${sql.param(chunk.map((resource) => resource.armId))}::text[],
              ${sql.param(chunk.map((resource) => resource.name))}::text[],
              ${sql.param(chunk.map((resource) => resource.type))}::text[],
              ${sql.param(chunk.map((resource) => resource.category))}::text[],
              ${sql.param(chunk.map((resource) => resource.subcategory))}::text[],
              ${sql.param(chunk.map((resource) => resource.resourceGroup))}::text[],
              ${sql.param(chunk.map((resource) => resource.region))}::text[],
              ${sql.param(chunk.map((resource) => resource.sku))}::text[],
              ${sql.param(chunk.map((resource) => resource.powerState))}::text[],
              ${sql.param(chunk.map((resource) => resource.osType))}::text[],
              ${sql.param(chunk.map((resource) => resource.dataDiskCount))}::smallint[],
              ${sql.param(chunk.map((resource) => resource.nicCount))}::smallint[],
              ${sql.param(chunk.map((resource) => resource.hasPremiumDisk))}::boolean[],
              ${sql.param(chunk.map((resource) => resource.hasAcceleratedNetworking))}::boolean[],
              ${sql.param(chunk.map((resource) => JSON.stringify(resource.tags)))}::jsonb[],
              ${sql.param(chunk.map((resource) => JSON.stringify(resource.details)))}::jsonb[]
            ) as listed(arm_id, name, type, category, subcategory, resource_group, region, sku, power_state,
                        os_type, data_disk_count, nic_count, has_premium_disk, has_accelerated_networking,
                        tags, details)
            on conflict (tenant_id, lower(arm_id)) do update set
              subscription_id = excluded.subscription_id,
              arm_id = excluded.arm_id,
              name = excluded.name,
              type = excluded.type,
              category = excluded.category,
              subcategory = excluded.subcategory,
              resource_group = excluded.resource_group,
              region = excluded.region,
              sku = excluded.sku,
              power_state = excluded.power_state,
              -- A state our own changes did not record first was changed by someone else.
              power_state_changed_at = case
                when resource.power_state is distinct from excluded.power_state
                  and resource.power_state is not null
                then excluded.last_read else resource.power_state_changed_at end,
              os_type = excluded.os_type,
              data_disk_count = excluded.data_disk_count,
              nic_count = excluded.nic_count,
              has_premium_disk = excluded.has_premium_disk,
              has_accelerated_networking = excluded.has_accelerated_networking,
              tags = excluded.tags,
              details = excluded.details,
              -- Azure's own time where it gives one (a disk's LastOwnershipUpdateTime); else kept
              -- while the state stays, the first sync that saw it when it changed.
              state_since = case
                when ${stateOf(sql`excluded`)} is not distinct from ${stateOf(sql`resource`)}
                  and ${stateOf(sql`excluded`)} is not null
                  and not (excluded.details ? 'lastOwnershipUpdateTime')
                then coalesce(resource.state_since, excluded.state_since) else excluded.state_since end,
              last_read = excluded.last_read
            returning (xmax = 0) as is_inserted
          )
          select count(*) filter (where is_inserted)::int as inserted from upserted
        `);
        insertedCount += result.rows[0]?.inserted ?? 0;
      }
      const removed = await transaction.execute<{ armId: string; name: string }>(sql`
        delete from resource
        where subscription_id = ${subscriptionRowId}::uuid
          and last_read is distinct from ${readAt.toISOString()}::timestamptz
        returning arm_id as "armId", name
      `);
      await transaction.execute(recountTenantResources(tenantId));
      return { insertedCount, removed: removed.rows };
    });
  }

  // Gives every resource of a catalogued type its metric rows; existing rows keep their history.
  async ensureMetrics(tenantId: string, definitions: MetricDefinitionRow[]): Promise<number> {
    const result = await this.db.execute(sql`
      insert into metric (resource_id, name, unit)
      select resource.id, definition.name, definition.unit
      from resource
      join unnest(
        ${sql.param(definitions.map((definition) => definition.type.toLowerCase()))}::text[],
        ${sql.param(definitions.map((definition) => definition.name))}::text[],
        ${sql.param(definitions.map((definition) => definition.unit))}::text[],
        ${sql.param(definitions.map((definition) => definition.skuPattern ?? ''))}::text[]
      ) as definition(type, name, unit, sku_pattern) on lower(resource.type) = definition.type
      where resource.tenant_id = ${tenantId}::uuid
        and (definition.sku_pattern = '' or lower(resource.sku) ~ definition.sku_pattern)
      on conflict (resource_id, name) do nothing
    `);
    return result.rowCount ?? 0;
  }

  async listUndatedStates(tenantId: string, limit: number): Promise<UndatedState[]> {
    const result = await this.db.execute<{ id: string; armId: string; type: string; stateSince: string }>(sql`
      select resource.id, resource.arm_id as "armId", resource.type, resource.state_since as "stateSince"
      from resource
      left join resource_state_dating as dating on dating.resource_id = resource.id
      where resource.tenant_id = ${tenantId}::uuid
        and resource.state_since is not null
        and (dating.resource_id is null or dating.state_since is distinct from resource.state_since)
        and (
          (lower(resource.type) = 'microsoft.network/publicipaddresses'
           and resource.details->>'ipConfigurationId' is null and resource.details->>'natGatewayId' is null)
          or (lower(resource.type) = 'microsoft.compute/virtualmachines' and resource.power_state = 'stopped')
        )
      order by resource.state_since, resource.id
      limit ${limit}
    `);
    return result.rows.map((row) => ({ ...row, stateSince: new Date(row.stateSince) }));
  }

  // The state's date as Azure gives it (kept by later syncs while the state stays), or, with no
  // source, the first sight confirmed as all there is.
  async recordStateDating(
    resourceId: string,
    seenSince: Date,
    dated: { at: Date; source: 'activity-log' | 'metrics' } | undefined,
    checkedAt: Date,
  ): Promise<void> {
    const stateSince = dated && dated.at < seenSince ? dated.at : seenSince;
    await this.db.transaction(async (transaction) => {
      // Only while the state is still the one dated (a sync in between may have moved it).
      const updated = await transaction.execute(sql`
        update resource set state_since = ${stateSince.toISOString()}::timestamptz
        where id = ${resourceId}::uuid and state_since = ${seenSince.toISOString()}::timestamptz
      `);
      if ((updated.rowCount ?? 0) === 0) return;
      await transaction.execute(sql`
        insert into resource_state_dating (resource_id, state_since, source, checked_at)
        values (${resourceId}::uuid, ${stateSince.toISOString()}::timestamptz,
                ${stateSince < seenSince ? dated!.source : null}, ${checkedAt.toISOString()}::timestamptz)
        on conflict (resource_id) do update set
          state_since = excluded.state_since, source = excluded.source, checked_at = excluded.checked_at
      `);
    });
  }
}

// The state resource.state_since dates, of a row of the resource table (or of the values listed for
// it): a VM's power state, a disk's diskState, whether an IP is associated, whether a plan has apps.
// Null for a type without one.
function stateOf(row: SQL) {
  return sql`(case lower(${row}.type)
    when 'microsoft.compute/virtualmachines' then ${row}.power_state
    when 'microsoft.compute/disks' then ${row}.details->>'diskState'
    when 'microsoft.network/publicipaddresses' then
      case when ${row}.details ? 'ipConfigurationId' or ${row}.details ? 'natGatewayId'
        then 'associated' else 'unassociated' end
    when 'microsoft.web/serverfarms' then
      case when (${row}.details->>'numberOfSites')::int > 0 then 'withSites'
        when (${row}.details->>'numberOfSites')::int = 0 then 'empty' end
  end)`;
}

// After any change to a tenant's resources: a new version for cached lists, and the count the
// tenant list shows.
function recountTenantResources(tenantId: string) {
  return sql`
    update tenant
    set resources_version = resources_version + 1,
        resource_count = (select count(*) from resource where resource.tenant_id = ${tenantId}::uuid)
    where id = ${tenantId}::uuid
  `;
}

// A public IP associated with nothing or a VM stopped (still billed) whose present state has not been
// dated from Azure yet: its state_since is still the first sync that saw it.
export interface UndatedState {
  id: string;
  armId: string;
  type: string;
  stateSince: Date;
}
