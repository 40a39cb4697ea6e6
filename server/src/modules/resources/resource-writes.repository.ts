// The resource table's one writer (ARCHITECTURE.md, "Tables and their owners"): inventory's sync, the
// analysis, automation, active hours and team settings write a resource row through these, each in
// its caller's transaction where it must commit with the caller's other rows. A change the Cloud
// Resources list shows bumps the tenant's resources_version (tenants.repository) in the same one.
import { eq, sql, type SQL } from 'drizzle-orm';
import type { Db, Executor } from '../../db/database';
import { refreshStatisticsAfterWrite } from '../../db/planner-statistics';
import { resources } from '../../db/schema';
import { bumpResourcesVersionOfResource } from '../tenants/tenants.repository';

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

export interface RemovedResource {
  armId: string;
  name: string;
}

// Upserts a chunk of what Azure listed for a subscription (read at `readAt`); user settings
// (automation, active hours) are untouched. Answers how many rows were new.
export async function upsertListedResources(
  db: Executor,
  tenantId: string,
  subscriptionRowId: string,
  chunk: InventoryResource[],
  readAt: Date,
): Promise<number> {
  const result = await db.execute<{ inserted: number }>(sql`
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
  return result.rows[0]?.inserted ?? 0;
}

// Deletes the subscription's resources the sync at `readAt` no longer saw.
export async function deleteUnlistedResources(
  db: Executor,
  subscriptionRowId: string,
  readAt: Date,
): Promise<RemovedResource[]> {
  const removed = await db.execute<{ armId: string; name: string }>(sql`
    delete from resource
    where subscription_id = ${subscriptionRowId}::uuid
      and last_read is distinct from ${readAt.toISOString()}::timestamptz
    returning arm_id as "armId", name
  `);
  return removed.rows;
}

// Moves the state's date back to `stateSince`, only while the state is still the one dated (a sync in
// between may have moved it). False when it was not.
export async function redateResourceState(
  db: Executor,
  resourceId: string,
  seenSince: Date,
  stateSince: Date,
): Promise<boolean> {
  const updated = await db.execute(sql`
    update resource set state_since = ${stateSince.toISOString()}::timestamptz
    where id = ${resourceId}::uuid and state_since = ${seenSince.toISOString()}::timestamptz
  `);
  return (updated.rowCount ?? 0) > 0;
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

// Automation's own flag (a pipeline or the guard turning a resource's automation off).
export async function setResourceAutomated(
  db: Executor,
  resourceId: string,
  automated: number,
): Promise<void> {
  await db.update(resources).set({ automated }).where(eq(resources.id, resourceId));
  await bumpResourcesVersionOfResource(db, resourceId);
}

export async function holdResourceRecommendations(
  db: Executor,
  resourceId: string,
  until: Date,
): Promise<void> {
  await db.update(resources).set({ recommendationsHeldUntil: until }).where(eq(resources.id, resourceId));
}

// Boundaries before `at` count as handled: new hours act from their next boundary.
export async function setResourceActiveHours(
  db: Executor,
  resourceId: string,
  start: number | null,
  end: number | null,
  at: Date,
): Promise<void> {
  await db
    .update(resources)
    .set({ activeHoursStart: start, activeHoursEnd: end, activeHoursBoundaryAt: at })
    .where(eq(resources.id, resourceId));
  await bumpResourcesVersionOfResource(db, resourceId);
}

// What Azure now says of the resource, so Cloud Resources shows it before the next sync; a VM's new
// power state is dated now (the sync then sees nothing changed).
export async function recordResourceState(
  db: Executor,
  resourceId: string,
  size: string | null,
  powerState: string | null,
  at: Date,
): Promise<void> {
  await db
    .update(resources)
    .set({
      sku: size,
      powerState,
      lastRead: new Date(),
      stateSince: sql`case when ${resources.powerState} is distinct from ${powerState}
        then ${at.toISOString()}::timestamptz else ${resources.stateSince} end`,
    })
    .where(eq(resources.id, resourceId));
  await bumpResourcesVersionOfResource(db, resourceId);
}

// The tags a tag change merged in Azure, merged into ours too, so a pipeline's next run sees them
// before the next sync reads them back.
export async function mergeResourceTags(
  db: Executor,
  resourceId: string,
  tags: Record<string, string>,
): Promise<void> {
  await db
    .update(resources)
    .set({ tags: sql`${resources.tags} || ${JSON.stringify(tags)}::jsonb` })
    .where(eq(resources.id, resourceId));
  await bumpResourcesVersionOfResource(db, resourceId);
}

// New history arrived for the tenant (a back-fill): every VM is due for analysis again.
export async function markTenantResourcesDue(db: Executor, tenantId: string): Promise<void> {
  await db.execute(sql`update resource set analysed_until = null where tenant_id = ${tenantId}::uuid`);
}

// A new lookback changes what every VM's analysis reads: all of the team's VMs become due again.
export async function markTeamResourcesDue(db: Executor, teamId: string): Promise<void> {
  await db.execute(sql`
    update resource set analysed_until = null
    from tenant where tenant.id = resource.tenant_id and tenant.team_id = ${teamId}::uuid`);
}

// The VMs an analysis batch covered, each up to the last hour it read.
export async function markResourcesAnalysed(
  db: Executor,
  analysed: { resourceId: string; collectedUntil: Date }[],
): Promise<void> {
  if (analysed.length === 0) return;
  await db.execute(sql`
    update resource set analysed_until = analysed.until
    from unnest(
      ${sql.param(analysed.map((item) => item.resourceId))}::uuid[],
      ${sql.param(analysed.map((item) => item.collectedUntil.toISOString()))}::timestamptz[]
    ) as analysed(id, until)
    where resource.id = analysed.id`);
}

// Each active-hours boundary is acted on once, whichever worker gets there first: a resource is
// claimed only while its recorded boundary is older than this one. Answers the resources claimed.
export async function claimActiveHoursBoundaries(
  db: Executor,
  claims: { resourceId: string; at: Date }[],
): Promise<string[]> {
  if (claims.length === 0) return [];
  const result = await db.execute<{ id: string }>(sql`
    update resource set active_hours_boundary_at = claim.at
    from unnest(${toArrayLiteral(claims.map((claim) => claim.resourceId))}::uuid[],
                ${toArrayLiteral(claims.map((claim) => claim.at.toISOString()))}::timestamptz[])
         as claim(id, at)
    where resource.id = claim.id
      and (resource.active_hours_boundary_at is null or resource.active_hours_boundary_at < claim.at)
    returning resource.id
  `);
  return result.rows.map((row) => row.id);
}

// One parameter per column: uuids and ISO times hold no character an array literal would need quoted.
function toArrayLiteral(values: readonly string[]): string {
  return `{${values.join(',')}}`;
}

// After a sync that added or removed many resources (a tenant's first), the planner's statistics
// follow.
export function refreshResourceStatistics(db: Db, writtenRows: number): Promise<boolean> {
  return refreshStatisticsAfterWrite(db, resources, writtenRows);
}
