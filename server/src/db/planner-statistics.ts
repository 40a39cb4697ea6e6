// The planner's statistics after a bulk write. A tenant's first inventory or first analysis writes
// thousands of rows into a table whose statistics still describe it as it was (empty, or a tenth of
// its size): until autovacuum's next ANALYZE, a minute away or longer while its workers vacuum the
// metric tables, PostgreSQL plans by those. One resource's recommendations were read through every
// recommendation of the team that way (27 ms a call instead of 0.05 ms, `bench/recommendations`),
// on the day the team first looks at them. So the writer analyses the table itself once its write
// crosses the threshold autovacuum would analyse it at (50 rows and a tenth of the table).
import { getTableName, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { readDatabaseErrorCode, type Db } from './database';

// autovacuum_analyze_threshold and autovacuum_analyze_scale_factor, PostgreSQL's defaults.
const baseThreshold = 50;
const scaleFactor = 0.1;

export function needsAnalyze(writtenRows: number, estimatedRows: number): boolean {
  return writtenRows >= baseThreshold + scaleFactor * Math.max(0, estimatedRows);
}

// Analyses `table` when `writtenRows` (inserted, updated or deleted by the caller's write) is past
// the threshold for the rows the planner last counted. True when it analysed.
export async function refreshStatisticsAfterWrite(
  db: Db,
  table: PgTable,
  writtenRows: number,
): Promise<boolean> {
  if (writtenRows < baseThreshold) return false;
  const name = getTableName(table);
  const estimate = await db.execute<{ rows: number }>(
    sql`select reltuples::float8 as rows from pg_class where oid = to_regclass(${name})`,
  );
  if (!needsAnalyze(writtenRows, estimate.rows[0]?.rows ?? 0)) return false;
  try {
    await db.transaction(async (transaction) => {
      // ANALYZE waits for another ANALYZE of the same table; that one brings the statistics up to
      // date as well, so a writer that would wait longer than a second gives up.
      await transaction.execute(sql`set local lock_timeout = '1s'`);
      await transaction.execute(sql`analyze ${sql.identifier(name)}`);
    });
    return true;
  } catch (error) {
    // lock_not_available: another ANALYZE of the table held it past the timeout.
    if (readDatabaseErrorCode(error) === '55P03') return false;
    throw error;
  }
}
