// Secrets generated once and kept in DATA_DIR/secrets, readable by their owner only.
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';

export interface SecretFileLogger {
  warn(message: string): void;
}

export async function readOrCreateSecret(
  dataDir: string,
  name: string,
  byteLength: number,
  log?: SecretFileLogger,
): Promise<string> {
  const file = path.join(dataDir, 'secrets', name);
  try {
    await restrictToOwner(file, 0o600, log);
    return (await readFile(file, 'utf8')).trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  // DATA_DIR stays traversable: the embedded PostgreSQL may run as another user below it.
  await mkdir(dataDir, { recursive: true, mode: 0o755 });
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const secret = randomBytes(byteLength).toString('hex');
  await writeFile(file, secret, { mode: 0o600, flag: 'wx' }).catch(async (error: NodeJS.ErrnoException) => {
    // Another process created it first: use theirs.
    if (error.code !== 'EEXIST') throw error;
  });
  await chmod(file, 0o600);
  return (await readFile(file, 'utf8')).trim();
}

// A key file someone made readable to others (a copy, an archive restored with its modes) is
// closed again before use, and the log says so: whoever could read it may hold the key.
async function restrictToOwner(file: string, mode: number, log?: SecretFileLogger): Promise<void> {
  for (const [target, ownerMode] of [
    [path.dirname(file), 0o700],
    [file, mode],
  ] as const) {
    const current = (await stat(target)).mode & 0o777;
    if ((current & 0o077) === 0) continue;
    await chmod(target, ownerMode);
    log?.warn(
      `${target} was readable by others (mode ${current.toString(8)}); set to ${ownerMode.toString(8)}. ` +
        'Anyone who could read it may hold the secret: rotate it if that matters.',
    );
  }
}
