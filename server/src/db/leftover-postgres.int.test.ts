// A Cloudtrim killed outright (kill -9) leaves its embedded PostgreSQL running with no one to stop
// it. The next start shuts that server down and starts its own; a server whose Cloudtrim still runs
// is refused, as before.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { isProcessAlive, startEmbeddedPostgres } from './database';

const databaseModule = path.join(path.dirname(fileURLToPath(import.meta.url)), 'database.ts');
let dataDir: string | undefined;

afterAll(async () => {
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

// A process that starts the embedded PostgreSQL, says where, and waits to be killed.
async function startOwner(
  directory: string,
): Promise<{ databaseDir: string; url: string; kill: () => Promise<void> }> {
  const script = `
    import { startEmbeddedPostgres } from ${JSON.stringify(databaseModule)};
    const server = await startEmbeddedPostgres(${JSON.stringify(directory)}, { info() {}, warn() {} });
    console.log('ready ' + server.databaseDir + ' ' + server.url);
    setInterval(() => {}, 60_000);`;
  const owner = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  owner.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const hasExited = new Promise<void>((resolve) => owner.once('exit', () => resolve()));
  const [databaseDir, url] = await new Promise<[string, string]>((resolve, reject) => {
    owner.stdout.on('data', (chunk: Buffer) => {
      const ready = /ready (\S+) (\S+)/.exec(chunk.toString('utf8'));
      if (ready) resolve([ready[1]!, ready[2]!]);
    });
    void hasExited.then(() => reject(new Error(`the owner exited: ${output}`)));
  });
  return {
    databaseDir,
    url,
    kill: async () => {
      owner.kill('SIGKILL');
      await hasExited;
    },
  };
}

// PostgreSQL's own pid, from the pid file it keeps in its data directory.
async function readServerPid(databaseDir: string): Promise<number> {
  return Number((await readFile(path.join(databaseDir, 'postmaster.pid'), 'utf8')).split('\n')[0]);
}

async function answers(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
    return (await client.query('select 1 as one')).rows[0]?.one === 1;
  } finally {
    await client.end().catch(() => {});
  }
}

describe('an embedded PostgreSQL left running by a killed Cloudtrim', () => {
  it('is shut down by the next start, which then runs its own; one whose Cloudtrim lives is refused', async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), `cloudtrim-pg-${randomUUID().slice(0, 4)}-`));
    // Reachable by the 'postgres' user when this runs as root.
    await chmod(dataDir, 0o755);
    const owner = await startOwner(dataDir);
    await owner.kill();
    // Still answering, with no one left to stop it.
    const leftoverPid = await readServerPid(owner.databaseDir);
    expect(isProcessAlive(leftoverPid)).toBe(true);
    expect(await answers(owner.url)).toBe(true);

    const warnings: string[] = [];
    const server = await startEmbeddedPostgres(dataDir, {
      info: () => {},
      warn: (line) => warnings.push(line),
    });
    try {
      expect(warnings.join('\n')).toContain(
        `(pid ${leftoverPid}) was left running by a Cloudtrim that ended without stopping it`,
      );
      expect(isProcessAlive(leftoverPid)).toBe(false);
      expect(await readServerPid(server.databaseDir)).not.toBe(leftoverPid);
      expect(await answers(server.url)).toBe(true);
      // This process still runs the server: a second start is another Cloudtrim on the same data.
      await expect(startEmbeddedPostgres(dataDir, { info: () => {}, warn: () => {} })).rejects.toThrow(
        /is already running \(pid \d+\); is Cloudtrim already started\?/,
      );
    } finally {
      await server.stop();
    }
  }, 120_000);
});
