// Installs what is missing: the npm dependencies, at the lock file's versions, when node_modules
// is absent or older than package-lock.json. `npm install` rather than `npm ci`: the registry
// here serves only some platforms' optional packages (rollup's), which npm leaves out of the lock
// file, and `npm ci` then refuses the lock file it wrote itself.
import { execSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

export const root = path.resolve(import.meta.dirname, '..');

export function run(command, options = {}) {
  execSync(command, { cwd: root, stdio: 'inherit', ...options });
}

export function ensureDependencies() {
  const installed = path.join(root, 'node_modules', '.package-lock.json');
  const lock = path.join(root, 'package-lock.json');
  if (existsSync(installed) && statSync(installed).mtimeMs >= statSync(lock).mtimeMs) return;
  console.log('Installing dependencies…');
  run('npm install --no-audit --no-fund');
}

function newestModification(entry) {
  if (!existsSync(entry)) return 0;
  const stats = statSync(entry);
  if (!stats.isDirectory()) return stats.mtimeMs;
  return Math.max(0, ...readdirSync(entry).map((name) => newestModification(path.join(entry, name))));
}

// Builds the web app when web/dist is missing or older than its sources or the contracts.
export function ensureWebBuild() {
  const builtIndex = path.join(root, 'web', 'dist', 'index.html');
  const sources = ['web/src', 'web/index.html', 'web/public', 'web/vite.config.ts', 'packages/contracts/src'];
  const newestSource = Math.max(...sources.map((source) => newestModification(path.join(root, source))), 0);
  if (existsSync(builtIndex) && statSync(builtIndex).mtimeMs >= newestSource) return;
  console.log('Building the web app…');
  run('npm run build -w @cloudtrim/web');
}
