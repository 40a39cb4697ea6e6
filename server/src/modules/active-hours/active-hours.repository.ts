import { sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { automationLogs, scheduledChanges } from '../../db/schema';
import type { ActiveHoursAction } from './active-hours.timing';

export interface ActiveHoursResource {
  id: string;
  tenantId: string;
  teamId: string;
  armId: string;
  name: string;
  activeHoursStart: number;
  activeHoursEnd: number;
  boundaryAt: Date | null;
  // Null until the tenant's permissions were read.
  canWrite: boolean | null;
}

export interface BoundaryClaim {
  resourceId: string;
  at: Date;
}

export interface NewActiveHoursChange {
  teamId: string;
  tenantId: string;
  resourceId: string;
  action: ActiveHoursAction;
  changeAt: Date;
  claimedAt: Date;
}

export interface NewActiveHoursLog {
  teamId: string;
  resourceId: string;
  resourceArmId: string;
  friendlyName: string;
  action: string;
  scheduledChangeId: number | null;
}

// The automation log's PredictionMethod column for what active hours do.
export const activeHoursMethodText = 'Active hours';

export class ActiveHoursRepository {
  constructor(private readonly db: Db) {}

  // Virtual machines of active tenants whose start or end falls on one of `hours`, not set to No
  // Change, and with no change of ours under way (a start or deallocation must not cut into a
  // resize; the next minute's run looks again).
  async listCandidates(hours: number[]): Promise<ActiveHoursResource[]> {
    const result = await this.db.execute<{
      id: string;
      tenantId: string;
      teamId: string;
      armId: string;
      name: string;
      activeHoursStart: number;
      activeHoursEnd: number;
      boundaryAt: string | Date | null;
      canWrite: boolean | null;
    }>(sql`
      select resource.id, resource.tenant_id as "tenantId", tenant.team_id as "teamId",
             resource.arm_id as "armId", resource.name,
             resource.active_hours_start as "activeHoursStart", resource.active_hours_end as "activeHoursEnd",
             resource.active_hours_boundary_at as "boundaryAt", tenant.can_write as "canWrite"
      from resource
      join tenant on tenant.id = resource.tenant_id
      where tenant.is_active
        and lower(resource.type) = 'microsoft.compute/virtualmachines'
        and resource.automated <> 2
        and resource.active_hours_start is not null
        and resource.active_hours_end is not null
        and resource.active_hours_start <> resource.active_hours_end
        and (resource.active_hours_start in ${hours} or resource.active_hours_end in ${hours})
        and not exists (
          select 1 from scheduled_change
          where scheduled_change.resource_id = resource.id and scheduled_change.state in ('claimed', 'submitted')
        )
    `);
    return result.rows.map((row) => ({
      ...row,
      boundaryAt: row.boundaryAt === null ? null : new Date(row.boundaryAt),
    }));
  }

  // Each boundary is acted on once, whichever worker gets there first: a resource is claimed only
  // while its recorded boundary is older than this one. Answers the resources claimed.
  async claimBoundaries(claims: BoundaryClaim[]): Promise<string[]> {
    if (claims.length === 0) return [];
    const result = await this.db.execute<{ id: string }>(sql`
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

  // Claimed already: the executor runs them at once (its exactly-once states, Retry-After, deadlines
  // and log entries), and they never take the one planned slot a resize at the window may hold.
  async insertChanges(changes: NewActiveHoursChange[]): Promise<Map<string, number>> {
    if (changes.length === 0) return new Map();
    const rows = await this.db
      .insert(scheduledChanges)
      .values(
        changes.map((change) => ({
          teamId: change.teamId,
          tenantId: change.tenantId,
          resourceId: change.resourceId,
          kind: change.action,
          origin: 'activeHours' as const,
          predictionMethod: activeHoursMethodText,
          changeAt: change.changeAt,
          state: 'claimed' as const,
          claimedAt: change.claimedAt,
        })),
      )
      .returning({ id: scheduledChanges.id, resourceId: scheduledChanges.resourceId });
    return new Map(rows.map((row) => [row.resourceId, row.id]));
  }

  async insertLogs(entries: NewActiveHoursLog[]): Promise<void> {
    if (entries.length === 0) return;
    await this.db
      .insert(automationLogs)
      .values(entries.map((entry) => ({ ...entry, predictionMethod: activeHoursMethodText })));
  }
}

// One parameter per column: uuids and ISO times hold no character an array literal would need quoted.
function toArrayLiteral(values: readonly string[]): string {
  return `{${values.join(',')}}`;
}
