// JavaScript a browser fetches before the first screen paints, gzip-compressed as it travels:
// /login (the public area) and /resources (the signed-in shell with one screen). Walks the static
// imports of the built chunks from the entry and from the route chunks React Router loads for that
// path. Builds the web app first when web/dist is missing.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const budgetsKb = { publicArea: 110, signedInShell: 180 };
const distDir = path.resolve(import.meta.dirname, '../../web/dist');
const assetsDir = path.join(distDir, 'assets');

if (!existsSync(path.join(distDir, 'index.html'))) {
  execFileSync('npm', ['run', 'build', '-w', '@cloudtrim/web'], { stdio: 'inherit' });
}

const chunkFiles = readdirSync(assetsDir).filter((file) => file.endsWith('.js'));
const entry = /<script type="module"[^>]*src="\/assets\/([^"]+\.js)"/.exec(
  readFileSync(path.join(distDir, 'index.html'), 'utf8'),
)?.[1];
if (!entry) throw new Error('web/dist/index.html names no module entry');

// A route's chunk by the name of the module it was built from (Vite keeps it before the hash).
function findChunk(moduleName: string): string {
  const file = chunkFiles.find((name) => name.startsWith(`${moduleName}-`));
  if (!file) throw new Error(`no chunk built from ${moduleName}`);
  return file;
}

function collectStaticImports(roots: string[]): Set<string> {
  const seen = new Set<string>();
  const pending = [...roots];
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const code = readFileSync(path.join(assetsDir, file), 'utf8');
    // Static imports only: `import{a}from"./x.js"` and `import"./x.js"`; dynamic import() is lazy.
    for (const match of code.matchAll(/(?:from|import)\s*"\.\/([^"]+\.js)"/g)) pending.push(match[1]!);
  }
  return seen;
}

function measureKb(roots: string[]): { files: number; gzipKb: number } {
  const files = collectStaticImports(roots);
  let bytes = 0;
  for (const file of files) bytes += gzipSync(readFileSync(path.join(assetsDir, file)), { level: 9 }).length;
  return { files: files.size, gzipKb: bytes / 1024 };
}

const publicArea = measureKb([entry]);
const signedInShell = measureKb([entry, findChunk('signed-in-shell'), findChunk('cloud-resources')]);
const report = (label: string, figure: { files: number; gzipKb: number }, budgetKb: number) =>
  console.log(
    `${label.padEnd(34)} ${figure.gzipKb.toFixed(1).padStart(6)} KB gzip in ${String(figure.files).padStart(2)} files   budget ${budgetKb} KB   ${figure.gzipKb <= budgetKb ? 'met' : 'MISSED'}`,
  );
report('first load, public area (/login)', publicArea, budgetsKb.publicArea);
report('first load, signed-in (/resources)', signedInShell, budgetsKb.signedInShell);
process.exitCode =
  publicArea.gzipKb <= budgetsKb.publicArea && signedInShell.gzipKb <= budgetsKb.signedInShell ? 0 : 1;
