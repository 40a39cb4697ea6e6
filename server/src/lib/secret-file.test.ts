import { chmod, mkdir, mkdtemp, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readOrCreateSecret } from './secret-file';

describe('readOrCreateSecret', () => {
  it('closes an existing key file that others may read, keeps its value and says so in the log', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'cloudtrim-secret-'));
    await mkdir(path.join(dataDir, 'secrets'), { mode: 0o755 });
    await chmod(path.join(dataDir, 'secrets'), 0o755);
    const file = path.join(dataDir, 'secrets', 'encryption-key');
    await writeFile(file, 'ab'.repeat(32));
    await chmod(file, 0o644);
    const warnings: string[] = [];
    const secret = await readOrCreateSecret(dataDir, 'encryption-key', 32, {
      warn: (message) => warnings.push(message),
    });
    expect(secret).toBe('ab'.repeat(32));
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await stat(path.dirname(file))).mode & 0o777).toBe(0o700);
    expect(warnings.join('\n')).toMatch(/encryption-key was readable by others \(mode 644\); set to 600/);
  });

  it('leaves a key file that only its owner reads as it is, without a log line', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'cloudtrim-secret-'));
    const first = await readOrCreateSecret(dataDir, 'jwt-secret', 48);
    const warnings: string[] = [];
    const second = await readOrCreateSecret(dataDir, 'jwt-secret', 48, {
      warn: (message) => warnings.push(message),
    });
    expect(second).toBe(first);
    expect(first).toHaveLength(96);
    expect(warnings).toEqual([]);
  });
});
