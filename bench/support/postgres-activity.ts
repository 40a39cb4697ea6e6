// What PostgreSQL did besides answering while a bench phase ran: the WAL it wrote, the checkpoints
// it began (each makes the next write of every page log the whole page again), the autovacuum
// and autoanalyze runs it made, and the rows it updated, with how many of those stayed on their page
// (HOT: no new index entries). A phase that takes twice as long as the same phase in another run,
// with the same work, usually shows here.
import type { Database } from '../../server/src/db/database';

type Pool = Database['pool'];

export interface PostgresActivity {
  walBytes: number;
  checkpoints: number;
  autovacuums: number;
  autoanalyzes: number;
  updates: number;
  hotUpdates: number;
}

interface Reading {
  lsn: string;
  checkpoints: number;
  autovacuums: number;
  autoanalyzes: number;
  updates: number;
  hotUpdates: number;
}

async function read(pool: Pool): Promise<Reading> {
  const { rows } = await pool.query<Reading>(
    `select pg_current_wal_lsn()::text as lsn,
            (select (num_timed + num_requested)::int from pg_stat_checkpointer) as checkpoints,
            (select coalesce(sum(autovacuum_count), 0)::int from pg_stat_all_tables) as autovacuums,
            (select coalesce(sum(autoanalyze_count), 0)::int from pg_stat_all_tables) as autoanalyzes,
            (select coalesce(sum(n_tup_upd), 0)::float8 from pg_stat_user_tables) as updates,
            (select coalesce(sum(n_tup_hot_upd), 0)::float8 from pg_stat_user_tables) as "hotUpdates"`,
  );
  return rows[0]!;
}

// Starts counting; `read` answers what happened since (as often as asked).
export async function watchPostgresActivity(pool: Pool): Promise<{ read(): Promise<PostgresActivity> }> {
  const before = await read(pool);
  return {
    async read() {
      const after = await read(pool);
      const { rows } = await pool.query<{ bytes: string }>(
        `select pg_wal_lsn_diff($1::pg_lsn, $2::pg_lsn)::text as bytes`,
        [after.lsn, before.lsn],
      );
      return {
        walBytes: Number(rows[0]!.bytes),
        checkpoints: after.checkpoints - before.checkpoints,
        autovacuums: after.autovacuums - before.autovacuums,
        autoanalyzes: after.autoanalyzes - before.autoanalyzes,
        updates: after.updates - before.updates,
        hotUpdates: after.hotUpdates - before.hotUpdates,
      };
    },
  };
}

export function describePostgresActivity(activity: PostgresActivity): string {
  const mebibytes = (activity.walBytes / 1024 ** 2).toFixed(0);
  const hotShare =
    activity.updates > 0 ? `${((activity.hotUpdates / activity.updates) * 100).toFixed(0)}% HOT` : 'none';
  return `WAL ${mebibytes} MiB, ${activity.checkpoints} checkpoints begun, ${activity.autovacuums} autovacuums and ${activity.autoanalyzes} autoanalyzes, ${activity.updates} rows updated (${hotShare})`;
}
