// `npm run bench`: every benchmark, one after another, each printing its own figures.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';

const only = process.argv[2];
const benchmarks = readdirSync(import.meta.dirname, { recursive: true })
  .map(String)
  .filter((file) => file.endsWith('.bench.ts') && (!only || file.includes(only)))
  .sort();

let hasFailed = false;
for (const file of benchmarks) {
  console.log(`\n=== ${file} ===`);
  const result = spawnSync(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, file)], {
    stdio: 'inherit',
  });
  hasFailed ||= result.status !== 0;
}
process.exit(hasFailed ? 1 : 0);
