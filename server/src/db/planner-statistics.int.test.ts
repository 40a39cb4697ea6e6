// A bulk write brings the planner's statistics with it: past autovacuum's threshold the writer
// analyses the table, so the very next query is planned for the rows now there.
import { sql } from 'drizzle-orm';
import { integer, pgTable } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../test/helper';
import { openDatabase, type Database } from './database';
import { needsAnalyze, refreshStatisticsAfterWrite } from './planner-statistics';

const probe = pgTable('planner_statistics_probe', { value: integer('value').notNull() });
let database: Database;

beforeAll(async () => {
  database = await openDatabase(await createTestDatabase());
  await database.db.execute(sql`create table planner_statistics_probe (value integer not null)`);
});

afterAll(async () => {
  await database.close();
});

async function plannerRows(): Promise<number> {
  const result = await database.db.execute<{ rows: number }>(
    sql`select reltuples::float8 as rows from pg_class where relname = 'planner_statistics_probe'`,
  );
  return result.rows[0]!.rows;
}

async function insertRows(count: number): Promise<void> {
  await database.db.execute(
    sql`insert into planner_statistics_probe (value) select generate_series(1, ${count}::int)`,
  );
}

describe('refreshStatisticsAfterWrite', () => {
  it('analyses a table whose write outgrew what the planner knew, and leaves a small write alone', async () => {
    await insertRows(5_000);
    // Never analysed: PostgreSQL marks the count unknown.
    expect(await plannerRows()).toBe(-1);

    expect(await refreshStatisticsAfterWrite(database.db, probe, 5_000)).toBe(true);
    expect(await plannerRows()).toBe(5_000);

    // 300 rows more is under a tenth of 5,000: autovacuum would wait too, and so does the writer.
    await insertRows(300);
    expect(await refreshStatisticsAfterWrite(database.db, probe, 300)).toBe(false);
    expect(await plannerRows()).toBe(5_000);

    await insertRows(600);
    expect(await refreshStatisticsAfterWrite(database.db, probe, 600)).toBe(true);
    expect(await plannerRows()).toBe(5_900);
  });
});

describe('needsAnalyze', () => {
  it('follows autovacuum: 50 rows and a tenth of the table', () => {
    expect(needsAnalyze(49, 0)).toBe(false);
    expect(needsAnalyze(50, 0)).toBe(true);
    expect(needsAnalyze(50, -1)).toBe(true);
    expect(needsAnalyze(1_049, 10_000)).toBe(false);
    expect(needsAnalyze(1_050, 10_000)).toBe(true);
  });
});
