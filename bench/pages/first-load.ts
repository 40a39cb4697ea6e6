// The JavaScript a browser fetches before the first screen paints, gzip-compressed as it travels,
// against SPEC's budgets: /login (the public area: the entry and its static imports) and /resources
// (the signed-in shell: the entry plus the chunks React Router loads for that path, the shell's and
// the screen's, with their static imports). Read from the Vite manifest of web/dist, which names each
// source module's chunk and that chunk's static imports; dynamic imports are lazy and not counted.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

export const webDistDir = path.resolve(import.meta.dirname, '../../web/dist');

export const firstLoadBudgetsKb = { publicArea: 110, signedInShell: 180 } as const;
export type FirstLoadArea = keyof typeof firstLoadBudgetsKb;

// Manifest keys: the page, then the route modules of web/src/app/router.tsx that /resources matches.
const areaRoots: Readonly<Record<FirstLoadArea, readonly string[]>> = {
  publicArea: ['index.html'],
  signedInShell: ['index.html', 'src/app/shell/signed-in-shell.tsx', 'src/app/routes/resources.tsx'],
};

export const firstLoadLabels: Readonly<Record<FirstLoadArea, string>> = {
  publicArea: 'first load, public area (/login)',
  signedInShell: 'first load, signed-in (/resources)',
};

interface ManifestChunk {
  file: string;
  imports?: string[];
}

export interface FirstLoadFigure {
  files: string[];
  gzipKb: number;
  budgetKb: number;
  isMet: boolean;
}

function readManifest(distDir: string): Record<string, ManifestChunk> {
  const manifestPath = path.join(distDir, '.vite', 'manifest.json');
  if (!existsSync(manifestPath)) throw new Error(`${manifestPath} is missing: build the web app first`);
  return JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<string, ManifestChunk>;
}

/** Builds the web app when web/dist has no manifest (a checkout never built, or built before it had one). */
export function ensureWebDist(distDir = webDistDir): void {
  if (existsSync(path.join(distDir, '.vite', 'manifest.json'))) return;
  execFileSync('npm', ['run', 'build', '-w', '@cloudtrim/web'], { stdio: 'inherit' });
}

function collectStaticFiles(manifest: Record<string, ManifestChunk>, roots: readonly string[]): string[] {
  const seen = new Set<string>();
  const pending = [...roots];
  while (pending.length > 0) {
    const key = pending.pop()!;
    if (seen.has(key)) continue;
    const chunk = manifest[key];
    if (!chunk) throw new Error(`the web build's manifest has no ${key}`);
    seen.add(key);
    pending.push(...(chunk.imports ?? []));
  }
  return [...seen].map((key) => manifest[key]!.file).filter((file) => file.endsWith('.js'));
}

export function measureFirstLoad(distDir = webDistDir): Record<FirstLoadArea, FirstLoadFigure> {
  const manifest = readManifest(distDir);
  const measure = (area: FirstLoadArea): FirstLoadFigure => {
    const files = collectStaticFiles(manifest, areaRoots[area]);
    const bytes = files.reduce(
      (sum, file) => sum + gzipSync(readFileSync(path.join(distDir, file)), { level: 9 }).length,
      0,
    );
    const gzipKb = bytes / 1024;
    const budgetKb = firstLoadBudgetsKb[area];
    return { files, gzipKb, budgetKb, isMet: gzipKb <= budgetKb };
  };
  return { publicArea: measure('publicArea'), signedInShell: measure('signedInShell') };
}

export function formatFirstLoad(area: FirstLoadArea, figure: FirstLoadFigure): string {
  return (
    `${firstLoadLabels[area].padEnd(34)} ${figure.gzipKb.toFixed(1).padStart(6)} KB gzip in ` +
    `${String(figure.files.length).padStart(2)} files   budget ${figure.budgetKb} KB   ${figure.isMet ? 'met' : 'MISSED'}`
  );
}
