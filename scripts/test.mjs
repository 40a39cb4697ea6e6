// `npm test`: installs what is missing (Chromium from Debian too, when absent and the machine
// allows it), then lint, typecheck, unit, integration and end-to-end tests. Ends with one line
// 'N passed, N failed' summing every runner.
import { Buffer } from 'node:buffer';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { ensureDependencies, ensureWebBuild, root, run } from './ensure-dependencies.mjs';

const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const reports = path.join(root, '.tmp', 'reports');

function ensureChromium() {
  if (existsSync(chromiumPath)) return;
  const isRoot = process.getuid?.() === 0;
  if (!isRoot || !existsSync('/usr/bin/apt-get')) {
    throw new Error(
      `Chromium is missing at ${chromiumPath}: install it (apt-get install chromium) or set CHROMIUM_PATH.`,
    );
  }
  console.log('Installing Chromium from Debian…');
  run('apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium', {
    shell: '/bin/bash',
  });
}

// Each step's title and time, for the closing summary: which part of the run grew.
const timings = [];

function step(title, command, args) {
  console.log(`\n▶ ${title}`);
  const startedAt = Date.now();
  const result = spawnSync(command, args, {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, FORCE_COLOR: '1' },
  });
  timings.push(`${title} ${Math.round((Date.now() - startedAt) / 1000)} s`);
  return result.status === 0;
}

// A step run beside another: its output is held and printed whole when it ends, so two steps' lines
// do not interleave.
function startStep(title, command, args) {
  const startedAt = Date.now();
  const output = [];
  const child = spawn(command, args, {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, FORCE_COLOR: '1' },
  });
  child.stdout.on('data', (chunk) => output.push(chunk));
  child.stderr.on('data', (chunk) => output.push(chunk));
  return new Promise((resolve) => {
    child.on('close', (code) => {
      console.log(`\n▶ ${title}`);
      process.stdout.write(Buffer.concat(output));
      timings.push(`${title} ${Math.round((Date.now() - startedAt) / 1000)} s`);
      resolve(code === 0);
    });
  });
}

// Each runner's counts, and the names of what failed: CI keeps only the tail of the output, so the
// last lines must say which test to look at.
function readVitestCounts(file) {
  if (!existsSync(file)) return { passed: 0, failed: 1, failures: [`${path.basename(file)}: no report`] };
  const report = JSON.parse(readFileSync(file, 'utf8'));
  const failures = report.testResults.flatMap((result) => {
    const name = path.relative(root, result.name);
    const failedTests = result.assertionResults.filter((test) => test.status === 'failed');
    // A file that did not load fails with no failed test.
    if (failedTests.length === 0 && result.status === 'failed')
      return [`${name}: ${firstLine(result.message)}`];
    return failedTests.map((test) => `${name} › ${test.fullName}`);
  });
  // A run that failed with no failed test (a file that did not load) still counts as a failure.
  const hasUncountedFailure = !report.success && report.numFailedTests === 0;
  return {
    passed: report.numPassedTests,
    failed: report.numFailedTests + (hasUncountedFailure ? 1 : 0),
    failures,
  };
}

function readPlaywrightCounts(file) {
  if (!existsSync(file)) return { passed: 0, failed: 1, failures: ['e2e: no report'] };
  const { stats, suites } = JSON.parse(readFileSync(file, 'utf8'));
  const failures = [];
  const visit = (suite, titles) => {
    for (const spec of suite.specs ?? []) {
      if (spec.tests.some((test) => test.status === 'unexpected' || test.status === 'skipped')) {
        failures.push(`${spec.file}:${spec.line} › ${[...titles, spec.title].join(' › ')}`);
      }
    }
    for (const child of suite.suites ?? []) visit(child, [...titles, child.title]);
  };
  for (const suite of suites ?? []) visit(suite, []);
  return { passed: stats.expected + stats.flaky, failed: stats.unexpected + stats.skipped, failures };
}

function firstLine(text) {
  return (text ?? 'did not load').split('\n')[0].slice(0, 300);
}

ensureDependencies();
ensureChromium();
rmSync(reports, { recursive: true, force: true });
mkdirSync(reports, { recursive: true });

const npx = 'npx';
// Lint and typecheck each use one core: side by side on two they take the time of the longer.
const checks = await Promise.all([
  startStep('Lint', 'npm', ['run', 'lint']),
  startStep('Typecheck', 'npm', ['run', 'typecheck']),
]);
ensureWebBuild();
// Vitest runs one file at a time on a 2-core machine (cores − 1). Unit files are CPU-bound: two.
// Integration files mostly wait (PostgreSQL, the emulator, SMTP, lapsing leases), each in a database
// of its own: three at once took the project from 12.4 to 5.6 minutes with no new failure.
const workersByProject = { unit: 2, integration: 3 };
const vitestProject = (name) =>
  step(`${name[0].toUpperCase()}${name.slice(1)} tests`, npx, [
    'vitest',
    'run',
    '--project',
    name,
    `--maxWorkers=${process.env.TEST_WORKERS ?? workersByProject[name]}`,
    '--minWorkers=1',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${path.join(reports, `${name}.json`)}`,
  ]);
vitestProject('unit');
// One after the other: run side by side, the integration and end-to-end tests each took longer than
// both in turn (1,059 s against 462 + 462 s), and the slowest proofs ran out of time.
vitestProject('integration');
step('End-to-end tests (Chromium)', 'npm', ['run', 'test', '-w', '@cloudtrim/e2e']);

const counts = [
  readVitestCounts(path.join(reports, 'unit.json')),
  readVitestCounts(path.join(reports, 'integration.json')),
  readPlaywrightCounts(path.join(reports, 'e2e.json')),
];
const passed = counts.reduce((sum, count) => sum + count.passed, 0);
const failed = counts.reduce((sum, count) => sum + count.failed, 0) + checks.filter((isOk) => !isOk).length;
if (checks.some((isOk) => !isOk)) console.log('\nLint or typecheck failed (counted as failures).');
console.log(`\n${timings.join(' · ')}`);
const failures = counts.flatMap((count) => count.failures);
if (failures.length > 0) console.log(`\nFailed:\n${failures.map((name) => `  ${name}`).join('\n')}`);
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
