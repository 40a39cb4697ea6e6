// `npm run bench`: every benchmark, one after another, each printing its own figures.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { backgroundHeapFlags } from '../server/src/lib/heap';

const only = process.argv[2];
const benchmarks = readdirSync(import.meta.dirname, { recursive: true })
  .map(String)
  .filter((file) => file.endsWith('.bench.ts') && (!only || file.includes(only)))
  .sort();

// A bench whose measured work runs on its own main thread, where production runs it on a thread
// with the background work's heap (the job thread, a ROLE=worker process), runs with that heap.
function readNodeFlags(file: string): string[] {
  return file.startsWith(`recommendations${path.sep}`) ? backgroundHeapFlags : [];
}

let hasFailed = false;
for (const file of benchmarks) {
  console.log(`\n=== ${file} ===`);
  const result = spawnSync(
    process.execPath,
    [...readNodeFlags(file), '--import', 'tsx', path.join(import.meta.dirname, file)],
    {
      stdio: 'inherit',
    },
  );
  hasFailed ||= result.status !== 0;
}
process.exit(hasFailed ? 1 : 0);
