/// <reference lib="dom" />
// The pages as a browser gets them, from the built web app served by the real server with a
// 10,000-resource estate, in Debian's Chromium:
// - /resources: from the moment the Cloud Resources answer has arrived to the first rows painted
//   (target ≤ 150 ms), beside the same page's arrival-to-paint of its heading alone;
// - Lighthouse (performance and accessibility, desktop) on /login and /resources (target ≥ 95).
import lighthouse from 'lighthouse';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { azureEnvironment, startEmulatorProcess } from '../support/emulator-process';
import { benchPassword, connectEstate } from '../support/estate';
import { startBenchServer } from '../support/harness';

const fleetSize = Number(process.env.BENCH_FLEET_SIZE ?? 10_000);
const targets = { paintMs: 150, lighthouseScore: 95 };
const email = 'pages-bench@example.com';
const webRoot = path.resolve(import.meta.dirname, '../../web/dist');
const runs = 5;

if (!existsSync(path.join(webRoot, 'index.html'))) {
  execFileSync('npm', ['run', 'build', '-w', '@cloudtrim/web'], { stdio: 'inherit' });
}

const emulatorDir = await mkdtemp(path.join(os.tmpdir(), 'cloudtrim-bench-emulator-'));
const emulator = await startEmulatorProcess({ dataDir: emulatorDir, fleetSize, seed: 42, throttling: false });
const server = await startBenchServer(azureEnvironment(emulator), { webRoot });
const { tenantIds } = await connectEstate(server, emulator, email);
for (const tenantId of tenantIds) await server.container.inventory.syncTenant(tenantId);

const debuggingPort = await findFreePort();
const profileDir = await mkdtemp(path.join(os.tmpdir(), 'cloudtrim-bench-chromium-'));
// A persistent context is the browser's default one, so Lighthouse's tab shares its signed-in storage.
const browser = await chromium.launchPersistentContext(profileDir, {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--headless=new', '--no-sandbox', '--disable-gpu', `--remote-debugging-port=${debuggingPort}`],
  viewport: { width: 1350, height: 940 },
});
const page = browser.pages()[0] ?? (await browser.newPage());
await page.goto(`${server.url}/login`);
await page.getByLabel('Email').fill(email);
await page.getByLabel('Password', { exact: true }).fill(benchPassword);
await page.getByRole('button', { name: 'LOG IN' }).click();
await page.waitForURL('**/home');

// Marks, in the page's own clock, when the first table row is in the DOM and then painted (the
// frame after the one that laid it out).
await page.addInitScript(() => {
  const marks = window as unknown as { firstRowPaintedAt?: number };
  const observer = new MutationObserver(() => {
    if (!document.querySelector('table tbody tr')) return;
    observer.disconnect();
    requestAnimationFrame(() => requestAnimationFrame(() => (marks.firstRowPaintedAt = performance.now())));
  });
  observer.observe(document, { childList: true, subtree: true });
});

const arrivalToPaint: number[] = [];
for (let run = 0; run < runs; run += 1) {
  await page.goto(`${server.url}/resources`);
  await page.waitForFunction(() => (window as { firstRowPaintedAt?: number }).firstRowPaintedAt);
  const figure = await page.evaluate(() => {
    const list = performance
      .getEntriesByType('resource')
      .find((entry) => new URL(entry.name).pathname === '/api/v1/resource') as PerformanceResourceTiming;
    return (window as unknown as { firstRowPaintedAt: number }).firstRowPaintedAt - list.responseEnd;
  });
  arrivalToPaint.push(figure);
}
arrivalToPaint.sort((a, b) => a - b);
const medianMs = arrivalToPaint[Math.floor(runs / 2)]!;
console.log(
  `/resources, ${fleetSize} resources: Cloud Resources answer arrived → first rows painted: median ` +
    `${medianMs.toFixed(0)} ms, worst ${arrivalToPaint.at(-1)!.toFixed(0)} ms of ${runs} loads ` +
    `(target ≤ ${targets.paintMs} ms) ${medianMs <= targets.paintMs ? 'met' : 'MISSED'}`,
);

let isEveryScoreMet = true;
for (const route of ['/login', '/resources']) {
  // /login is for visitors: the stored session would send Lighthouse on to /home.
  if (route === '/login') await page.evaluate(() => localStorage.clear());
  const result = await lighthouse(
    `${server.url}${route}`,
    {
      port: debuggingPort,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance', 'accessibility'],
      formFactor: 'desktop',
      screenEmulation: { mobile: false, width: 1350, height: 940, deviceScaleFactor: 1, disabled: false },
      throttlingMethod: 'provided',
      disableStorageReset: true,
    },
    undefined,
  );
  const categories = result?.lhr.categories;
  const performanceScore = Math.round((categories?.performance?.score ?? 0) * 100);
  const accessibilityScore = Math.round((categories?.accessibility?.score ?? 0) * 100);
  const isMet = performanceScore >= targets.lighthouseScore && accessibilityScore >= targets.lighthouseScore;
  isEveryScoreMet &&= isMet;
  console.log(
    `Lighthouse ${route.padEnd(11)} performance ${performanceScore}, accessibility ${accessibilityScore} ` +
      `(target ≥ ${targets.lighthouseScore}) ${isMet ? 'met' : 'MISSED'}`,
  );
  if (route === '/login') {
    await page.goto(`${server.url}/login`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(benchPassword);
    await page.getByRole('button', { name: 'LOG IN' }).click();
    await page.waitForURL('**/home');
  }
}

await browser.close();
await server.stop();
await emulator.stop();
await rm(emulatorDir, { recursive: true, force: true });
await rm(profileDir, { recursive: true, force: true });
process.exitCode = medianMs <= targets.paintMs && isEveryScoreMet ? 0 : 1;

function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}
