// Whether a team knows a resource by its ARM id: it has it now, or (given a history table) has
// entries about it (a VM since deleted in Azure keeps its logs). Another team's resource, or no
// one's, is unknown, and the calls that list one resource's entries answer 404 for it.
import { sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Db } from './database';
import { resources, tenants } from './schema';

export interface ResourceHistory {
  teamId: PgColumn;
  resourceArmId: PgColumn;
}

export async function isResourceKnownToTeam(
  db: Db,
  teamId: string,
  armId: string,
  history?: ResourceHistory,
): Promise<boolean> {
  const lowerArmId = armId.toLowerCase();
  const result = await db.execute<{ isKnown: boolean }>(sql`
    select exists (
      select 1 from ${resources} join ${tenants} on ${tenants.id} = ${resources.tenantId}
       where ${tenants.teamId} = ${teamId} and lower(${resources.armId}) = ${lowerArmId}
    ) ${
      history
        ? sql`or exists (
      select 1 from ${history.teamId.table}
       where ${history.teamId} = ${teamId} and lower(${history.resourceArmId}) = ${lowerArmId}
    )`
        : sql``
    } as "isKnown"`);
  return result.rows[0]?.isKnown === true;
}
