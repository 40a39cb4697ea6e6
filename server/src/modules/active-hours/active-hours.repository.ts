import { automationValues } from '@cloudtrim/contracts/automation';
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { claimActiveHoursBoundaries } from '../resources/resource-writes.repository';

export interface ActiveHoursResource {
  id: string;
  tenantId: string;
  teamId: string;
  armId: string;
  name: string;
  activeHoursStart: number;
  activeHoursEnd: number;
  boundaryAt: Date | null;
  // When an inventory sync last found the VM's power state changed by someone else.
  powerStateChangedAt: Date | null;
  // Null until the tenant's permissions were read.
  canWrite: boolean | null;
}

export interface BoundaryClaim {
  resourceId: string;
  at: Date;
}

// The automation log's PredictionMethod column for what active hours do.
export const activeHoursMethodText = 'Active hours';

export class ActiveHoursRepository {
  constructor(private readonly db: Db) {}

  // Virtual machines of active tenants with active hours, not set to No Change, whose last boundary
  // (the later of their start and end hours' last occurrence at or before `now`, UTC) is newer than
  // the boundary last acted on.
  async listCandidates(now: Date): Promise<ActiveHoursResource[]> {
    const result = await this.db.execute<{
      id: string;
      tenantId: string;
      teamId: string;
      armId: string;
      name: string;
      activeHoursStart: number;
      activeHoursEnd: number;
      boundaryAt: string | Date | null;
      powerStateChangedAt: string | Date | null;
      canWrite: boolean | null;
    }>(sql`
      select resource.id, resource.tenant_id as "tenantId", tenant.team_id as "teamId",
             resource.arm_id as "armId", resource.name,
             resource.active_hours_start as "activeHoursStart", resource.active_hours_end as "activeHoursEnd",
             resource.active_hours_boundary_at as "boundaryAt",
             resource.power_state_changed_at as "powerStateChangedAt", tenant.can_write as "canWrite"
      from resource
      join tenant on tenant.id = resource.tenant_id
      where tenant.is_active
        and lower(resource.type) = 'microsoft.compute/virtualmachines'
        and resource.automated <> ${automationValues.noChange}
        and resource.active_hours_start is not null
        and resource.active_hours_end is not null
        and resource.active_hours_start <> resource.active_hours_end
        and coalesce(resource.active_hours_boundary_at at time zone 'UTC', '-infinity') < greatest(
          ${lastOccurrence(sql`resource.active_hours_start`, now)},
          ${lastOccurrence(sql`resource.active_hours_end`, now)})
    `);
    return result.rows.map((row) => ({
      ...row,
      boundaryAt: row.boundaryAt === null ? null : new Date(row.boundaryAt),
      powerStateChangedAt: row.powerStateChangedAt === null ? null : new Date(row.powerStateChangedAt),
    }));
  }

  // Each boundary is acted on once, whichever worker gets there first: a resource is claimed only
  // while its recorded boundary is older than this one. Answers the resources claimed.
  async claimBoundaries(claims: BoundaryClaim[]): Promise<string[]> {
    return claimActiveHoursBoundaries(this.db, claims);
  }
}

// The last time the clock read `hour`:00 UTC at or before `now`, as a UTC timestamp.
function lastOccurrence(hour: SQL, now: Date): SQL {
  const today = sql`date_trunc('day', ${now.toISOString()}::timestamptz at time zone 'UTC') + make_interval(hours => ${hour})`;
  return sql`case when ${today} <= ${now.toISOString()}::timestamptz at time zone 'UTC' then ${today} else ${today} - interval '1 day' end`;
}
