// The size catalogue's facts about a resource's sizes in its own region, for automation (is a resize a
// step down; how much memory the new size has).
import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/database';

// True when `next` has fewer vCPUs or less memory than `previous` in the resource's region; undefined
// when the size catalogue does not know both.
export async function isSmallerVmSize(
  db: Executor,
  resourceId: string,
  previous: string,
  next: string,
): Promise<boolean | undefined> {
  const result = await db.execute<{ name: string; vcpus: number; memory_gib: number }>(sql`
    select lower(s.name) as name, s.vcpus, s.memory_gib from vm_size s join resource r on r.region = s.region
    where r.id = ${resourceId} and lower(s.name) in (${previous.toLowerCase()}, ${next.toLowerCase()})`);
  const before = result.rows.find((row) => row.name === previous.toLowerCase());
  const after = result.rows.find((row) => row.name === next.toLowerCase());
  if (!before || !after) return undefined;
  return after.vcpus < before.vcpus || after.memory_gib < before.memory_gib;
}

export async function readVmSizeMemoryGiB(
  db: Executor,
  resourceId: string,
  sizeName: string,
): Promise<number | undefined> {
  const result = await db.execute<{ memory_gib: number }>(sql`
    select s.memory_gib from vm_size s join resource r on r.region = s.region
    where r.id = ${resourceId} and lower(s.name) = ${sizeName.toLowerCase()}
    limit 1`);
  return result.rows[0]?.memory_gib;
}
